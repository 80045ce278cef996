import { createAppContainer } from '../../src/main/container';
import { TOKENS } from '../../src/application';
import { injectFetch } from '../support/inject-fetch';
import { startTestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { cardFields, CARDS, providerStep } from '../support/payments';
import { Ledger } from '../../server/wallet/ledger';
import { typedClient, type ContractDriver } from './harness';
import { systemClock } from '../../server/clock';
import { stationOps } from '../support/station-ops';

/**
 * The real adapters (ky) against the reference server: in-process through Fastify's inject
 * (`transport: 'inject'`, no socket) or over HTTP on an ephemeral port (`'http'`).
 */
export async function serverDriver(transport: 'inject' | 'http'): Promise<ContractDriver> {
  const t = await startTestServer({ listen: transport === 'http', inMemory: true });
  const fetchVia = transport === 'inject' ? { fetch: injectFetch(t.server.app) } : {};
  const client = () =>
    typedClient(
      createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [], {
        storage: null,
        cookies: () => '',
        navigator: { reload: () => undefined, goTo: () => undefined },
        ...fetchVia,
      }),
    );
  return {
    name: `ky adapters → reference server (${transport})`,
    client,
    async newUser() {
      const identity = await createTestUser(t);
      const container = client();
      container.get(TOKENS.SessionPort).signIn(identity);
      return { identity, client: container };
    },
    fixtures: {
      async stationIds() {
        const rows = await t.server
          .store()
          .query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY station_id');
        return rows.map((r) => r.station_id);
      },
      async playableStationIds(type) {
        const rows = await t.server
          .store()
          .query<{ station_id: number }>(
            `SELECT station_id FROM stations WHERE shop_id = 1 AND station_type = $1 AND station_status = 'open' AND stock > 0 ORDER BY station_id`,
            [type],
          );
        return rows.map((r) => r.station_id);
      },
      async setStationStatus(stationId, status) {
        await stationOps(t.server).setStatus(stationId, status);
      },
      async grantFreeTc(userId, amount) {
        await t.server.services().ledger.credit(userId, 'free', {
          amount,
          reason: 'admin',
          idempotencyKey: `contract-grant:${userId}:${amount}`,
        });
      },
      async creditPurchasedTc(userId, amount) {
        // A bought paid-TC credit as the wallet writes it (reason 'purchase'); the VIP gate sums these.
        await t.server.store().query(
          `INSERT INTO tc_ledger (user_id, kind, delta, balance_after, reason, idempotency_key, created_at)
           VALUES ($1, 'toll', $2::int, (SELECT coalesce(sum(delta), 0)::int FROM tc_ledger WHERE user_id = $1 AND kind = 'toll') + $2::int, 'purchase', $3, $4)`,
          [userId, amount, `contract-vip:${userId}:${amount}:${Date.now()}`, new Date().toISOString()],
        );
      },
      async recordVipWin(userId, stationId) {
        await t.server
          .store()
          .query('INSERT INTO vip_prize_wins (user_id, station_id, won_at) VALUES ($1, $2, $3)', [
            userId,
            stationId,
            new Date().toISOString(),
          ]);
      },
      async freshKujiBox() {
        const store = t.server.store();
        const [kuji] = await store.query<{ kuji_id: number }>(
          'SELECT kuji_id FROM kuji WHERE starts_at <= $1 AND ends_at > $1 ORDER BY kuji_id LIMIT 1',
          [new Date().toISOString()],
        );
        const [box] = await store.query<{ box_id: number }>(
          `INSERT INTO kuji_boxes (kuji_id, box_no, box_status) SELECT $1, coalesce(max(box_no), 0) + 1, 'onSale' FROM kuji_boxes WHERE kuji_id = $1 RETURNING box_id`,
          [kuji!.kuji_id],
        );
        await store.query(
          `INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort)
           SELECT $1, rank, prize_name, image_key, quantity, quantity, sort FROM kuji_box_prizes
            WHERE box_id = (SELECT min(box_id) FROM kuji_boxes WHERE kuji_id = $2)`,
          [box!.box_id, kuji!.kuji_id],
        );
        return { kuji_id: kuji!.kuji_id, box_id: box!.box_id };
      },
      async setKujiBoxStatus(boxId, status) {
        // As the operator does it: through the box's room (an ended box's line ends with it).
        await t.server.services().rooms.send('kuji', boxId, { type: 'setStatus', status });
      },
      async payAtProvider(paymentUrl) {
        const paid = await providerStep(t, paymentUrl, 'card', cardFields(CARDS.ok));
        if (paid.status !== 303) throw new Error(`the provider refused the test card: ${paid.status}`);
      },
      async creditTc(userId, kind, amount) {
        const ledger = new Ledger(t.server.store(), systemClock);
        await ledger.credit(userId, kind, {
          amount,
          reason: 'admin',
          idempotencyKey: `contract:${userId}:${kind}:${amount}:${Math.random()}`,
        });
      },
      async grantPrize(userId, win) {
        const [row] = await t.server
          .store()
          .query<{ play_history_id: number }>(
            'INSERT INTO won_prizes (user_id, prize_kind, product_name, kuji_name, won_at) VALUES ($1, $2, $3, $4, $5) RETURNING play_history_id',
            [userId, win.prize_kind, win.product_name, win.kuji_name ?? null, new Date().toISOString()],
          );
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
          [userId, playHistoryId, contactNumber],
        );
      },
      async suspendUser(userId) {
        await t.server.store().query('UPDATE users SET status = 2 WHERE user_id = $1', [userId]);
      },
    },
    close: () => t.close(),
  };
}
