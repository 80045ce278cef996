import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHANNELS,
  getReserveResponseSchema,
  historyResponseSchema,
  playStateResponseSchema,
  reserveResponseSchema,
  type JoinAck,
  type ServerToClientEvents,
} from '../../src/contract';
import { CRANE } from '../../src/domain/play/crane-machine';
import { STORE_LOCKS } from '../../server/store/store-locks';
import { hostLockHeld, usePostgresCluster } from '../support/postgres-cluster';
import { storeFingerprint } from '../support/store-fingerprint';
import { freePort, ServerProcess } from '../support/server-process';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { confirmAndMoveClaw } from '../support/moving-play';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Issue 25, R10-8: two instances on one PostgreSQL database; exactly one runs the station rooms.
 * The host is a real process killed with SIGKILL mid-play; the standby takes the rooms over within
 * 10 s and the player finishes the same play, charged once.
 */
const postgres = usePostgresCluster();
const processes: ServerProcess[] = [];
const open: TestSocket[] = [];
let standby: TestServer | null = null;
afterAll(async () => {
  for (const socket of open) socket.close();
  for (const p of processes) await p.kill();
  await standby?.close();
});

const join = (socket: TestSocket, channel: string) =>
  new Promise<JoinAck>((resolve) => socket.emit('join', channel, (ack: JoinAck) => resolve(ack)));
const next = <E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) =>
  new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) => {
    socket.once(event as never, ((payload: never) => resolve(payload)) as never);
  });

