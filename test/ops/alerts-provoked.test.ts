import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { jstIsoDate } from '../../src/domain';
import { signPayload, SIGNATURE_HEADER } from '../../server/payment/signature';
import { STORE_LOCKS } from '../../server/store/store-locks';
import { DelayProxy } from '../support/delay-proxy';
import { InProcessAgent } from '../support/in-process-agent';
import { ManualServerClock } from '../support/manual-server-clock';
import { cardFields, CARDS, providerStep, startPurchase } from '../support/payments';
import { PlayDriver } from '../support/play-driver';
import { hostLockHeld, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { alertKey, rulesWithShortFor, TestPrometheus } from '../support/prometheus';
import { freePort, ServerProcess } from '../support/server-process';
import { TestCameras } from '../support/test-cameras';
import type { TestPatternPublisher } from '../support/whip-test-publisher';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Issue 46: every alert of ops/prometheus/alerts.yml provoked for real. The real server (one
 * instance, and a two-instance cluster on a real PostgreSQL for the rules about instances, the
 * leader and the store) is scraped by a real Prometheus (Debian's), the condition is made real (a
 * camera that stops sending, an agent gone while players wait, plays refunded, callbacks with a bad
 * signature, a day whose money does not add up, a daily reconciliation that does not run, a
 * migration held up, slow NOTIFY between instances, a frozen leader, a killed instance), and the
 * test reads from Prometheus' API which alerts fire: exactly the provoked one, besides those
 * provoked earlier whose window still holds it (a rate over 10 or 15 minutes); none on the
 * healthy start.
 *
 * The rules are ops/prometheus/alerts.yml as they are, except that every `for:` is made 1 s on
 * the test's copy (rulesWithShortFor): the tests wait seconds, not minutes; what `for` does is
 * covered by promtool's unit cases (ops/prometheus/alerts.test.yml, test/ops/alert-rules.test.ts).
 */
const RULES = rulesWithShortFor('ops/prometheus/alerts.yml', '1s');
const OPERATOR_TOKEN = 'operator-token-for-alerts-provoked-01';
const PROVIDER_SECRET = 'the-providers-secret-for-alerts-provoked-0123';
/** The provider's new secret after a rotation the service was not told of. */
const ROTATED_SECRET = 'a-rotated-secret-the-service-does-not-know-01';
const HOUR_MS = 3_600_000;

let cluster: PostgresCluster;
/**
 * One Prometheus per part, each started at once on the metrics addresses its part's instances
 * will listen on (Prometheus takes up to 5 s to start scraping a target it is given).
 */
let prometheusOne: TestPrometheus | null = null;
let prometheusTwo: TestPrometheus | null = null;
const metricsPorts = { one: 0, a: 0, b: 0 };
beforeAll(async () => {
  for (const key of ['one', 'a', 'b'] as const) metricsPorts[key] = await freePort();
  const started = await Promise.allSettled([
    startPostgresCluster(),
    TestPrometheus.start(RULES, [`127.0.0.1:${metricsPorts.one}`]),
    TestPrometheus.start(RULES, [`127.0.0.1:${metricsPorts.a}`, `127.0.0.1:${metricsPorts.b}`]),
  ] as const);
  if (started[0].status === 'fulfilled') cluster = started[0].value;
  if (started[1].status === 'fulfilled') prometheusOne = started[1].value;
  if (started[2].status === 'fulfilled') prometheusTwo = started[2].value;
  for (const result of started) if (result.status === 'rejected') throw result.reason;
}, 60_000);
afterAll(async () => {
  await prometheusOne?.stop();
  await prometheusTwo?.stop();
  await cluster?.stop();
});

/** Waits until Prometheus scrapes every target and has evaluated the rules twice since; then no alert is pending or firing. */
async function expectHealthy(prometheus: TestPrometheus, targets: number): Promise<void> {
  await prometheus.until(
    async () => `targets not all up: ${JSON.stringify(await prometheus.targets())}`,
    async () => {
      const seen = await prometheus.targets();
      return seen.length === targets && seen.every((t) => t.health === 'up');
    },
  );
  const upAt = Date.now();
  await prometheus.until('two evaluations after every target was up', async () => {
    return (await prometheus.lastEvaluation()) > upAt + 2_000;
  });
  expect((await prometheus.alerts()).map((a) => `${alertKey(a)} ${a.state}`)).toEqual([]);
}

/**
 * Polls until the firing alerts are `expected` and nothing else is pending or firing, except any
 * of `mayLinger` (provoked earlier: a rate's window may still hold it, or not). Answers how long
 * it took (ms).
 */
async function expectFiring(
  prometheus: TestPrometheus,
  expected: readonly string[],
  mayLinger: readonly string[] = [],
  timeoutMs = 20_000,
): Promise<number> {
  const started = Date.now();
  let last: string[] = [];
  await prometheus.until(
    async () => `expected firing ${JSON.stringify(expected)}, got ${JSON.stringify(last)}`,
    async () => {
      const alerts = await prometheus.alerts();
      last = alerts.map((a) => `${alertKey(a)} ${a.state} ${a.value}`).sort();
      const firing = new Set(alerts.filter((a) => a.state === 'firing').map(alertKey));
      const allowed = new Set([...expected, ...mayLinger]);
      return expected.every((key) => firing.has(key)) && alerts.every((a) => allowed.has(alertKey(a)));
    },
    timeoutMs,
  );
  const took = Date.now() - started;
  if (process.env.ONKURE_ALERT_TIMES) console.log(`firing ${JSON.stringify(expected)} after ${took} ms`);
  return took;
}

describe('one instance scraped by Prometheus: the stations, the money and the reconciliation alerts fire when provoked (issue 46)', () => {
  const clock = new ManualServerClock(new Date());
  let t: TestServer;
  /** The test server whose play driver settles the agents this test runs (not the default one). */
  let driven: TestServer;
  const prometheus = () => prometheusOne!;
  let cameras: TestCameras | null = null;
  let publisher: TestPatternPublisher | null = null;
  const agents = new Map<number, InProcessAgent>();
  /** S1: a camera and players waiting; S3: plays refunded. */
  let s1 = 0;
  let s3 = 0;
  // The stale reconciliation's own instance (its clock a day and more behind at its start).
  let late: TestServer | null = null;
  let lateLock: pg.Client | null = null;

  const settleAgents = async () => {
    for (const agent of agents.values()) await agent.settle();
    await t.server.services().rooms.idle();
  };
  const startAgent = async (stationId: number) => {
    agents.set(stationId, await InProcessAgent.start(t, { clock, stationIds: [stationId] }));
  };
  const stopAgent = async (stationId: number) => {
    await agents.get(stationId)?.stop();
    agents.delete(stationId);
  };

  beforeAll(async () => {
    t = await startTestServer({
      listen: true,
      databaseUrl: await cluster.seededDatabase(),
      clock,
      agent: false,
      env: {
        METRICS_PORT: String(metricsPorts.one),
        INSTANCE_ID: 'one',
        ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN,
        PAYMENT_PROVIDER_SECRET: PROVIDER_SECRET,
      },
    });
    driven = { ...t, settle: settleAgents };
    const stations = await t.server.store().query<{ station_id: number }>(
      `SELECT station_id FROM stations
        WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5
        ORDER BY station_id LIMIT 2`,
    );
    [s1, s3] = stations.map((s) => s.station_id) as [number, number];
    await startAgent(s1);
    await startAgent(s3);
    // S1's front camera publishes (a test pattern over WHIP, as a cabinet's encoder does).
    cameras = await TestCameras.issue(t, [s1]);
    publisher = await cameras.publish(s1, 'front', { size: '160x120', kbps: 100 });
    // The leader's reconciliation of yesterday at its start (a timer due at once on the manual clock).
    await t.server.services().reconciliation.settled();
    clock.advance(0);
    await t.server.services().reconciliation.settled();
    expect(t.server.services().reconciliation.latest()).toMatchObject({ mismatches: 0 });
  }, 60_000);

  afterAll(async () => {
    await prometheusOne?.stop();
    await cameras?.stopAll();
    for (const id of [...agents.keys()]) await stopAgent(id);
    await lateLock?.query('ROLLBACK').catch(() => undefined);
    await lateLock?.end();
    await late?.close();
    await t?.close();
  }, 60_000);

  const station = (alert: string, stationId: number) => `${alert}{station_id=${stationId}}`;
  const player = (freeTc = 10_000) => createTestUser(t, { birth: '1990-04-01' }, { freeTc });

  it('the healthy start fires nothing: the station agents connected, a camera publishing, nobody waiting, the reconciliation clean and fresh', async () => {
    await expectHealthy(prometheus(), 1);
  }, 60_000);

  const waiting: PlayDriver[] = [];

  it('OnkureStationCameraDownWithPlayersWaiting: players wait at S1 and its camera stops sending', async () => {
    // Two players: the first is offered the turn, the second waits behind it.
    for (let i = 0; i < 2; i += 1) {
      const driver = new PlayDriver(driven, clock, await player());
      await driver.reserve(s1);
      waiting.push(driver);
    }
    // Players wait, the camera sends: nothing fires.
    await expectHealthy(prometheus(), 1);
    // The camera's encoder stops sending (a cut cable, as the server sees it); past SILENT_MS
    // on the server's clock it no longer publishes.
    publisher!.pause();
    const publishing = () =>
      t.server
        .services()
        .rtcFeed.cameraStats()
        .some((c) => c.station_id === s1 && c.publishing);
    expect(publishing()).toBe(true);
    // Packets already on their way may still land: the server's clock moves on until it says dark.
    await prometheus().until('S1’s camera dark on the server', async () => {
      await clock.advanceSettling(1_500, settleAgents);
      return !publishing();
    });
    await expectFiring(prometheus(), [station('OnkureStationCameraDownWithPlayersWaiting', s1)]);
  }, 60_000);

  it('OnkureStationAgentDownWithPlayersWaiting: S1’s agent disconnects while its players wait', async () => {
    await stopAgent(s1);
    await expectFiring(prometheus(), [
      station('OnkureStationCameraDownWithPlayersWaiting', s1),
      station('OnkureStationAgentDownWithPlayersWaiting', s1),
    ]);
    // The players leave the line: both resolve (the agent and the camera still gone).
    for (const driver of waiting) {
      const answer = await driver.post('v2/play/reserve_cancel', {
        shop_id: 1,
        reserve_cancel: { station_setting_id: driver.record!.station_setting_id },
      });
      expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
    }
    await settleAgents();
    await expectFiring(prometheus(), []);
  }, 60_000);

  it('OnkureRefundsAboveUsual: three plays at S3 stopped by their agent disconnecting, each refunded', async () => {
    const refunds = async () =>
      (await t.server.metrics.refunds.get()).values.find((v) => String(v.labels.station_id) === String(s3))?.value ?? 0;
    const alice = await player();
    for (let i = 1; i <= 3; i += 1) {
      const driver = new PlayDriver(driven, clock, alice);
      await driver.reserve(s3).waitTurn().confirm().waitPlaying();
      expect(driver.play).not.toBeNull();
      // The play is under way; its agent's connection drops (the room refunds it), then comes back.
      await stopAgent(s3);
      await prometheus().until(`refund ${i} at S3`, async () => {
        await t.server.services().rooms.idle();
        return (await refunds()) === i;
      });
      await startAgent(s3);
      await new PlayDriver(driven, clock, alice).waitMachineHome(s3);
    }
    await expectFiring(prometheus(), ['OnkureRefundsAboveUsual']);
  }, 60_000);

  it('OnkureProviderCallbacksFailing: the provider signs its callbacks with a secret the service does not know', async () => {
    const bob = await player(0);
    for (let i = 0; i < 3; i += 1) {
      const { settlement } = await startPurchase(t, bob, 2);
      const [row] = await t.server
        .store()
        .query<{ provider_payment_id: string; price: number }>(
          'SELECT provider_payment_id, price FROM product_settlements WHERE product_settlement_id = $1',
          [settlement.product_settlement_id],
        );
      const raw = JSON.stringify({
        event_id: `evt-rotated-${i}`,
        payment_id: row!.provider_payment_id,
        merchant_reference: settlement.product_settlement_id,
        outcome: 'paid',
        amount: row!.price,
        failure_code: null,
        occurred_at: clock.now().toISOString(),
      });
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/api/purchase/provider_callback',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signPayload(ROTATED_SECRET, raw, clock.now().getTime()),
        },
        payload: raw,
      });
      expect(res.statusCode).toBe(401);
    }
    await expectFiring(prometheus(), ['OnkureProviderCallbacksFailing', 'OnkureRefundsAboveUsual']);
  }, 60_000);

  it('OnkureReconciliationMismatches: a payment made for an account deleted meanwhile, and the day reconciled by an admin', async () => {
    const carol = await createTestUser(t, { birth: '1990-04-01', email: `carol-${Date.now()}@example.jp` });
    const { settlement } = await startPurchase(t, carol as TestUser, 2);
    // The account is deleted while its payment page is open; then the payment goes through at
    // the provider, whose callback is refused (nobody to credit): paid, and no settlement completed.
    const deleted = await t.server.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      payload: { user_id: carol.user_id, access_token: carol.access_token, account_delete: { confirm: 1 } },
    });
    expect(deleted.json()).toMatchObject({ error_code: 200 });
    expect((await providerStep(t, settlement.payment_url!, 'card', cardFields(CARDS.ok))).status).toBe(303);
    const day = jstIsoDate(clock.now().getTime());
    const run = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/reconciliation',
      payload: { day, run: 1 },
      headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(run.statusCode).toBe(200);
    expect((run.json() as { report: { mismatches: { kind: string }[] } }).report.mismatches.map((m) => m.kind)).toEqual(
      ['paid_not_completed'],
    );
    await expectFiring(prometheus(), [
      `OnkureReconciliationMismatches{day=${day}}`,
      'OnkureProviderCallbacksFailing',
      'OnkureRefundsAboveUsual',
    ]);
  }, 60_000);

  it('OnkureReconciliationStale: a leader whose last run was 27 h ago on its clock, its daily run held up since', async () => {
    const lateClock = new ManualServerClock(new Date(Date.now() - 27 * HOUR_MS));
    const url = await cluster.seededDatabase();
    late = await startTestServer({
      databaseUrl: url,
      clock: lateClock,
      agent: false,
      env: { METRICS_PORT: '0', INSTANCE_ID: 'late' },
    });
    const reconciliation = late.server.services().reconciliation;
    // Its start-up run (yesterday has none), 27 h ago.
    await reconciliation.settled();
    lateClock.advance(0);
    await reconciliation.settled();
    expect(reconciliation.latest()?.ranAt.getTime()).toBe(lateClock.now().getTime());
    // The provider's report hangs (its table locked by a session that does not end), so the next
    // day's 00:30 run starts and does not finish while the server's clock moves on to now.
    lateLock = new pg.Client({ connectionString: url });
    await lateLock.connect();
    await lateLock.query('BEGIN');
    await lateLock.query('LOCK TABLE provider_payments IN ACCESS EXCLUSIVE MODE');
    const lastRun = reconciliation.latest()!.ranAt.getTime();
    lateClock.set(new Date());
    const running = reconciliation.settled();
    // The run due at 00:30 started and hangs (checked below): the latest stays the one of 27 h ago.
    expect(lateClock.now().getTime() - lastRun).toBeGreaterThan(26 * HOUR_MS);
    // This instance is the service now: the rule takes the latest run over every instance scraped
    // (`max`), so the first instance's fresh run would hide a stale leader (one service per job).
    const earlier = [
      `OnkureReconciliationMismatches{day=${jstIsoDate(clock.now().getTime())}}`,
      'OnkureProviderCallbacksFailing',
      'OnkureRefundsAboveUsual',
    ];
    await prometheus().setTargets([`127.0.0.1:${late.server.metricsPort()}`]);
    await expectFiring(prometheus(), ['OnkureReconciliationStale'], earlier);
    expect(reconciliation.latest()!.ranAt.getTime()).toBe(lastRun);
    // The report answers again: the held-up run finishes, and the alert resolves.
    await lateLock.query('ROLLBACK');
    await running;
    expect(reconciliation.latest()!.ranAt.getTime()).toBe(lateClock.now().getTime());
    await expectFiring(prometheus(), [], earlier);
  }, 60_000);
});

