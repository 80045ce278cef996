import type { SqlExecutor } from '../store/store';
import type { LimitCounts } from './window-limiter';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The limits' counters in the store (table `limit_counts`, migration 054), shared by every
 * instance on one database. An attempt is one statement: the upsert adds 1 under the row's lock
 * (concurrent attempts on PostgreSQL wait for each other; PGlite runs one statement at a time) and
 * answers the new count with the previous window's, so no two attempts ever see the same count.
 */
export class StoreLimitCounts implements LimitCounts {
  constructor(private readonly db: SqlExecutor) {}

  async increment(
    key: string,
    windowStart: number,
    previousStart: number,
    expiresAt: number,
  ): Promise<{ count: number; previous: number }> {
    const [row] = await this.db.query<{ count: number; previous: number }>(
      `WITH hit AS (
         INSERT INTO limit_counts AS c (key, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + 1
         RETURNING c.count
       )
       SELECT hit.count,
              COALESCE((SELECT p.count FROM limit_counts p WHERE p.key = $1 AND p.window_start = $4), 0) AS previous
       FROM hit`,
      [key, iso(windowStart), iso(expiresAt), iso(previousStart)],
    );
    return { count: Number(row!.count), previous: Number(row!.previous) };
  }

  async decrement(key: string, windowStart: number): Promise<void> {
    await this.db.query(
      'UPDATE limit_counts SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0',
      [key, iso(windowStart)],
    );
  }

  async remove(key: string): Promise<void> {
    await this.db.query('DELETE FROM limit_counts WHERE key = $1', [key]);
  }

  async removeExpired(now: number): Promise<number> {
    const rows = await this.db.query('DELETE FROM limit_counts WHERE expires_at <= $1 RETURNING 1', [iso(now)]);
    return rows.length;
  }
}
