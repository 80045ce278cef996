import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANNELS,
  getReserveResponseSchema,
  historyResponseSchema,
  playStateResponseSchema,
  reserveResponseSchema,
  type JoinAck,
  type ServerToClientEvents,
} from '../../src/contract';
import { openPostgresStore, type PostgresStore } from '../../server/store/postgres-store';
import { haproxyConfig, startHaproxy } from '../../scripts/lib/haproxy';
import { hostLockHeld, usePostgresCluster } from '../support/postgres-cluster';
import { freePort, ServerProcess } from '../support/server-process';
import { confirmAndMoveClaw, untilTurn } from '../support/moving-play';
import { agentReporting, spawnStationsAgent, type AgentProcess } from '../support/agent-process';
import { connectSocket, type TestSocket } from '../support/socket-client';

/**
 * Issue 25, R10-8: two instance processes on one PostgreSQL database behind a real HAProxy (the
 * configuration `npm run cluster` uses). Requests without a cookie are spread round robin, so a
 * player's calls land on both instances.
 */
const postgres = usePostgresCluster();
const dir = mkdtempSync(joinPath(tmpdir(), 'onkure-lb-'));
const open: TestSocket[] = [];
let a: ServerProcess;
let b: ServerProcess;
let lb: { stop(): Promise<void> };
let origin = '';
let store: PostgresStore;
let agent: AgentProcess | null = null;

/** Waits for `condition` (hooks cannot use expect.poll), up to 15 s. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the cluster did not come up in 15 s');
}

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  const env = { DATABASE_URL: url, TRUST_PROXY: 'loopback', PAYMENT_PROVIDER_SECRET: 'cluster-test-secret-'.repeat(3) };
  a = new ServerProcess(await freePort(), ':memory:', env);
  await a.start();
  await until(() => hostLockHeld(url));
  b = new ServerProcess(await freePort(), ':memory:', env);
  await b.start();
  const port = await freePort();
  lb = await startHaproxy(
    joinPath(dir, 'haproxy.cfg'),
    haproxyConfig({
      port,
      upstreams: [
        { name: 'a', port: a.port },
        { name: 'b', port: b.port },
      ],
    }),
    port,
  );
  origin = `http://127.0.0.1:${port}`;
  store = await openPostgresStore(url, { poolSize: 2 });
  // Both instances pass HAProxy's health check before the test counts on them.
  await until(async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 4; i += 1) seen.add(JSON.stringify(await (await fetch(`${origin}/healthz/host`)).json()));
    return seen.size === 2;
  });
  // …and the stations have spread over both.
  await until(async () => (await stationsOf(b.origin)).length > 0);
  // The machines' agent dials the balancer, as a cabinet's agent behind NAT dials the service's one
  // address: it lands on either instance and reaches each station's room wherever it runs.
  const stationIds = (await store.query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY 1')).map(
    (r) => r.station_id,
  );
  // Its sim driver publishes the watched cameras over WHIP, through the balancer to the station's instance.
  agent = await spawnStationsAgent({ store, server: origin, folder: dir, stationIds, cameras: true });
  await agentReporting([a.origin, b.origin], stationIds, agent);
}, 90_000);

/** The stations whose rooms run on an instance (its /healthz/stations). */
async function stationsOf(instance: string): Promise<number[]> {
  const answer = await fetch(`${instance}/healthz/stations`).catch(() => null);
  return answer?.ok ? ((await answer.json()) as { stations: number[] }).stations : [];
}

