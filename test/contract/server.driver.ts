import { createAppContainer } from '../../src/main/container';
import { TOKENS } from '../../src/application';
import { startTestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { Ledger } from '../../server/wallet/ledger';
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
      async creditTc(userId, kind, amount) {
        const ledger = new Ledger(t.server.store(), () => new Date());
        await ledger.credit(userId, kind, { amount, reason: 'admin', idempotencyKey: `contract:${userId}:${kind}:${amount}:${Math.random()}` });
      },
      async grantPrize(userId, win) {
        const [row] = await t.server.store().query<{ play_history_id: number }>(
          'INSERT INTO won_prizes (user_id, prize_kind, product_name, kuji_name, won_at) VALUES ($1, $2, $3, $4, $5) RETURNING play_history_id',
          [userId, win.prize_kind, win.product_name, win.kuji_name ?? null, new Date().toISOString()]);
        return row!.play_history_id;
      },
      async shipPrize(userId, playHistoryId, contactNumber) {
        await t.server.store().query(
          `WITH r AS (
             INSERT INTO delivery_requests (user_id, delivery_status, first_name, last_name, zip, address1, address2, address3, tel, email,
                                            prize_contact_number, prize_shipmented_at, requested_at)
             SELECT user_id, 'shipped', first_name, last_name, zip, address1, address2, address3, tel, email, $3, now(), now()
               FROM addresses WHERE user_id = $1 AND is_main RETURNING delivery_id)
           INSERT INTO delivery_request_items (delivery_id, play_history_id) SELECT delivery_id, $2 FROM r`,
          [userId, playHistoryId, contactNumber]);
      },
      async suspendUser(userId) {
        await t.server.store().query('UPDATE users SET status = 2 WHERE user_id = $1', [userId]);
      },
    },
    close: () => t.close(),
  };
}
