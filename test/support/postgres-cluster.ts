import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { STORE_LOCKS } from '../../server/store/store-locks';
import { seedCatalogue } from '../../server/seed/seed';
import { migrate } from '../../server/store/migrate';
import { openPostgresStore } from '../../server/store/postgres-store';
import {
  startPostgresCluster as startCluster,
  type PostgresCluster as Cluster,
} from '../../scripts/lib/postgres-cluster';

/** The tests' throwaway cluster (scripts/lib/postgres-cluster.ts) and a seeded database per server. */
export interface PostgresCluster extends Cluster {
  /** A new database holding the migrated and seeded demo store (copied from one made once). */
  seededDatabase(): Promise<string>;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const cluster = await startCluster();
  let seeded: Promise<void> | null = null;
  let copies = 0;
  return {
    ...cluster,
    async seededDatabase() {
      seeded ??= (async () => {
        const store = await openPostgresStore(await cluster.createDatabase('onkure_seeded'));
        await migrate(store);
        await seedCatalogue(store, new Date());
        await store.close();
      })();
      await seeded;
      copies += 1;
      return cluster.createDatabase(`onkure_${process.pid}_${copies}`, 'onkure_seeded');
    },
  };
}

/** Starts a cluster before the calling file's tests and removes it after them. */
export function usePostgresCluster(): { readonly cluster: PostgresCluster } {
  const holder: { cluster: PostgresCluster } = { cluster: undefined as unknown as PostgresCluster };
  beforeAll(async () => {
    holder.cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await holder.cluster?.stop();
  });
  return holder;
}

/** Whether some session holds the station host lock on the cluster of `url`. */
export async function hostLockHeld(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
      [STORE_LOCKS.stationHost],
    );
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}
