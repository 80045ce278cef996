import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import { seedCatalogue } from '../seed/seed';
import { acquireDataDirLock } from '../store/data-dir-lock';
import { migrate } from '../store/migrate';
import { openPostgresStore } from '../store/postgres-store';
import { openPgliteStore, type Store } from '../store/store';

/** The server's store as it opens: in the background, from the moment the server is built. */
export interface ServerStore {
  /** Resolves once migrations and the seed are done (rejects when the store could not start). */
  readonly ready: Promise<void>;
  readonly current: () => Store | null;
  readonly failed: () => boolean;
  /** Closes the store and releases the data directory. */
  close(): Promise<void>;
}

/**
 * Opens the store: PGlite in DATA_DIR (one server per directory: a second start throws
 * DataDirLockedError here, before it listens), or PostgreSQL (DATABASE_URL, shared by several
 * instances, no directory locked); then migrates and seeds it. Until it is ready the API and
 * /healthz answer 503.
 */
export function openServerStore(
  config: ServerConfig,
  clock: Clock,
  log: FastifyBaseLogger,
  template: Blob | undefined,
): ServerStore {
  const dataDirLock =
    config.dataDir && !config.databaseUrl
      ? acquireDataDirLock(config.dataDir, {
          onStale: (owner) =>
            log.warn({ owner }, `taking over a stale lock on ${config.dataDir} (pid ${owner.pid} no longer runs)`),
        })
      : null;
  let store: Store | null = null;
  let failed = false;
  const ready = (async () => {
    const opened = config.databaseUrl
      ? await openPostgresStore(config.databaseUrl, { poolSize: config.databasePoolSize })
      : await openPgliteStore(config.dataDir, template ? { template } : {});
    await migrate(opened);
    await seedCatalogue(opened, clock.now());
    store = opened;
  })().catch((error: unknown) => {
    failed = true;
    log.error({ err: error }, 'storage failed to start');
    throw error;
  });
  ready.catch(() => undefined);
  return {
    ready,
    current: () => store,
    failed: () => failed,
    async close() {
      await ready.catch(() => undefined);
      if (store) await store.close();
      dataDirLock?.release();
    },
  };
}
