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

/** Opens the embedded PostgreSQL (PGlite) in `dataDir`, or in memory when `dataDir` is null. */
export async function openPgliteStore(dataDir: string | null): Promise<Store> {
  let db: PGlite;
  if (dataDir) {
    const dir = join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create(dir);
  } else {
    db = await PGlite.create();
  }
  const executor = wrap(db);
  return {
    query: executor.query,
    async exec(sql) {
      await db.exec(sql);
    },
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    close: () => db.close(),
  };
}
