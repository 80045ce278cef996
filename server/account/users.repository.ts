import { createHash } from 'node:crypto';
import type { AdditionalKey, Flag01, UnreadKind, UserDataAnswer } from '../../src/contract';
import { ADDITIONAL_KEYS, UNREAD_KINDS } from '../../src/contract';
import {
  PREFECTURES,
  RESERVING_STATUSES,
  type CraneItem,
  type Prefecture,
  type Profile,
  type ReserveStatus,
} from '../../src/domain';
import type { SqlExecutor } from '../store/store';
import { AccountRefusal } from './account-errors';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';

export interface UserRow {
  user_id: number;
  email: string | null;
  email_verified_at: Date | null;
  nickname: string | null;
  sex: number | null;
  birth: string | null;
  prefecture: number | null;
  tel: string | null;
  tel_verified_at: Date | null;
  status: number;
  created_at: Date;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const flag = (v: number | boolean | null | undefined): Flag01 => (v === 1 || v === true ? 1 : 0);

/** The login-info columns of the users table. */
interface LoginRow {
  agree_contract: number;
  sound: number;
  hide_character: number;
  vip_level: number;
  status: number;
  notice_get: number;
}

/** What POST /user/user_data answers besides the wallet (tc_info and ticket_info come from the ledger). */
export type UserDataWithoutWallet = Omit<UserDataAnswer, 'tc_info' | 'ticket_info'>;

/** Per-user settings, profile, flags and e-mail: the users table and its small side tables. */
export class UsersRepository {
  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
  ) {}

  async get(userId: number, q: SqlExecutor = this.db): Promise<UserRow> {
    const [row] = await q.query<UserRow>(
      `SELECT user_id, email, email_verified_at, nickname, sex, to_char(birth, 'YYYY-MM-DD') AS birth, prefecture, tel, tel_verified_at, status, created_at
         FROM users WHERE user_id = $1`,
      [userId],
    );
    if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
    return row;
  }

  async setHideCharacter(userId: number, value: Flag01): Promise<void> {
    await this.db.query('UPDATE users SET hide_character = $2 WHERE user_id = $1', [userId, value]);
  }

  /** set_volume.volume is the login info's sound flag. */
  async setSound(userId: number, value: Flag01): Promise<void> {
    await this.db.query('UPDATE users SET sound = $2 WHERE user_id = $1', [userId, value]);
  }

  async agree(userId: number): Promise<void> {
    await this.db.query('UPDATE users SET agree_contract = 1, agreed_at = coalesce(agreed_at, $2) WHERE user_id = $1', [
      userId,
      this.clock.now().toISOString(),
    ]);
  }

  async setAdditional(userId: number, key: AdditionalKey, value: Flag01): Promise<Record<AdditionalKey, Flag01>> {
    await this.db.query(
      `INSERT INTO user_additionals (user_id, additional_key, additional_value, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, additional_key) DO UPDATE SET additional_value = EXCLUDED.additional_value, updated_at = EXCLUDED.updated_at`,
      [userId, key, value, this.clock.now().toISOString()],
    );
    return this.additionalList(userId);
  }

  async additionalList(userId: number): Promise<Record<AdditionalKey, Flag01>> {
    const rows = await this.db.query<{ additional_key: string; additional_value: number }>(
      'SELECT additional_key, additional_value FROM user_additionals WHERE user_id = $1',
      [userId],
    );
    const out = Object.fromEntries(ADDITIONAL_KEYS.map((k) => [k, 0])) as Record<AdditionalKey, Flag01>;
    for (const r of rows)
      if ((ADDITIONAL_KEYS as readonly string[]).includes(r.additional_key))
        out[r.additional_key as AdditionalKey] = r.additional_value === 1 ? 1 : 0;
    return out;
  }

  /** Sets an unread flag (for the modules that publish news, prizes, kuji results…). */
  async markUnread(userId: number, kind: UnreadKind): Promise<void> {
    await this.db.query(
      'INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [userId, kind, this.clock.now().toISOString()],
    );
  }

  /** Clears one unread flag, or all of them; answers the flags afterwards. */
  async markRead(userId: number, kind?: UnreadKind): Promise<Record<UnreadKind, Flag01>> {
    if (kind) await this.db.query('DELETE FROM user_unread WHERE user_id = $1 AND kind = $2', [userId, kind]);
    else await this.db.query('DELETE FROM user_unread WHERE user_id = $1', [userId]);
    return this.unread(userId);
  }

  async unread(userId: number): Promise<Record<UnreadKind, Flag01>> {
    const rows = await this.db.query<{ kind: UnreadKind }>('SELECT kind FROM user_unread WHERE user_id = $1', [userId]);
    const out = Object.fromEntries(UNREAD_KINDS.map((k) => [k, 0])) as Record<UnreadKind, Flag01>;
    for (const r of rows) out[r.kind] = 1;
    return out;
  }

