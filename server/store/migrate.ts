import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlExecutor, Store } from './store';
import { STORE_LOCKS, takeStoreLock } from './store-locks';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies every migrations/NNN_name.sql not yet recorded, each in its own transaction, in order.
 * Safe when several instances start at once on one PostgreSQL database: each transaction first
 * takes the migrations' advisory lock, then reads what is applied, so a file runs exactly once
 * and an instance that waited finds it done.
 */
export async function migrate(store: Store, dir = MIGRATIONS_DIR): Promise<string[]> {
  await store.transaction(async (tx) => {
    await takeStoreLock(tx, STORE_LOCKS.migrations);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = readFileSync(join(dir, file), 'utf8');
    const ran = await store.transaction(async (tx) => {
      await takeStoreLock(tx, STORE_LOCKS.migrations);
      if (await isApplied(tx, file)) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

async function isApplied(tx: SqlExecutor, file: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file])).length > 0;
}

/** Splits a migration on semicolons at line ends (migrations keep one statement per block). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
