import { createAppContainer } from '../../src/main/container';
import { TOKENS } from '../../src/application';
import { startTestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { typedClient, type ContractDriver } from './harness';

/** The real adapters (ky over HTTP) against the reference server started on an ephemeral port. */
export async function serverDriver(): Promise<ContractDriver> {
  const t = await startTestServer({ listen: true, inMemory: true });
  const client = () =>
    typedClient(createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [], {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
    }));
  return {
    name: 'KyPrizeCatalog → reference server',
    client,
    async newUser() {
      const identity = await createTestUser(t);
      const container = client();
      container.get(TOKENS.SessionPort).signIn(identity);
      return { identity, client: container };
    },
    fixtures: {
      async stationIds() {
        const rows = await t.server.store().query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY station_id');
        return rows.map((r) => r.station_id);
      },
    },
    close: () => t.close(),
  };
}
