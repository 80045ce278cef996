import type { SqlExecutor } from '../store/store';
import type { AttemptLogs } from './attempt-limiter';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The attempt limits' logs in the store (table `attempt_logs`, migration 056), shared by every
 * instance on one database. An attempt is one upsert: under the row's lock (concurrent attempts on
 * PostgreSQL wait for each other and then see the committed row; PGlite runs one statement at a
 * time) it keeps the newest `max` attempts after `since`, appends `at` when fewer than `max` remain
 * (or always, forced) and records in `allowed` what it decided, which RETURNING answers.
 */
export class StoreAttemptLogs implements AttemptLogs {
  constructor(private readonly db: SqlExecutor) {}

  async add(key: string, at: number, since: number, max: number, expiresAt: number, force: boolean): Promise<boolean> {
    // Every SET expression reads the row as it was before this statement (l.*).
    const [row] = await this.db.query<{ allowed: boolean }>(
      `INSERT INTO attempt_logs AS l (key, attempts, allowed, expires_at)
       VALUES ($1, ARRAY[$2::bigint], true, $5)
       ON CONFLICT (key) DO UPDATE SET
         allowed = $6::boolean OR (SELECT count(*) FROM unnest(l.attempts) AS t WHERE t > $3::bigint) < $4::int,
         attempts = (
           SELECT coalesce(array_agg(k.t ORDER BY k.t), '{}')
           FROM (
             SELECT t FROM unnest(
               CASE WHEN $6::boolean OR (SELECT count(*) FROM unnest(l.attempts) AS u WHERE u > $3::bigint) < $4::int
                    THEN l.attempts || $2::bigint ELSE l.attempts END
             ) AS t
             WHERE t > $3::bigint ORDER BY t DESC LIMIT $4::int
           ) AS k
         ),
         expires_at = greatest(l.expires_at, CASE
           WHEN $6::boolean OR (SELECT count(*) FROM unnest(l.attempts) AS u WHERE u > $3::bigint) < $4::int
           THEN $5::timestamptz ELSE l.expires_at END)
       RETURNING allowed`,
      [key, at, since, max, iso(expiresAt), force],
    );
    return row!.allowed;
  }

  async remove(key: string, at: number): Promise<void> {
    await this.db.query(
      `UPDATE attempt_logs
          SET attempts = attempts[:array_position(attempts, $2::bigint) - 1] || attempts[array_position(attempts, $2::bigint) + 1:]
        WHERE key = $1 AND $2::bigint = ANY (attempts)`,
      [key, at],
    );
  }

  async count(key: string, since: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM attempt_logs AS l, unnest(l.attempts) AS t WHERE l.key = $1 AND t > $2::bigint',
      [key, since],
    );
    return Number(row?.n ?? 0);
  }

  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM attempt_logs WHERE key = $1', [key]);
  }

  async removeExpired(now: number): Promise<number> {
    const rows = await this.db.query('DELETE FROM attempt_logs WHERE expires_at <= $1 RETURNING 1', [iso(now)]);
    return rows.length;
  }
}
