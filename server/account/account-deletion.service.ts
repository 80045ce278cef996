import { ACCOUNT_DELETED } from '../wallet/purchase.service';
import { CONTRACT_MESSAGES } from '../../src/contract';
import { KUJI_RESERVE_STATUSES, type AccountDeletionPreview } from '../../src/domain';
import type { PasswordService, SessionEvents } from '../auth/password.service';
import type { IdentityService } from '../auth/identity';
import type { Clock } from '../clock';
import { ERROR_INFO, SERVER_MESSAGES } from '../messages';
import { RESERVING_SQL } from '../play/reservation-sql';
import { sqlList } from '../store/sql-list';
import type { SqlExecutor, Store } from '../store/store';
import { lockUser } from '../store/user-lock';
import type { Ledger } from '../wallet/ledger';
import { AccountRefusal } from './account-errors';

/** Delivery statuses not yet handed to the carrier: deleting the account cancels them. */
const UNSHIPPED_SQL = sqlList(['requested', 'preparing']);
/** The ledger's reason and key of what a deletion forfeits (one per account, so written once). */
const FORFEIT = { reason: 'account_deleted', reference: 'account_deleted', idempotencyKey: 'account-deleted' };

/** The preview's answer on the wire [R10-7]. */
export interface DeletionPreviewAnswer {
  readonly prizes_not_requested: number;
  readonly deliveries_not_shipped: number;
  readonly tc_paid: number;
  readonly tc_free: number;
  readonly has_password: 0 | 1;
  /** The videos of the player's plays that go with the account (docs/clips.md) [R11-5]. */
  readonly clips: number;
}

/**
 * Account deletion [R10-7] (docs/api/user.md "Account deletion"). One transaction under the user's
 * row lock: unshipped deliveries cancelled (their fee forfeited, not refunded), unrequested prizes
 * expired, the TC and tickets held forfeited through the ledger, every personal datum erased
 * (e-mail, password, phone, profile, nickname, addresses and the requests' address copies, codes,
 * outbox messages, support texts and chat), every token revoked and the row marked deleted, so the
 * old token, the login and the socket's handshake all refuse. The ledger, the play log, the prizes
 * and the requests stay: they name the user_id only.
 */