  /**
   * Profile change. The birth date can be registered once and never changed afterwards: purchase
   * limits for minors depend on it (docs/api/user.md).
   */
  async setProfile(
    userId: number,
    p: { sex?: number | undefined; birth?: string | undefined; prefectures?: Prefecture | undefined },
  ): Promise<UserRow> {
    const user = await this.get(userId);
    if (p.birth !== undefined && user.birth !== null && user.birth !== p.birth)
      throw new AccountRefusal(409, SERVER_MESSAGES.birthFixed);
    if (p.birth !== undefined && p.birth > this.clock.now().toISOString().slice(0, 10))
      throw new AccountRefusal(400, SERVER_MESSAGES.birthInFuture);
    await this.db.query(
      'UPDATE users SET sex = coalesce($2, sex), birth = coalesce($3::date, birth), prefecture = coalesce($4, prefecture) WHERE user_id = $1',
      [userId, p.sex ?? null, p.birth ?? null, p.prefectures ? PREFECTURES.indexOf(p.prefectures) + 1 : null],
    );
    return this.get(userId);
  }

  async setNickname(userId: number, nickname: string): Promise<void> {
    await this.db.query('UPDATE users SET nickname = $2 WHERE user_id = $1', [userId, nickname]);
  }

  /** Profile answer shape (spec §3 profile + nickname info). */
  static profileView(u: UserRow) {
    const profile: Profile = {
      sex: u.sex ?? 0,
      birth: u.birth ?? '',
      prefectures: u.prefecture ? (PREFECTURES[u.prefecture - 1] ?? '') : '',
      created_at: iso(u.created_at)!,
    };
    return {
      profile,
      nickname_info: { userId: u.user_id, nickname: u.nickname ?? '', isNicknameUnregistered: !u.nickname },
    };
  }

  /**
   * The user data of spec §3 [R3-6] that this repository owns: auth and login info, nickname, profile,
   * crane items, unread flags and e-mail; every read is scoped by the caller's user_id. modal_list is
   * always empty: the reference server queues no modals for a user. 404 for a user that does not exist.
   */
  async userData(userId: number): Promise<UserDataWithoutWallet> {
    const u = await this.get(userId);
    const [login] = await this.db.query<LoginRow>(
      'SELECT agree_contract, sound, hide_character, vip_level, status, notice_get FROM users WHERE user_id = $1',
      [userId],
    );
    if (!login) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
    const [playing] = await this.db.query<{ station_id: number; reserve_status: ReserveStatus }>(
      'SELECT station_id, reserve_status FROM station_reservations WHERE user_id = $1 AND reserve_status = ANY($2::text[]) ORDER BY play_reserve_id DESC LIMIT 1',
      [userId, [...RESERVING_STATUSES]],
    );
    const { profile, nickname_info } = UsersRepository.profileView(u);
    return {
      auth_info: { user_id: u.user_id, agree_contract: flag(login.agree_contract) },
      login_info: {
        sound: flag(login.sound),
        hide_character: flag(login.hide_character),
        vip_level: login.vip_level,
        status: login.status,
        is_sms: u.tel_verified_at ? 1 : 0,
        notice_get: flag(login.notice_get),
        play_info: { station_id: playing?.station_id ?? null, reserve_status: playing?.reserve_status ?? null },
        additional_list: await this.additionalList(userId),
        modal_list: [],
      },
      nickname_info,
      profile,
      crane_items: await this.craneItems(userId),
      unread: await this.unread(userId),
      email: u.email ?? '',
    };
  }

  /** The crane items the user holds (count above 0), by item id. */
  async craneItems(userId: number): Promise<CraneItem[]> {
    return this.db.query<CraneItem>(
      'SELECT item_id, name, count FROM crane_items WHERE user_id = $1 ORDER BY item_id',
      [userId],
    );
  }

  /** Gives the user `count` more of one crane item kind (for the modules that hand items out). */
  async giveCraneItem(
    userId: number,
    item: { readonly item_id: number; readonly name: string },
    count: number,
  ): Promise<void> {
    if (!Number.isSafeInteger(count) || count <= 0)
      throw new RangeError(`a crane item count is a whole number above 0 (got ${count})`);
    await this.db.query(
      `INSERT INTO crane_items (user_id, item_id, name, count, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, item_id) DO UPDATE SET count = crane_items.count + EXCLUDED.count, name = EXCLUDED.name, updated_at = EXCLUDED.updated_at`,
      [userId, item.item_id, item.name, count, this.clock.now().toISOString()],
    );
  }

  /** Revokes every live media (stream) token of the user; answers how many. */
  async revokeMediaTokens(userId: number): Promise<number> {
    const rows = await this.db.query(
      'UPDATE media_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 RETURNING token_hash',
      [userId, this.clock.now().toISOString()],
    );
    return rows.length;
  }

  /** Records a media token issued for a station's stream (used by the play module). */
  async recordMediaToken(userId: number, token: string, stationId: number | null, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    await this.db.query(
      'INSERT INTO media_tokens (token_hash, user_id, station_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [
        createHash('sha256').update(token).digest('hex'),
        userId,
        stationId,
        now.toISOString(),
        new Date(now.getTime() + ttlMs).toISOString(),
      ],
    );
  }
}

export { iso };