describe('two instances on PostgreSQL scraped by Prometheus: the instance, leader, store and push alerts fire when provoked (issue 46)', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let proxy: DelayProxy | null = null;
  const prometheus = () => prometheusTwo!;
  let migrationLock: pg.Client | null = null;
  const metricsA = () => metricsPorts.a;
  const metricsB = () => metricsPorts.b;
  let url = '';

  beforeAll(async () => {
    url = await cluster.seededDatabase();
    // B reaches PostgreSQL through a proxy that can hold its traffic (NOTIFY and LISTEN included).
    proxy = await DelayProxy.start('127.0.0.1', { host: '127.0.0.1', port: cluster.port });
    const env = (metricsPort: number, id: string, databaseUrl: string) => ({
      DATABASE_URL: databaseUrl,
      METRICS_PORT: String(metricsPort),
      INSTANCE_ID: id,
      PAYMENT_PROVIDER_SECRET: PROVIDER_SECRET,
    });
    a = new ServerProcess(await freePort(), ':memory:', env(metricsA(), 'a', url));
    b = new ServerProcess(
      await freePort(),
      ':memory:',
      env(metricsB(), 'b', url.replace(`:${cluster.port}/`, `:${proxy.port}/`)),
    );
    await a.start();
    // A leads (it came first); B runs its share of the stations.
    for (let i = 0; !(await hostLockHeld(url)); i += 1) {
      if (i > 200) throw new Error('A did not lead');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await b.start();
  }, 90_000);

  afterAll(async () => {
    await prometheusTwo?.stop();
    await migrationLock?.end().catch(() => undefined);
    if (a?.pid) {
      try {
        process.kill(a.pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
    await a?.kill();
    await b?.kill();
    await proxy?.close();
  }, 60_000);

  const instanceDown = (port: number) => `OnkureInstanceDown{instance=127.0.0.1:${port}}`;

  it('the healthy start fires nothing: both instances up, one leading, the store open, pushes quick', async () => {
    await expectHealthy(prometheus(), 2);
  }, 60_000);

  it('OnkureStoreNotReady: B restarts while another session holds the migrations’ lock (a long migration elsewhere)', async () => {
    migrationLock = new pg.Client({ connectionString: url });
    await migrationLock.connect();
    await migrationLock.query('SELECT pg_advisory_lock($1)', [STORE_LOCKS.migrations]);
    await b.close();
    const restarted = b.start();
    restarted.catch(() => undefined);
    await expectFiring(prometheus(), [`OnkureStoreNotReady{instance=127.0.0.1:${metricsB()},instance_id=b}`]);
    await migrationLock.query('SELECT pg_advisory_unlock($1)', [STORE_LOCKS.migrations]);
    await restarted;
    await expectFiring(prometheus(), []);
  }, 60_000);

  it('OnkurePushLatencyHigh: NOTIFY between the instances slowed to 1.2 s each way', async () => {
    proxy!.setDelay(1_200);
    try {
      await expectFiring(prometheus(), ['OnkurePushLatencyHigh{hop=cluster}'], [], 30_000);
    } finally {
      proxy!.setDelay(0);
    }
  }, 60_000);

  it('OnkureNoLeader: the leader freezes (SIGSTOP), holding the leader lock; then OnkureInstanceDown alone once it is killed', async () => {
    process.kill(a.pid!, 'SIGSTOP');
    await expectFiring(
      prometheus(),
      [instanceDown(metricsA()), 'OnkureNoLeader'],
      ['OnkurePushLatencyHigh{hop=cluster}'],
    );
    // kill -9: its session ends, B takes the lead; the instance stays down.
    await a.kill();
    await expectFiring(prometheus(), [instanceDown(metricsA())], ['OnkurePushLatencyHigh{hop=cluster}']);
  }, 60_000);
});