afterAll(async () => {
  for (const socket of open) socket.close();
  await agent?.kill();
  await lb?.stop();
  await a?.kill();
  await b?.kill();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Player {
  readonly user_id: number;
  readonly access_token: string;
  /** The client's address as HAProxy forwards it (X-Forwarded-For; TRUST_PROXY=loopback). */
  readonly ip: string;
}

async function post(
  path: string,
  body: object,
  ip = '127.0.0.1',
): Promise<Record<string, unknown> & { error_code: number }> {
  const res = await fetch(`${origin}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown> & { error_code: number };
}

let players = 0;
/** A player signed in through the load balancer (the debug login: 10,000 free TC), born in 1990. */
async function player(): Promise<Player> {
  players += 1;
  const ip = `10.1.${Math.floor(players / 250)}.${(players % 250) + 1}`;
  const session = (await post('auth/debug_login', { name: `lb-${players}` }, ip)) as unknown as Player;
  await store.query(`UPDATE users SET birth = '1990-01-01' WHERE user_id = $1`, [session.user_id]);
  return { user_id: session.user_id, access_token: session.access_token, ip };
}
const as =
  (p: Player) =>
  (path: string, body: object = {}) =>
    post(path, { user_id: p.user_id, access_token: p.access_token, ...body }, p.ip);

const join = (socket: TestSocket, channel: string) =>
  new Promise<JoinAck>((resolve) => socket.emit('join', channel, (ack: JoinAck) => resolve(ack)));
const next = <E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) =>
  new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) => {
    socket.once(event as never, ((payload: never) => resolve(payload)) as never);
  });

describe('two instances behind HAProxy', () => {
  it('200 concurrent purchases spread over both instances: each credited exactly once', async () => {
    const buyers = await Promise.all(Array.from({ length: 100 }, () => player()));
    const buy = async (p: Player) => {
      const opened = await as(p)('purchase/tc', { purchase: { product_id: 2, pay_method: 'credit_card' } });
      const settlement = opened.settlement as { payment_url: string };
      const page = await fetch(`${origin}${settlement.payment_url}/card`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': p.ip },
        body: new URLSearchParams({ number: '4242424242424242', expiry: '12/39', cvc: '123', holder: 'HANAKO YAMADA' }),
        redirect: 'manual',
      });
      return page.status;
    };
    const statuses = await Promise.all(buyers.flatMap((p) => [buy(p), buy(p)]));
    expect(statuses.filter((s) => s === 303)).toHaveLength(200);
    const balances = await Promise.all(
      buyers.map(async (p) => ((await as(p)('user/tc')).data as { tc_all: number }).tc_all),
    );
    expect(balances.every((tc) => tc === 10_000 + 2 * 1_050)).toBe(true);
    // Each settlement credited once (its toll TC and its bonus, one idempotency key): 200 settlements, 1,050 TC each.
    const [credits] = await store.query<{ settlements: number; total: number }>(
      `SELECT count(DISTINCT reference)::int AS settlements, sum(delta)::int AS total FROM tc_ledger WHERE reason = 'purchase' AND user_id = ANY($1::int[])`,
      [buyers.map((p) => p.user_id)],
    );
    expect(credits).toEqual({ settlements: 200, total: 200 * 1_050 });
  }, 120_000);

  it('[R10-8] two players see each other in one line by push; the live feed answers through either instance; the instance running the station killed mid-play, the other takes over within 10 s and the play finishes, charged once', async () => {
    const [alice, bob] = [await player(), await player()];
    const [station] = await store.query<{ station_id: number; play_price: number }>(
      `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 AND station_id = ANY($1::int[]) ORDER BY station_id LIMIT 1`,
      [await stationsOf(a.origin)],
    );
    const stationId = station!.station_id;
    // The station's still through the balancer: round robin asks both instances; b forwards to a.
    // The first asks make the camera wanted: its agent publishes it (through the balancer, to the
    // station's instance), and its stills are made from that video.
    await expect
      .poll(
        async () => {
          const still = await fetch(`${origin}/api/stations/${stationId}/camera/front.jpg`);
          await still.arrayBuffer();
          return still.status;
        },
        { timeout: 20_000, interval: 250, message: 'a still of the camera its agent publishes' },
      )
      .toBe(200);
    for (let i = 0; i < 4; i += 1) {
      const still = await fetch(`${origin}/api/stations/${stationId}/camera/front.jpg`);
      expect([still.status, still.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    }
    // Two websocket connections through HAProxy: round robin puts them on different instances.
    const aliceWatch = await connectSocket(origin, alice, open);
    const bobWatch = await connectSocket(origin, bob, open);
    for (const socket of [aliceWatch, bobWatch])
      expect(await join(socket, CHANNELS.station(stationId))).toEqual({ ok: true });
    const seen = [next(aliceWatch, 'reserve_change'), next(bobWatch, 'reserve_change')];
    expect(
      reserveResponseSchema.parse(await as(alice)('v2/play/reserve', { station_id: stationId })).reserve_info
        .reserve_num,
    ).toBe(1);
    for (const got of await Promise.all(seen)) expect(got).toEqual({ station_id: stationId, reserve_change: 1 });
    // The turn is hers once the station's room has heard its machine ready (the agent's report).
    await untilTurn(as(alice), stationId);
    const seenAgain = [next(aliceWatch, 'reserve_change'), next(bobWatch, 'reserve_change')];
    expect(
      reserveResponseSchema.parse(await as(bob)('v2/play/reserve', { station_id: stationId })).reserve_info.reserve_num,
    ).toBe(2);
    for (const got of await Promise.all(seenAgain)) expect(got).toEqual({ station_id: stationId, reserve_change: 1 });

    // Let the claw move and be saved, then kill the process outright.
    const play = await confirmAndMoveClaw(as(alice), stationId);

    await a.kill('SIGKILL');
    const killedAt = Date.now();
    // Before HAProxy's checks mark a down (two failures, 1 s apart), round robin still picks it:
    // those requests are refused at connect and redispatched to b, so each answer is the service's
    // own, never the balancer's 503 page. (A balance, not the play: the play's room is in its takeover.)
    const rightAfter = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await fetch(`${origin}/api/user/tc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': alice.ip },
          body: JSON.stringify({ user_id: alice.user_id, access_token: alice.access_token }),
        });
        await res.arrayBuffer();
        return res.headers.get('content-type')?.split(';')[0];
      }),
    );
    expect(rightAfter).toEqual(Array.from({ length: 6 }, () => 'application/json'));
    // Through the load balancer: the play is back once the other instance runs the rooms.
    await expect
      .poll(
        async () => {
          const answer = await as(alice)('v2/play/current');
          return answer.error_code === 200 ? playStateResponseSchema.parse(answer).play?.play_id : null;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(play.play_id);
    const resumedMs = Date.now() - killedAt;
    expect(resumedMs).toBeLessThan(10_000);
    const back = playStateResponseSchema.parse(await as(alice)('v2/play/current')).play!;
    expect(back).toMatchObject({ phase: 'playing', machine: { phase: 'waitBack' } });
    // The machine answers once its agent, cut off with a, has dialled the balancer again and
    // reports to b; a press before that is refused (machineDown), as the player's screen says.
    await agentReporting([b.origin], [stationId], agent!);
    for (const command of ['press', 'release']) {
      const answer = await as(alice)('v2/play/control', { play_id: play.play_id, button: 'back', command });
      expect(answer, JSON.stringify(answer)).toMatchObject({ error_code: 200 });
    }
    await expect
      .poll(async () => playStateResponseSchema.parse(await as(alice)('v2/play/current')).play?.phase, {
        timeout: 15_000,
      })
      .toBe('result');
    const history = historyResponseSchema.parse(await as(alice)('v2/play/history')).history.list;
    expect(history.map((h) => h.play_id)).toEqual([play.play_id]);
    expect(((await as(alice)('user/tc')).data as { tc_all: number }).tc_all).toBe(10_000 - station!.play_price);
    await expect
      .poll(
        async () =>
          getReserveResponseSchema.parse(await as(bob)('v2/play/get_reserve', { station_id: stationId })).reserve_info
            .reserve_status,
        { timeout: 30_000 },
      )
      .toBe('playTransition');
    console.log(`behind HAProxy: the play answered again ${resumedMs} ms after SIGKILL of its instance`);
  }, 120_000);
});
