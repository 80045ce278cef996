import { changeSpendingLimit, NO_SPENDING_LIMIT, spendingLimitAt, type SpendingLimit } from '../../src/domain';
import type { Clock } from '../clock';
import type { SqlExecutor, Store } from '../store/store';

interface LimitRow {
  limit_yen: number | null;
  pending_limit_yen: number | null;
  pending_effective_at: Date | string | null;
}

const fromRow = (row: LimitRow | undefined): SpendingLimit =>
  row
    ? {
        limitYen: row.limit_yen,
        pending:
          row.pending_effective_at === null
            ? null
            : { limitYen: row.pending_limit_yen, effectiveAtMs: new Date(row.pending_effective_at).getTime() },
      }
    : NO_SPENDING_LIMIT;

/**
 * The players' own monthly spending limits [R10-3] (table spending_limits). The rule — lowering at
 * once, raising or removing after 24 hours — is the domain's `changeSpendingLimit`; this keeps it.
 */
export class SpendingLimits {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
  ) {}

  /** The limit as it stands now (a raise that has come due has taken effect). */
  async of(userId: number, tx: SqlExecutor = this.db): Promise<SpendingLimit> {
    const [row] = await tx.query<LimitRow>(
      'SELECT limit_yen, pending_limit_yen, pending_effective_at FROM spending_limits WHERE user_id = $1',
      [userId],
    );
    return spendingLimitAt(fromRow(row), this.clock.now().getTime());
  }

  /** The player asks for `limitYen` (null: no limit); answers the limit as it now stands. */
  async set(userId: number, limitYen: number | null): Promise<SpendingLimit> {
    return this.db.transaction(async (tx) => {
      // The user row is the lock purchases take too: a change never interleaves with a purchase's count.
      await tx.query('SELECT 1 FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
      const next = changeSpendingLimit(await this.of(userId, tx), limitYen, this.clock.now().getTime());
      await tx.query(
        `INSERT INTO spending_limits (user_id, limit_yen, pending_limit_yen, pending_effective_at, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE SET limit_yen = $2, pending_limit_yen = $3, pending_effective_at = $4, updated_at = $5`,
        [
          userId,
          next.limitYen,
          next.pending?.limitYen ?? null,
          next.pending ? new Date(next.pending.effectiveAtMs).toISOString() : null,
          this.clock.now().toISOString(),
        ],
      );
      return next;
    });
  }
}
