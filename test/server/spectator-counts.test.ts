import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JoinAck } from '../../src/contract';
import {
  OPERATOR_AUTH_HEADER,
  operatorStationCamerasResponseSchema,
  operatorStationFeedsResponseSchema,
} from '../../src/contract/operator.schema';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Spectators per station by kind (issue 44, docs/spectators.md "Counting spectators") against the
 * real server: pages (real socket.io clients, guests and signed in) say what they show, the console's
 * `operator/station_feeds` counts one kind per connection; and what the origin itself sees of the
 * stills and the HLS (`operator/station_cameras`). Every wait is on what the server answers.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-spectator-counts-0123';
let t: TestServer;
let station = 0;
let other = 0;
let alice: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, listen: true, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  station = (await playableStation(t)).station_id;
  const [row] = await t.server
    .store()
    .query<{ station_id: number }>(
      'SELECT station_id FROM stations WHERE station_id <> $1 ORDER BY station_id LIMIT 1',
      [station],
    );
  other = row!.station_id;
  alice = await createTestUser(t, {});
}, 60_000);
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => t?.close());

async function operator(path: string, body: object = {}) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload: body,
    headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR_TOKEN}` },
  });
  return { status: res.statusCode, json: res.json() as unknown };
}

/** The console's counts of a station. */
async function spectators(stationId = station) {
  const answer = await operator('operator/station_feeds');
  expect(answer.status).toBe(200);
  return operatorStationFeedsResponseSchema.parse(answer.json).stations.find((s) => s.station_id === stationId)!
    .spectators;
}

/** A page's socket on the station's channel (a guest unless `user`). */
async function page(user?: TestUser, stationId = station): Promise<TestSocket> {
  const socket = await connectSocket(t.origin, user, sockets);
  expect(await emit(socket, 'join', `station:${stationId}`)).toEqual({ ok: true });
  return socket;
}

const emit = (socket: TestSocket, event: 'join' | 'leave', channel: string) =>
  new Promise<JoinAck>((resolve) => socket.emit(event, channel, resolve));
const watching = (socket: TestSocket, message: unknown) =>
  new Promise<JoinAck>((resolve) => socket.emit('watching', message as never, resolve));

describe('spectators per station by kind', { timeout: 60_000 }, () => {
  it('a page reporting hls, then rtc, moves its one count; the same report again does not double it; jpg counts for a signed-in page too', async () => {
    expect(await spectators()).toEqual({ hls: 0, rtc: 0, jpg: 0 });
    const guest = await page();
    expect(await watching(guest, { station_id: station, kind: 'hls' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 1, rtc: 0, jpg: 0 });
    expect(await watching(guest, { station_id: station, kind: 'rtc' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 0, rtc: 1, jpg: 0 });
    expect(await watching(guest, { station_id: station, kind: 'rtc' })).toEqual({ ok: true });
    expect(await watching(guest, { station_id: station, kind: 'rtc' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 0, rtc: 1, jpg: 0 });

    const signedIn = await page(alice);
    expect(await watching(signedIn, { station_id: station, kind: 'jpg' })).toEqual({ ok: true });
    const second = await page();
    expect(await watching(second, { station_id: station, kind: 'hls' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 1, rtc: 1, jpg: 1 });
    // Another station's page counts there, not here.
    const elsewhere = await page(undefined, other);
    expect(await watching(elsewhere, { station_id: other, kind: 'hls' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 1, rtc: 1, jpg: 1 });
    expect(await spectators(other)).toEqual({ hls: 1, rtc: 0, jpg: 0 });
    // A page moving to another station counts only there.
    expect(await emit(second, 'join', `station:${other}`)).toEqual({ ok: true });
    expect(await watching(second, { station_id: other, kind: 'rtc' })).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 0, rtc: 1, jpg: 1 });
    expect(await spectators(other)).toEqual({ hls: 1, rtc: 1, jpg: 0 });
  });

  it('a closed page, a connection cut without a goodbye, a withdrawn report and a left channel stop counting', async () => {
    const closing = await page();
    const cut = await page();
    const withdrawing = await page();
    const leaving = await page(alice);
    for (const socket of [closing, cut, withdrawing]) await watching(socket, { station_id: station, kind: 'hls' });
    await watching(leaving, { station_id: station, kind: 'jpg' });
    expect(await spectators()).toEqual({ hls: 3, rtc: 0, jpg: 1 });

    closing.close();
    await expect.poll(() => spectators()).toEqual({ hls: 2, rtc: 0, jpg: 1 });
    // The tab's process died: its TCP connection ends without a close frame.
    (cut.io.engine as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await expect.poll(() => spectators()).toEqual({ hls: 1, rtc: 0, jpg: 1 });
    expect(await watching(withdrawing, null)).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 0, rtc: 0, jpg: 1 });
    expect(await emit(leaving, 'leave', `station:${station}`)).toEqual({ ok: true });
    expect(await spectators()).toEqual({ hls: 0, rtc: 0, jpg: 0 });
  });

  it('bad reports are refused and count nothing: unknown kinds, bad station ids, extra fields, a station whose channel the page has not joined', async () => {
    const socket = await page();
    const bad: unknown[] = [
      { station_id: station, kind: 'flv' },
      { station_id: station, kind: 'HLS' },
      { station_id: station, kind: ['hls'] },
      { station_id: station },
      { station_id: 0, kind: 'hls' },
      { station_id: -1, kind: 'hls' },
      { station_id: 1.5, kind: 'hls' },
      { station_id: String(station), kind: 'hls' },
      { station_id: 2 ** 40, kind: 'hls' },
      { station_id: station, kind: 'hls', count: 1000 },
      'hls',
      42,
      [station, 'hls'],
    ];
    for (const message of bad) {
      const answer = await watching(socket, message);
      expect(answer.ok, JSON.stringify(message)).toBe(false);
      expect(answer).toMatchObject({ error_code: 400 });
      expect((answer as { error_info: string }).error_info).toMatch(/[ぁ-んァ-ン]/);
    }
    const notJoined = await watching(socket, { station_id: other, kind: 'hls' });
    expect(notJoined).toMatchObject({ ok: false, error_code: 409 });
    expect(await spectators()).toEqual({ hls: 0, rtc: 0, jpg: 0 });
    expect(await spectators(other)).toEqual({ hls: 0, rtc: 0, jpg: 0 });
    // A refused report leaves the page's last good one standing.
    expect(await watching(socket, { station_id: station, kind: 'rtc' })).toEqual({ ok: true });
    await watching(socket, { station_id: station, kind: 'nope' });
    expect(await spectators()).toEqual({ hls: 0, rtc: 1, jpg: 0 });
  });

  it('a thousand reports from one connection count once', async () => {
    const socket = await page();
    const kinds = ['hls', 'rtc', 'jpg'] as const;
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => watching(socket, { station_id: station, kind: kinds[i % 3] })),
    );
    const counts = await spectators();
    expect(counts.hls + counts.rtc + counts.jpg).toBe(1);
    // The last one sent is the one that counts (socket.io keeps a connection's order).
    expect(counts).toEqual({ hls: 1, rtc: 0, jpg: 0 });
  });

  it('consoles are not spectators, and the call needs an operator with the floor right', async () => {
    await t.server.services().operators.add('sp.floor', '観戦 フロア', 'floor', 'spectator-counts-password');
    await t.server.services().operators.add('sp.support', '観戦 サポート', 'support', 'spectator-counts-password');
    const login = async (name: string) =>
      (
        (await operator('operator/login', { login: name, password: 'spectator-counts-password' })).json as {
          session: { token: string };
        }
      ).session.token;
    const floorStaff = await login('sp.floor');
    const console_ = await connectSocket(t.origin, { operator_token: floorStaff }, sockets);
    expect(await emit(console_, 'join', `station:${station}`)).toEqual({ ok: true });
    expect(await watching(console_, { station_id: station, kind: 'hls' })).toMatchObject({
      ok: false,
      error_code: 403,
    });
    expect(await spectators()).toEqual({ hls: 0, rtc: 0, jpg: 0 });

    const as = (token: string | null) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/operator/station_feeds',
        payload: {},
        headers: token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
      });
    expect((await as(null)).statusCode).toBe(403);
    expect((await as(await login('sp.support'))).statusCode).toBe(403);
    expect((await as(floorStaff)).statusCode).toBe(200);
    expect((await operator('operator/station_feeds', { extra: 1 })).status).toBe(400);
    const answer = operatorStationFeedsResponseSchema.parse((await operator('operator/station_feeds')).json);
    const ids = (await t.server.store().query<{ station_id: number }>('SELECT station_id FROM stations')).map(
      (r) => r.station_id,
    );
    expect(answer.stations.map((s) => s.station_id).sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
  });
});

describe('what the origin sees of a camera', { timeout: 60_000 }, () => {
  let cameras: TestCameras;
  afterAll(async () => cameras?.stopAll());

  it('its HLS requests a second and whether its encoder runs; its still asks a second', async () => {
    cameras = await TestCameras.issue(t, [station]);
    await cameras.publish(station, 'front');
    const front = async () =>
      operatorStationCamerasResponseSchema
        .parse((await operator('operator/station_cameras')).json)
        .cameras.find((c) => c.station_id === station && c.camera === 'front');
    await expect.poll(async () => (await front())?.publishing, { timeout: 15_000 }).toBe(true);
    expect(await front()).toMatchObject({ hls: false, hls_requests_per_s: 0, stills_requests_per_s: 0 });

    const playlist = await fetch(`${t.origin}/api/stations/${station}/hls/front/index.m3u8`);
    expect(playlist.status).toBe(200);
    await playlist.arrayBuffer();
    const afterHls = (await front())!;
    expect(afterHls.hls).toBe(true);
    // One request within the 5 s window (a cache in front would keep this the same for any number of spectators).
    expect(afterHls.hls_requests_per_s).toBeGreaterThan(0);
    for (let i = 0; i < 4; i += 1) {
      const still = await fetch(`${t.origin}/api/stations/${station}/camera/front.jpg?t=${i}`);
      expect(still.status).toBe(200);
      await still.arrayBuffer();
    }
    const afterStills = (await front())!;
    expect(afterStills.stills).toBe(true);
    expect(afterStills.stills_requests_per_s).toBeGreaterThanOrEqual(0.4);
  });
});
