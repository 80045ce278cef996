import { readServerConfig } from '../../server/config';
import { acquireDataDirLock } from '../../server/store/data-dir-lock';
import { openPostgresStore } from '../../server/store/postgres-store';
import { openPgliteStore, type Store } from '../../server/store/store';

/** Why a command cannot open the store (printed as it is). */
export class CommandStoreError extends Error {}

/**
 * The store the server uses, for a command run beside it: PostgreSQL (DATABASE_URL, shared with
 * the running instances), or the embedded store in DATA_DIR, which must not be open in a running
 * server (its lock says so: DataDirLockedError).
 */
export async function openCommandStore(): Promise<{ store: Store; release: () => void }> {
  const config = readServerConfig();
  if (config.databaseUrl)
    return { store: await openPostgresStore(config.databaseUrl, { poolSize: 1 }), release: () => {} };
  if (!config.dataDir) throw new CommandStoreError('the embedded store is in memory (no DATA_DIR): nothing to read');
  const lock = acquireDataDirLock(config.dataDir);
  return { store: await openPgliteStore(config.dataDir), release: () => lock.release() };
}