function caller(origin: string, user: TestUser) {
  return async (path: string, body: object = {}) => {
    const res = await fetch(`${origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.user_id, access_token: user.access_token, ...body }),
    });
    return (await res.json()) as Record<string, unknown> & { error_code: number };
  };
}

describe('the station host (R10-8)', () => {
  it('[R10-8] one instance runs the rooms and a standby forwards to it; players on both see each other in the line; the host killed with SIGKILL mid-play, the standby takes over within 10 s and the play finishes there, charged once', async () => {
    const url = await postgres.cluster.seededDatabase();
    const host = new ServerProcess(await freePort(), ':memory:', { DATABASE_URL: url });
    processes.push(host);
    await host.start();
    await expect.poll(() => hostLockHeld(url), { timeout: 15_000 }).toBe(true);
    standby = await startTestServer({
      listen: true,
      databaseUrl: url,
      standby: true,
      hostRetryMs: 250,
      onHostLost: () => undefined,
    });
    expect(standby.server.hostsStations()).toBe(false);

    const alice = await createTestUser(standby, {}, { freeTc: 10_000 });
    const bob = await createTestUser(standby, {}, { freeTc: 10_000 });
    const [station] = await standby.server
      .store()
      .query<{ station_id: number; play_price: number }>(
        `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id LIMIT 1`,
      );
    const stationId = station!.station_id;
    // Alice plays through the standby, Bob through the host; each watches the station's channel
    // from the other instance.
    const onStandby = caller(standby.origin, alice);
    const a = onStandby;
    let b = caller(host.origin, bob);
    const aliceWatch = await connectSocket(host.origin, alice, open);
    const bobWatch = await connectSocket(standby.origin, bob, open);
    for (const socket of [aliceWatch, bobWatch])
      expect(await join(socket, CHANNELS.station(stationId))).toEqual({ ok: true });

    // A reservation made on the standby runs in the host's room (forwarded), and the line's change
    // reaches the watcher on the other instance by push.
    const bobSees = next(bobWatch, 'reserve_change');
    expect(
      reserveResponseSchema.parse(await a('v2/play/reserve', { station_id: stationId })).reserve_info.reserve_status,
    ).toBe('playTransition');
    expect(await bobSees).toEqual({ station_id: stationId, reserve_change: 1 });
    const aliceSees = next(aliceWatch, 'reserve_change');
    expect(
      reserveResponseSchema.parse(await b('v2/play/reserve', { station_id: stationId })).reserve_info.reserve_num,
    ).toBe(2);
    expect(await aliceSees).toEqual({ station_id: stationId, reserve_change: 1 });
    // Let the claw move and be saved, then kill the process outright.
    const confirmed = await confirmAndMoveClaw(a, stationId);

    await host.kill('SIGKILL');
    const killedAt = Date.now();
    b = caller(standby.origin, bob);
    await expect.poll(() => standby!.server.hostsStations(), { timeout: 10_000, interval: 50 }).toBe(true);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(10_000);

    // The same play, resumed on the standby from its grace window where the claw was.
    const back = playStateResponseSchema.parse(await onStandby('v2/play/current')).play!;
    expect(back).toMatchObject({ play_id: confirmed.play_id, phase: 'playing', machine: { phase: 'waitBack' } });
    expect(back.machine.x).toBeGreaterThan(CRANE.home.x + 50);
    expect(
      (await onStandby('v2/play/control', { play_id: back.play_id, button: 'back', command: 'press' })).error_code,
    ).toBe(200);
    expect(
      (await onStandby('v2/play/control', { play_id: back.play_id, button: 'back', command: 'release' })).error_code,
    ).toBe(200);
    await expect
      .poll(async () => playStateResponseSchema.parse(await onStandby('v2/play/current')).play?.phase, {
        timeout: 15_000,
      })
      .toBe('result');
    const history = historyResponseSchema.parse(await onStandby('v2/play/history')).history.list;
    expect(history).toHaveLength(1);
    expect(history[0]!.play_id).toBe(confirmed.play_id);
    // Charged exactly once, across both instances; Bob, second in line, has the turn now.
    expect((await onStandby('user/tc')) as unknown).toMatchObject({ data: { tc_all: 10_000 - station!.play_price } });
    await expect
      .poll(
        async () =>
          getReserveResponseSchema.parse(await b('v2/play/get_reserve', { station_id: stationId })).reserve_info
            .reserve_status,
        { timeout: 30_000 },
      )
      .toBe('playTransition');
    console.log(`station host takeover after SIGKILL: ${tookOverMs} ms`);
  }, 120_000);

  it('[R10-8] a host whose lock connection is cut stops running rooms at once (it is told, and hosts no more); the standby takes over and the old host forwards to it', async () => {
    const url = await postgres.cluster.seededDatabase();
    const lost: unknown[] = [];
    const x = await startTestServer({ listen: true, databaseUrl: url, onHostLost: (error) => lost.push(error) });
    const y = await startTestServer({ listen: true, databaseUrl: url, standby: true, hostRetryMs: 250 });
    try {
      expect([x.server.hostsStations(), y.server.hostsStations()]).toEqual([true, false]);
      // The load balancer's feed backend checks which instance hosts.
      const hostCheck = async (t: TestServer) => (await fetch(`${t.origin}/healthz/host`)).status;
      expect([await hostCheck(x), await hostCheck(y)]).toEqual([200, 503]);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
        [STORE_LOCKS.stationHost],
      );
      await admin.end();
      await expect.poll(() => lost.length, { timeout: 10_000 }).toBe(1);
      expect(x.server.hostsStations()).toBe(false);
      await expect.poll(() => y.server.hostsStations(), { timeout: 10_000, interval: 50 }).toBe(true);
      expect([await hostCheck(x), await hostCheck(y)]).toEqual([503, 200]);

      const carol = await createTestUser(x, {}, { freeTc: 10_000 });
      const [station] = await x.server
        .store()
        .query<{ station_id: number }>(
          `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id DESC LIMIT 1`,
        );
      // The old host now forwards: the reservation runs in the new host's room.
      const reserved = reserveResponseSchema.parse(
        await caller(x.origin, carol)('v2/play/reserve', { station_id: station!.station_id }),
      );
      expect(reserved.reserve_info.reserve_status).toBe('playTransition');
      expect(
        getReserveResponseSchema.parse(
          await caller(y.origin, carol)('v2/play/get_reserve', { station_id: station!.station_id }),
        ).reserve_info.reserve_status,
      ).toBe('playTransition');
    } finally {
      await x.close();
      await y.close();
    }
  }, 60_000);

  it('a forged or malformed relayed call is refused by the host in Japanese and changes nothing', async () => {
    const url = await postgres.cluster.seededDatabase();
    const host = await startTestServer({ listen: true, databaseUrl: url });
    const other = await startTestServer({ listen: true, databaseUrl: url, standby: true });
    try {
      const before = await storeFingerprint(host.server.store());
      const relay = (call: unknown) =>
        new Promise<unknown[]>((resolve) =>
          other.server.io.serverSideEmit('onkure:room', call, (_error: unknown, answers: unknown[]) =>
            resolve(answers),
          ),
        );
      // The two instances know each other before the calls are counted on.
      await expect
        .poll(async () => (await relay({ method: 'current', args: [1] })).length, { timeout: 15_000 })
        .toBe(1);
      for (const call of [
        { method: 'close', args: [] },
        { method: 'relayed', args: ['close', []] },
        { method: 'constructor', args: [] },
        { method: 'join', args: 'x' },
        { method: 'join', args: [1, 2, 3, 4, 5] },
        null,
        'join',
      ]) {
        const answers = await relay(call);
        expect(answers).toEqual([{ host: true, refusal: [400, 400, 'この操作は受け付けられません。', {}] }]);
      }
      // A call the host understands but whose arguments name nobody: the room's own refusal.
      expect(await relay({ method: 'join', args: [999_999, 999_999, null] })).toEqual([
        { host: true, refusal: [404, 404, 'ステーションが見つかりません。', {}] },
      ]);
      expect(await storeFingerprint(host.server.store())).toBe(before);
    } finally {
      await host.close();
      await other.close();
    }
  }, 60_000);
});
