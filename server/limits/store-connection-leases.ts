import type { SqlExecutor } from '../store/store';
import type { LeaseLogs } from './connection-leases';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The connection leases in the store (table `connection_leases`, migration 057), shared by every
 * instance on one database. Taking a place is one upsert: under the row's lock (concurrent takes on
 * PostgreSQL wait for each other and then see the committed row; PGlite runs one statement at a
 * time) it drops the lapsed leases, adds the new one when fewer than `max` remain (a renewal always:
 * its connection is open) and records in `allowed` what it decided, which RETURNING answers.
 */
export class StoreConnectionLeases implements LeaseLogs {
  constructor(private readonly db: SqlExecutor) {}

  async take(key: string, id: string, now: number, until: number, max: number, force: boolean): Promise<boolean> {
    // Every SET expression reads the row as it was before this statement (l.*). A renewal keeps the
    // later end if two of them land out of order.
    const [row] = await this.db.query<{ allowed: boolean }>(
      `INSERT INTO connection_leases AS l (key, leases, allowed, expires_at)
       VALUES ($1, jsonb_build_object($2::text, $4::bigint), true, $6)
       ON CONFLICT (key) DO UPDATE SET
         allowed = $7::boolean
           OR (SELECT count(*) FROM jsonb_each_text(l.leases) AS e WHERE e.key <> $2::text AND e.value::bigint > $3::bigint) < $5::int,
         leases = (
           SELECT coalesce(jsonb_object_agg(e.key, e.value::bigint), '{}'::jsonb)
           FROM jsonb_each_text(l.leases) AS e WHERE e.value::bigint > $3::bigint
         ) || CASE
           WHEN $7::boolean
             OR (SELECT count(*) FROM jsonb_each_text(l.leases) AS e WHERE e.key <> $2::text AND e.value::bigint > $3::bigint) < $5::int
           THEN jsonb_build_object($2::text, greatest($4::bigint, coalesce((l.leases ->> $2::text)::bigint, 0)))
           ELSE '{}'::jsonb END,
         expires_at = greatest(l.expires_at, $6::timestamptz)
       RETURNING allowed`,
      [key, id, now, until, max, iso(until), force],
    );
    return row!.allowed;
  }

  async release(key: string, id: string): Promise<void> {
    await this.db.query('UPDATE connection_leases SET leases = leases - $2::text WHERE key = $1', [key, id]);
  }

  async removeExpired(now: number): Promise<number> {
    const rows = await this.db.query('DELETE FROM connection_leases WHERE expires_at <= $1 RETURNING 1', [iso(now)]);
    return rows.length;
  }
}
