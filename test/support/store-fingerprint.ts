import type { Store } from '../../server/store/store';

const tableLists = new WeakMap<Store, Promise<string>>();

/**
 * Columns the server writes beside any request, left out of their table's digest: a station key's
 * last use (the agents' key checks, every minute while the test's agent is connected).
 */
const BOOKKEEPING: Record<string, string> = { station_keys: 'last_used_at' };

/**
 * Tables left out of the digest: the limits' attempt counts and logs (migrations 054, 056), which a
 * request adds to before it is checked, on purpose, whether it is then answered or refused, and the
 * open connections' leases (057).
 */
const COUNTERS = ['limit_counts', 'attempt_logs', 'connection_leases'];

async function fingerprintQuery(store: Store): Promise<string> {
  const tables = await store.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return tables
    .filter(({ table_name }) => !COUNTERS.includes(table_name))
    .map(({ table_name }) =>
      table_name in BOOKKEEPING
        ? `SELECT '${table_name}' AS t, count(*)::int AS n, md5(coalesce(string_agg((to_jsonb(r) - '${BOOKKEEPING[table_name]}')::text, ',' ORDER BY r::text), '')) AS d FROM "${table_name}" r`
        : `SELECT '${table_name}' AS t, count(*)::int AS n, md5(coalesce(string_agg(ctid::text || ':' || xmin::text, ',' ORDER BY ctid), '')) AS d FROM "${table_name}"`,
    )
    .join(' UNION ALL ');
}

/**
 * The digest's rows in table order: a UNION ALL's rows come in no promised order (PostgreSQL may
 * run its branches as a parallel append), and CI saw two digests of the same store differ by the
 * order of their lines alone.
 */
const ordered = (union: string) => `SELECT t, n, d FROM (${union}) AS digest ORDER BY t`;

/**
 * A digest of every table in the store's public schema, to prove that a refused request changed
 * nothing. It hashes each live row version's physical position and creating transaction (ctid, xmin):
 * any INSERT, UPDATE or DELETE that commits changes it, without serialising the rows themselves.
 * Tables are listed from the catalog, so new migrations are covered. A table with bookkeeping columns
 * (BOOKKEEPING) is hashed by its rows' contents without them.
 */
export async function storeFingerprint(store: Store): Promise<string> {
  let query = tableLists.get(store);
  if (!query) {
    query = fingerprintQuery(store);
    tableLists.set(store, query);
  }
  const rows = await store.query<{ t: string; n: number; d: string }>(ordered(await query));
  return rows.map((r) => `${r.t}:${r.n}:${r.d}`).join('\n');
}
