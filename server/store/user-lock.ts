import type { SqlExecutor } from './store';

/**
 * Serialises one player's changes that span rows (addresses' one-main rule, delivery requests, the
 * ledger): the users row, taken first, before the wallet row. Answers whether the user exists.
 */
export async function lockUser(q: SqlExecutor, userId: number): Promise<boolean> {
  const rows = await q.query('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
  return rows.length > 0;
}
