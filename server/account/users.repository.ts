import { createHash } from 'node:crypto';
import type { AdditionalKey, Flag01, UnreadKind } from '../../src/contract';
import { ADDITIONAL_KEYS, UNREAD_KINDS } from '../../src/contract';
import { PREFECTURES, type Prefecture, type Profile } from '../../src/domain';
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

/** Per-user settings, profile, flags and e-mail: the users table and its small side tables. */
export class UsersRepository {
  constructor(private readonly db: SqlExecutor, private readonly clock: Clock) {}

  async get(userId: number, q: SqlExecutor = this.db): Promise<UserRow> {
    const [row] = await q.query<UserRow>(
      `SELECT user_id, email, email_verified_at, nickname, sex, to_char(birth, 'YYYY-MM-DD') AS birth, prefecture, tel, tel_verified_at, status, created_at
         FROM users WHERE user_id = $1`, [userId]);
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
    await this.db.query('UPDATE users SET agree_contract = 1, agreed_at = coalesce(agreed_at, $2) WHERE user_id = $1', [userId, this.clock.now().toISOString()]);
  }

  async setAdditional(userId: number, key: AdditionalKey, value: Flag01): Promise<Record<AdditionalKey, Flag01>> {
    await this.db.query(
      `INSERT INTO user_additionals (user_id, additional_key, additional_value, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, additional_key) DO UPDATE SET additional_value = EXCLUDED.additional_value, updated_at = EXCLUDED.updated_at`,
      [userId, key, value, this.clock.now().toISOString()]);
    return this.additionalList(userId);
  }

  async additionalList(userId: number): Promise<Record<AdditionalKey, Flag01>> {
    const rows = await this.db.query<{ additional_key: string; additional_value: number }>('SELECT additional_key, additional_value FROM user_additionals WHERE user_id = $1', [userId]);
    const out = Object.fromEntries(ADDITIONAL_KEYS.map((k) => [k, 0])) as Record<AdditionalKey, Flag01>;
    for (const r of rows) if ((ADDITIONAL_KEYS as readonly string[]).includes(r.additional_key)) out[r.additional_key as AdditionalKey] = r.additional_value === 1 ? 1 : 0;
    return out;
  }

  /** Sets an unread flag (for the modules that publish news, prizes, kuji results…). */
  async markUnread(userId: number, kind: UnreadKind): Promise<void> {
    await this.db.query('INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userId, kind, this.clock.now().toISOString()]);
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
  async setProfile(userId: number, p: { sex?: number | undefined; birth?: string | undefined; prefectures?: Prefecture | undefined }): Promise<UserRow> {
    const user = await this.get(userId);
    if (p.birth !== undefined && user.birth !== null && user.birth !== p.birth) throw new AccountRefusal(409, SERVER_MESSAGES.birthFixed);
    if (p.birth !== undefined && p.birth > this.clock.now().toISOString().slice(0, 10)) throw new AccountRefusal(400, SERVER_MESSAGES.birthInFuture);
    await this.db.query(
      'UPDATE users SET sex = coalesce($2, sex), birth = coalesce($3::date, birth), prefecture = coalesce($4, prefecture) WHERE user_id = $1',
      [userId, p.sex ?? null, p.birth ?? null, p.prefectures ? PREFECTURES.indexOf(p.prefectures) + 1 : null]);
    return this.get(userId);
  }

  async setNickname(userId: number, nickname: string): Promise<void> {
    await this.db.query('UPDATE users SET nickname = $2 WHERE user_id = $1', [userId, nickname]);
  }

  /** Profile answer shape (spec §3 profile + nickname info). */
  static profileView(u: UserRow) {
    const profile: Profile = {
      sex: u.sex ?? 0, birth: u.birth ?? '', prefectures: u.prefecture ? (PREFECTURES[u.prefecture - 1] ?? '') : '', created_at: iso(u.created_at)!,
    };
    return {
      profile,
      nickname_info: { userId: u.user_id, nickname: u.nickname ?? '', isNicknameUnregistered: !u.nickname },
    };
  }

  /** Revokes every live media (stream) token of the user; answers how many. */
  async revokeMediaTokens(userId: number): Promise<number> {
    const rows = await this.db.query('UPDATE media_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 RETURNING token_hash', [userId, this.clock.now().toISOString()]);
    return rows.length;
  }

  /** Records a media token issued for a station's stream (used by the play module). */
  async recordMediaToken(userId: number, token: string, stationId: number | null, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    await this.db.query('INSERT INTO media_tokens (token_hash, user_id, station_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      createHash('sha256').update(token).digest('hex'), userId, stationId, now.toISOString(), new Date(now.getTime() + ttlMs).toISOString(),
    ]);
  }
}

export { iso };
