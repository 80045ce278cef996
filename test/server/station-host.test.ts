import { TestCameras } from '../support/test-cameras';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHANNELS,
  FRAME_TICK_HEADER,
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
import { confirmAndMoveClaw, untilTurn } from '../support/moving-play';
import { agentReporting, spawnStationsAgent, type AgentProcess } from '../support/agent-process';
import { createTestUser, type TestUser } from '../support/users';
import { openSignaling, recvonlyConnect, RtcViewer } from '../support/rtc-viewer';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { atStation } from '../../server/http/room-answers';

/**
 * Issue 25, R10-8: instances on one PostgreSQL database; each station's room runs on exactly one
 * of them, the stations spread over the live instances. An instance is a real process killed with
 * SIGKILL mid-play; the other takes its stations over within 10 s and the player finishes the same
 * play, charged once.
 */
const postgres = usePostgresCluster();
const processes: ServerProcess[] = [];
const open: TestSocket[] = [];
let standby: TestServer | null = null;
const agents: AgentProcess[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const socket of open) socket.close();
  for (const agent of agents) await agent.kill();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  for (const p of processes) await p.kill();
  await standby?.close();
});

const join = (socket: TestSocket, channel: string) =>
  new Promise<JoinAck>((resolve) => socket.emit('join', channel, (ack: JoinAck) => resolve(ack)));
const next = <E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) =>
  new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) => {
    socket.once(event as never, ((payload: never) => resolve(payload)) as never);
  });

/** The stations whose rooms run on an instance (its /healthz/stations). */
async function stationsOf(origin: string): Promise<number[]> {
  const answer = await fetch(`${origin}/healthz/stations`);
  return answer.ok ? ((await answer.json()) as { stations: number[] }).stations : [];
}

/** Whether the instances run every station between them, each exactly once, within its share. */
async function spread(url: string, origins: readonly string[]): Promise<number[][] | null> {
  const all = await stationIds(url);
  const lists = await Promise.all(origins.map(stationsOf));
  const share = Math.ceil(all.length / origins.length);
  const union = lists.flat().sort((a, b) => a - b);
  return union.length === all.length && union.every((id, i) => id === all[i]) && lists.every((l) => l.length <= share)
    ? lists
    : null;
}

async function stationIds(url: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return (await admin.query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY station_id')).rows.map(
      (r) => r.station_id,
    );
  } finally {
    await admin.end();
  }
}

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

