import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/** The store's SQL surface. SQL is kept PostgreSQL-compatible so a real server can replace PGlite. */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

export interface Store extends SqlExecutor {
  exec(sql: string): Promise<void>;
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function wrap(db: PGlite | Transaction): SqlExecutor {
  return {
    async query<R>(sql: string, params: unknown[] = []) {
      return (await db.query<R>(sql, params)).rows;
    },
  };
}

/**
 * Opens the embedded PostgreSQL (PGlite) in `dataDir`, or in memory when `dataDir` is null. With a
 * `template` (a dump of another store's data directory, see `dumpStore`) the new store starts as a
 * copy of it: tests clone one migrated and seeded store instead of creating and seeding their own.
 */
export async function openPgliteStore(
  dataDir: string | null,
  options: { readonly template?: Blob } = {},
): Promise<Store> {
  const load = options.template ? { loadDataDir: options.template } : {};
  let db: PGlite;
  if (dataDir) {
    const dir = join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create(dir, load);
  } else {
    db = await PGlite.create(load);
  }
  const executor = wrap(db);
  const store: Store = {
    query: executor.query,
    async exec(sql) {
      await db.exec(sql);
    },
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    close: () => db.close(),
  };
  pglites.set(store, db);
  return store;
}

const pglites = new WeakMap<Store, PGlite>();

/** The whole data directory of a PGlite store as an uncompressed tarball (a template for `openPgliteStore`). */
export async function dumpStore(store: Store): Promise<Blob> {
  const db = pglites.get(store);
  if (!db) throw new Error('dumpStore: not a PGlite store');
  return db.dumpDataDir('none');
}