export class AccountDeletionService {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly identity: IdentityService,
    private readonly passwords: PasswordService,
    private readonly events: () => SessionEvents | null,
    /** Removes the files of clips whose rows the deletion marked removed (after it commits). */
    private readonly removeClipFiles: (clipIds: readonly string[]) => void = () => undefined,
  ) {}

  /** What deleting would take with it, shown before the player confirms. */
  async preview(userId: number): Promise<DeletionPreviewAnswer> {
    const [row] = await this.db.query<AccountDeletionPreviewRow>(
      `SELECT (SELECT count(*)::int FROM won_prizes p
                WHERE p.user_id = u.user_id AND p.expired_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM delivery_request_items i WHERE i.play_history_id = p.play_history_id)) AS prizes,
              (SELECT count(*)::int FROM delivery_requests r
                WHERE r.user_id = u.user_id AND r.delivery_status IN ${UNSHIPPED_SQL}) AS deliveries,
              (SELECT count(*)::int FROM play_clips c WHERE c.user_id = u.user_id AND c.status <> 'removed') AS clips,
              u.password_hash IS NOT NULL AS has_password
         FROM users u WHERE u.user_id = $1 AND u.deleted_at IS NULL`,
      [userId],
    );
    if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
    const balance = await this.ledger.balance(userId);
    const preview: AccountDeletionPreview = {
      prizesNotRequested: row.prizes,
      deliveriesNotShipped: row.deliveries,
      tcPaid: balance.tc_toll,
      tcFree: balance.tc_free,
    };
    return {
      prizes_not_requested: preview.prizesNotRequested,
      deliveries_not_shipped: preview.deliveriesNotShipped,
      tc_paid: preview.tcPaid,
      tc_free: preview.tcFree,
      has_password: row.has_password ? 1 : 0,
      clips: row.clips,
    };
  }

  /**
   * Deletes the account. An account with a password must send it (checked with the per-user limit
   * before the transaction; 400 when missing, 401 when wrong, and nothing changes). A second
   * deletion, at once or later, finds the row deleted and answers 401 like the revoked token.
   * Refused (409) while the player holds a place in a station's or a kuji box's line: the line's
   * room would otherwise run a turn for an account that no longer exists.
   */
  async delete(userId: number, password: string | undefined): Promise<void> {
    const [account] = await this.db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE user_id = $1 AND deleted_at IS NULL',
      [userId],
    );
    if (!account) throw new AccountRefusal(401, ERROR_INFO[401]);
    let checked: string | null = null;
    if (account.password_hash !== null) {
      if (!password) throw new AccountRefusal(400, CONTRACT_MESSAGES.passwordRequired);
      checked = await this.passwords.verifyCurrent(userId, password);
    }
    const clips = await this.db.transaction(async (q) => {
      if (!(await lockUser(q, userId))) throw new AccountRefusal(401, ERROR_INFO[401]);
      const [row] = await q.query<{ password_hash: string | null; deleted_at: Date | null }>(
        'SELECT password_hash, deleted_at FROM users WHERE user_id = $1',
        [userId],
      );
      if (!row || row.deleted_at !== null) throw new AccountRefusal(401, ERROR_INFO[401]);
      // The password changed between the check and the lock: the one sent is no longer the account's.
      if (row.password_hash !== checked) throw new AccountRefusal(401, SERVER_MESSAGES.passwordWrong);
      if (await inLine(q, userId)) throw new AccountRefusal(409, SERVER_MESSAGES.accountDeleteBusy);
      return this.erase(q, userId);
    });
    // The clips' files go once their rows say so (a crash in between leaves folders no clip names,
    // which the clips' retention removes).
    this.removeClipFiles(clips);
    this.events()?.endSessions(userId);
  }

  /** Erases the account's personal data; answers the clips removed with it (their files go after the commit). */
  private async erase(q: SqlExecutor, userId: number): Promise<string[]> {
    const now = this.clock.now().toISOString();
    // The videos of the player's plays go with the account [R11-5]; a recording still being
    // written finds its row removed and deletes its files itself.
    const clips = await q.query<{ clip_id: string }>(
      `UPDATE play_clips SET status = 'removed', reason = 'account', removed_at = $2, shared = false, kept = false
        WHERE user_id = $1 AND status <> 'removed' RETURNING clip_id`,
      [userId, now],
    );
    // Deliveries not yet shipped are cancelled without a refund (the fee is forfeited with the TC).
    await q.query(
      `UPDATE delivery_requests SET delivery_status = 'cancelled', cancel_reason = $2, cancelled_at = $3, updated_at = $3
        WHERE user_id = $1 AND delivery_status IN ${UNSHIPPED_SQL}`,
      [userId, SERVER_MESSAGES.deliveryCancelledByDeletion, now],
    );
    // Every request's copy of the address is personal data; the request itself stays (fee, items, status).
    await q.query(
      `UPDATE delivery_requests SET first_name = '', last_name = '', zip = '', address1 = '', address2 = '', address3 = '',
              tel = '', email = NULL WHERE user_id = $1`,
      [userId],
    );
    // Prizes never requested lapse: nothing can request them any more, and the storage timer skips them.
    await q.query(
      `UPDATE won_prizes p SET expired_at = $2
        WHERE p.user_id = $1 AND p.expired_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM delivery_request_items i WHERE i.play_history_id = p.play_history_id)`,
      [userId, now],
    );
    // Purchases not yet paid are cancelled: a payment completing after this credits nobody (the
    // provider's callback is refused and the provider refunds it; purchase.service.ts). The rows'
    // locks order this with a callback being applied: one that got there first has credited, and
    // what it credited is forfeited below with the rest.
    await q.query(
      `UPDATE product_settlements SET status = 'cancelled', failure_code = $2 WHERE user_id = $1 AND status = 'pending'`,
      [userId, ACCOUNT_DELETED],
    );
    // The TC and tickets held are forfeited, written through the ledger so its rows still add up.
    const balance = await this.ledger.balance(userId, q);
    if (balance.tc_all > 0) await this.ledger.debit(userId, { amount: balance.tc_all, ...FORFEIT }, q);
    const tickets = await this.ledger.tickets(userId, q);
    if (tickets > 0) await this.ledger.debitTickets(userId, { amount: tickets, ...FORFEIT }, q);
    const [contact] = await q.query<{ email: string | null; tel: string | null }>(
      'SELECT email, tel FROM users WHERE user_id = $1',
      [userId],
    );
    const recipients = [contact?.email, contact?.tel].filter((v): v is string => typeof v === 'string' && v !== '');
    await q.query('DELETE FROM dev_outbox WHERE user_id = $1 OR recipient = ANY($2::text[])', [userId, recipients]);
    await q.query('DELETE FROM addresses WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM verification_codes WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM invite_codes WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM user_unread WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM support_messages WHERE user_id = $1', [userId]);
    await q.query("UPDATE support_contacts SET text = '', plays = NULL WHERE user_id = $1", [userId]);
    await q.query('UPDATE station_visits SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [userId, now]);
    await q.query('UPDATE media_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
    await this.identity.revokeAll(userId, q);
    await q.query(
      `UPDATE users SET email = NULL, email_verified_at = NULL, password_hash = NULL, nickname = NULL, sex = NULL, birth = NULL,
              prefecture = NULL, tel = NULL, tel_verified_at = NULL, debug_name = NULL, deleted_at = $2
        WHERE user_id = $1`,
      [userId, now],
    );
    return clips.map((row) => row.clip_id);
  }
}

interface AccountDeletionPreviewRow {
  clips: number;
  prizes: number;
  deliveries: number;
  has_password: boolean;
}

/** Whether the player holds a place in a station's or a kuji box's line, or a play is open. */
async function inLine(q: SqlExecutor, userId: number): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM station_reservations WHERE user_id = $1 AND reserve_status IN ${RESERVING_SQL}
     UNION ALL SELECT 1 FROM kuji_reservations WHERE user_id = $1 AND reserve_status IN ${sqlList(KUJI_RESERVE_STATUSES)}
     UNION ALL SELECT 1 FROM plays WHERE user_id = $1 AND phase IN ('resetting', 'playing', 'result')`,
    [userId],
  );
  return rows.length > 0;
}