describe('the stations spread over the instances (R10-8)', () => {
  it("[R10-8] the stations spread over the live instances and some move to one that joins; a call reaches the station's instance wherever it lands; players on both see each other in the line; the instance running the play killed with SIGKILL mid-play, the other takes its stations over within 10 s and the play finishes there, charged once", async () => {
    const url = await postgres.cluster.seededDatabase();
    const all = await stationIds(url);
    const host = new ServerProcess(await freePort(), ':memory:', { DATABASE_URL: url });
    processes.push(host);
    await host.start();
    // Alone, the first instance runs every station (and leads).
    await expect.poll(() => hostLockHeld(url), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await stationsOf(host.origin)).length, { timeout: 15_000 }).toBe(all.length);
    standby = await startTestServer({
      listen: true,
      databaseUrl: url,
      standby: true,
      hostRetryMs: 250,
      onHostLost: () => undefined,
    });
    expect(standby.server.hostsStations()).toBe(false);
    // A second instance joins: idle stations move to it until each runs its share.
    const joinedAt = Date.now();
    await expect
      .poll(() => spread(url, [host.origin, standby!.origin]), { timeout: 15_000, interval: 100 })
      .not.toBeNull();
    const [onHost, joined] = (await spread(url, [host.origin, standby.origin]))!;
    expect(joined!.length).toBeGreaterThan(0);
    console.log(
      `stations spread in ${Date.now() - joinedAt} ms: ${onHost!.length} on the first instance, ${joined!.length} on the one that joined`,
    );

    const alice = await createTestUser(standby, {}, { freeTc: 10_000 });
    const bob = await createTestUser(standby, {}, { freeTc: 10_000 });
    // A station running on the process (the one to be killed).
    const [station] = await standby.server
      .store()
      .query<{ station_id: number; play_price: number }>(
        `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 AND station_id = ANY($1::int[]) ORDER BY station_id LIMIT 1`,
        [onHost],
      );
    const stationId = station!.station_id;
    // The station's machine: its agent dials the instance that lives on, not the one running the
    // station's room (the commands and reports cross between them), and stays connected through
    // the takeover.
    const folder = mkdtempSync(joinPath(tmpdir(), 'onkure-host-agent-'));
    folders.push(folder);
    const agent = await spawnStationsAgent({
      store: standby.server.store(),
      server: standby.origin,
      folder,
      stationIds: [stationId],
    });
    agents.push(agent);
    await agentReporting([standby.origin], [stationId], agent);
    // Alice plays through the other instance (her calls reach the process's room), Bob through the
    // process; each watches the station's channel from the other instance.
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
      reserveResponseSchema.parse(await a('v2/play/reserve', { station_id: stationId })).reserve_info.reserve_num,
    ).toBe(1);
    expect(await bobSees).toEqual({ station_id: stationId, reserve_change: 1 });
    await untilTurn(a, stationId);
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
    // The survivor runs every station (the killed one's included) and leads, within 10 s.
    await expect
      .poll(async () => (await stationsOf(standby!.origin)).length, { timeout: 10_000, interval: 50 })
      .toBe(all.length);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(10_000);
    await expect.poll(() => standby!.server.hostsStations(), { timeout: 10_000, interval: 50 }).toBe(true);

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
    console.log(`stations taken over after SIGKILL: ${tookOverMs} ms`);
  }, 120_000);

  it("[R10-8] an instance whose locks' connection is cut stops running rooms at once (it is told, and runs none); the other takes its stations and the lead over, and the first forwards to it", async () => {
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
      expect(await stationsOf(x.origin)).toEqual([]);
      await expect
        .poll(async () => (await stationsOf(y.origin)).length, { timeout: 10_000 })
        .toBe((await stationIds(url)).length);

      const carol = await createTestUser(x, {}, { freeTc: 10_000 });
      const [station] = await x.server
        .store()
        .query<{ station_id: number }>(
          `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id DESC LIMIT 1`,
        );
      // The old host now forwards: the reservation runs in the new host's room (first in line; no
      // agent drives the station's machine in this test, so no turn is offered yet).
      const reserved = reserveResponseSchema.parse(
        await caller(x.origin, carol)('v2/play/reserve', { station_id: station!.station_id }),
      );
      expect(reserved.reserve_info).toMatchObject({ reserve_status: 'reserve', reserve_num: 1 });
      expect(
        getReserveResponseSchema.parse(
          await caller(y.origin, carol)('v2/play/get_reserve', { station_id: station!.station_id }),
        ).reserve_info,
      ).toMatchObject({ reserve_status: 'reserve', reserve_num: 1 });
    } finally {
      await x.close();
      await y.close();
    }
  }, 60_000);

  it('[R10-8] the kuji boxes spread over the instances like the stations; a kuji place, a draw and a cancel reach the box wherever they land; a station place refused for too little TC on another instance is 402 in Japanese', async () => {
    const url = await postgres.cluster.seededDatabase();
    const one = await startTestServer({ listen: true, databaseUrl: url });
    const two = await startTestServer({ listen: true, databaseUrl: url, standby: true });
    try {
      const roomsOf = async (origin: string) =>
        (await (await fetch(`${origin}/healthz/rooms`)).json()) as { station: number[]; kuji: number[] };
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const boxIds = (await admin.query<{ box_id: number }>('SELECT box_id FROM kuji_boxes ORDER BY box_id')).rows.map(
        (r) => r.box_id,
      );
      await admin.end();
      // Every box runs on exactly one instance, each within its share.
      await expect
        .poll(
          async () => {
            const [a, b] = [(await roomsOf(one.origin)).kuji, (await roomsOf(two.origin)).kuji];
            const share = Math.ceil(boxIds.length / 2);
            return (
              [...a, ...b].sort((x, y) => x - y).join() === boxIds.join() && a.length <= share && b.length <= share
            );
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(true);
      const onOne = (await roomsOf(one.origin)).kuji;
      const [box] = (
        await one.server
          .store()
          .query<{ kuji_id: number; box_id: number }>(
            `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' AND box_id = ANY($1::int[]) ORDER BY box_id LIMIT 1`,
            [onOne],
          )
      ).slice(0, 1);
      expect(box).toBeDefined();
      // Carol is served by the other instance: her place, her draw and her cancel run in the box's room on the first.
      const carol = await createTestUser(two, {}, { freeTc: 10_000 });
      const onTwo = caller(two.origin, carol);
      const place = (await onTwo('play/kuji_reserve', box!)) as {
        error_code: number;
        play_info: { reserve_token: string };
      };
      expect(place).toMatchObject({ error_code: 200, play_info: { reserve_status: 'firstReserved' } });
      const token = place.play_info.reserve_token;
      const drew = await onTwo('play/kuji_draw', {
        ...box,
        reserve_token: token,
        count: 1,
        request_id: 'cluster-carol-1',
      });
      expect(drew).toMatchObject({ error_code: 200, draw: { replayed: 0 }, play_info: { reserve_status: 'confirm' } });
      // The same request id through the first instance answers the same draw.
      const again = await caller(one.origin, carol)('play/kuji_draw', {
        ...box,
        reserve_token: token,
        count: 1,
        request_id: 'cluster-carol-1',
      });
      expect(again).toMatchObject({
        error_code: 200,
        draw: { draw_id: (drew.draw as { draw_id: number }).draw_id, replayed: 1 },
      });
      expect(await onTwo('play/kuji_reserve_cancel', { ...box, reserve_token: token })).toMatchObject({
        error_code: 200,
        play_info: { reserve_status: 'cancel' },
      });
      // A station running on the first instance: a player without TC asking the other for a place
      // is refused as the first refuses it (402, in Japanese), not with a fault.
      const [station] = await one.server
        .store()
        .query<{ station_id: number }>(
          `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock > 0 AND station_id = ANY($1::int[]) ORDER BY station_id LIMIT 1`,
          [(await roomsOf(one.origin)).station],
        );
      const poor = await createTestUser(two, {}, { freeTc: 0 });
      const refused = await caller(two.origin, poor)('v2/play/reserve', { station_id: station!.station_id });
      expect(refused).toMatchObject({ error_code: 402 });
      expect(refused.error_info).toMatch(/TC/);
    } finally {
      await one.close();
      await two.close();
    }
  }, 60_000);

  it('[R10-8] a forged or malformed relayed event is refused in Japanese and changes nothing; an event for a station nobody runs is answered by none', async () => {
    const url = await postgres.cluster.seededDatabase();
    const host = await startTestServer({ listen: true, databaseUrl: url });
    const other = await startTestServer({ listen: true, databaseUrl: url, standby: true });
    try {
      // Settled: the stations spread (their owners recorded) before the store is fingerprinted.
      await expect
        .poll(() => spread(url, [host.origin, other.origin]), { timeout: 15_000, interval: 100 })
        .not.toBeNull();
      const before = await storeFingerprint(host.server.store());
      const relay = (call: unknown) =>
        new Promise<unknown[]>((resolve) =>
          other.server.io.serverSideEmit('onkure:room', call, (_error: unknown, answers: unknown[]) =>
            resolve(answers),
          ),
        );
      // The two instances know each other before the calls are counted on.
      await expect
        .poll(
          async () => (await relay({ to: { kind: 'station', user: 1 }, event: { type: 'look', userId: 1 } })).length,
          {
            timeout: 15_000,
          },
        )
        .toBe(1);
      const at = (room: string, event: unknown) => ({ to: { room }, event });
      for (const call of [
        // The shape of the calls before events travelled as data.
        { method: 'close', args: [] },
        { method: 'join', args: [1, 2, 3] },
        // Not a room, not a kind, not an event of the kind.
        at('station:1', { type: 'close' }),
        at('hack:1', { type: 'view' }),
        at('station:0', { type: 'view' }),
        at('station:1x', { type: 'view' }),
        { to: { kind: '__proto__', user: 1 }, event: { type: 'view' } },
        { to: { kind: 'station', user: -1 }, event: { type: 'view' } },
        { to: { room: 'station:1' }, event: { type: 'view' }, extra: 1 },
        at('station:1', { type: 'join', userId: 'x' }),
        at('station:1', { type: 'control', userId: 1, playId: 1, button: 'up', command: 'press' }),
        at('station:1', { type: 'setStatus', status: 'exploded' }),
        at('station:1', {
          type: 'changePrize',
          prize: { prizeName: '<b>', prizeShape: 'box', stock: 1, extra: 1 },
        }),
        at('station:1', { type: 'restock', stock: -5 }),
        // The room's own events (outcomes of its writes, its clock, its restart) are nobody's to send.
        at('station:1', { type: 'joined', reserveId: 1, userId: 1, settingId: 1 }),
        at('station:1', { type: 'startRefused' }),
        at('station:1', { type: 'clock' }),
        at('station:1', { type: 'resumed' }),
        null,
        'join',
      ]) {
        const answers = await relay(call);
        expect(answers, JSON.stringify(call)).toEqual([
          { owner: true, refusal: [400, 400, 'この操作は受け付けられません。', {}] },
        ]);
      }
      // Events the instances understand but for a station or a player none runs: nobody answers for them.
      expect(await relay(at('station:999999', { type: 'join', userId: 999_999, shopId: null }))).toEqual([
        { owner: false },
      ]);
      expect(
        await relay({
          to: { kind: 'station', user: 999_999 },
          event: { type: 'control', userId: 999_999, playId: 1, button: 'right', command: 'press' },
        }),
      ).toEqual([{ owner: false }]);

      expect(await storeFingerprint(host.server.store())).toBe(before);
      // A room event for a station that does not exist: 404 in Japanese; no instance holds it after.
      const dave = await createTestUser(other, {}, { freeTc: 1_000 });
      const rooms = other.server.services().rooms;
      expect(
        await atStation(999_999, rooms.send('station', 999_999, { type: 'confirm', userId: dave.user_id })).catch(
          (e: unknown) => e,
        ),
      ).toMatchObject({ status: 404, info: 'ステーションが見つかりません。' });
      // A viewer of a station nobody runs sees no play, and no instance takes the station for it.
      expect(await rooms.sendIfRunning('station', 999_999, { type: 'view' })).toBeNull();
      expect(await caller(other.origin, dave)('v2/play/reserve', { station_id: 999_999 })).toMatchObject({
        error_code: 404,
      });
      expect(await stationsOf(other.origin)).not.toContain(999_999);
    } finally {
      await host.close();
      await other.close();
    }
  }, 60_000);
  it("[R10-8] the live feed of a station is served wherever the viewer lands: stills and rtc signaling forwarded to the instance running it; after it stops, the camera publishes again and the viewer reconnects to the station's next instance; a forwarded request for a station an instance does not run is refused", async () => {
    const url = await postgres.cluster.seededDatabase();
    const x = await startTestServer({ listen: true, databaseUrl: url, hostRetryMs: 250 });
    const y = await startTestServer({ listen: true, databaseUrl: url, standby: true, hostRetryMs: 250 });
    let xClosed = false;
    let cameras: TestCameras | null = null;
    try {
      await expect.poll(() => spread(url, [x.origin, y.origin]), { timeout: 15_000, interval: 100 }).not.toBeNull();
      const [onX] = (await spread(url, [x.origin, y.origin]))!;
      const [row] = await x.server
        .store()
        .query<{ station_id: number }>(
          `SELECT station_id FROM stations WHERE station_type = 'normal' AND station_status = 'open' AND station_id = ANY($1::int[]) ORDER BY station_id LIMIT 1`,
          [onX],
        );
      const stationId = row!.station_id;
      // The station's camera publishes through y: its WHIP call is forwarded to x, which runs the station.
      cameras = await TestCameras.issue(y, [stationId]);
      await cameras.publish(stationId, 'front');
      const info = (await (
        await fetch(`${y.origin}/api/v2/play/station_info`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ station_id: stationId }),
        })
      ).json()) as { station_info: { watch_info: { webrtc_url: string; motion_jpeg_front: string } } };
      const watch = info.station_info.watch_info;
      expect(watch.webrtc_url).toBe(`/signaling?s=${stationId}`);

      // A still asked of y is made by x from the camera's video (the picture's tick is x's machine's).
      await expect
        .poll(async () => (await fetch(`${y.origin}${watch.motion_jpeg_front}`)).status, { timeout: 10_000 })
        .toBe(200);
      const still = await fetch(`${y.origin}${watch.motion_jpeg_front}`);
      expect(still.status).toBe(200);
      expect(still.headers.get('content-type')).toBe('image/jpeg');
      expect(Number(still.headers.get(FRAME_TICK_HEADER))).toBeGreaterThanOrEqual(0);
      expect(still.headers.get(FRAME_TICK_HEADER)).not.toBeNull();
      expect(
        Buffer.from(await still.arrayBuffer())
          .subarray(0, 2)
          .toString('hex'),
      ).toBe('ffd8');
      // A request claiming to be forwarded, for a station the instance does not run: refused.
      const stale = await fetch(`${y.origin}${watch.motion_jpeg_front}`, { headers: { 'x-onkure-feed-hop': '1' } });
      expect(stale.status).toBe(503);
      expect(((await stale.json()) as { error_info: string }).error_info).toMatch(/しばらくしてから/);

      // rtc through y: the signaling is forwarded to x, which sends the video.
      const ws = (origin: string) => `${origin.replace('http:', 'ws:')}${watch.webrtc_url}`;
      const viewer = await RtcViewer.connect(ws(y.origin), `station-${stationId}-front`);
      await expect.poll(() => viewer.keyframes, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(x.server.services().signaling.connections).toBe(1);
      expect(y.server.services().signaling.connections).toBe(0);
      // Another station's channel on the address routed for this one: refused.
      const wrong = await openSignaling(ws(y.origin));
      wrong.ws.send(JSON.stringify(recvonlyConnect(`station-${stationId === 1 ? 2 : 1}-front`)));
      expect((await wrong.closed).code).toBe(SIGNALING_CLOSE.unknownChannel);
      await expect(openSignaling(`${y.origin.replace('http:', 'ws:')}/signaling?s=abc`)).rejects.toThrow('HTTP 404');

      // x stops: the viewer's connection ends, and the camera's session with it; the camera publishes
      // again and the viewer reconnects, both through y, which runs the station now.
      xClosed = true;
      await x.close();
      expect((await viewer.closed).code).not.toBe(1000);
      await viewer.close();
      await expect.poll(async () => (await stationsOf(y.origin)).includes(stationId), { timeout: 10_000 }).toBe(true);
      await cameras.stopAll();
      await cameras.publish(stationId, 'front');
      const again = await RtcViewer.connect(ws(y.origin), `station-${stationId}-front`);
      await expect.poll(() => again.keyframes, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(y.server.services().signaling.connections).toBe(1);
      await again.disconnect();
      await expect
        .poll(async () => (await fetch(`${y.origin}${watch.motion_jpeg_front}`)).status, { timeout: 10_000 })
        .toBe(200);
    } finally {
      await cameras?.stopAll();
      if (!xClosed) await x.close();
      await y.close();
    }
  }, 90_000);
});
