import { usePostgresCluster } from './postgres-cluster';
import { startTestServer, type TestServer } from './test-server';

/** The two stores a deployment can run on: the embedded PGlite and a PostgreSQL server (issue 25). */
export const STORE_KINDS = ['PGlite', 'PostgreSQL'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/**
 * For a file whose tests run on both stores: registers a throwaway PostgreSQL cluster for the file
 * and starts test servers on the asked store (PostgreSQL: a fresh copy of a migrated, seeded database).
 */
export function useStoreKinds(): {
  startServer(kind: StoreKind, options?: Parameters<typeof startTestServer>[0]): Promise<TestServer>;
} {
  const postgres = usePostgresCluster();
  return {
    async startServer(kind, options = {}) {
      if (kind === 'PGlite') return startTestServer({ inMemory: true, ...options });
      return startTestServer({ ...options, databaseUrl: await postgres.cluster.seededDatabase() });
    },
  };
}
