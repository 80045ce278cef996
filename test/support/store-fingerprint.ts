import type { Store } from '../../server/store/store';

/**
 * A digest of every row of every table in the store's public schema, to prove that a rejected
 * request changed nothing. Tables are listed from the catalog so new migrations are covered.
 */
export async function storeFingerprint(store: Store): Promise<string> {
  const tables = await store.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const [row] = await store.query<{ digest: string | null; n: number }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest, count(*)::int AS n FROM "${table_name}" t`,
    );
    parts.push(`${table_name}:${row?.n}:${row?.digest}`);
  }
  return parts.join('\n');
}
