import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Socket } from 'socket.io-client';
import {
  CHANNELS,
  type ClientToServerEvents,
  type ControlAck,
  type JoinAck,
  type ServerToClientEvents,
} from '../../src/contract';
import { PLAY_TIMINGS } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { connectSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { stationOps } from '../support/station-ops';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const OPERATOR_TOKEN = 'operator-token-for-realtime-tests-0123';
const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;
const open: Client[] = [];

beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  const row = await playableStation(t);
  stationId = row.station_id;
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => t?.close());

/** A connection as a guest or as a user; resolves once connected (or rejects with the refusal). */
function connect(user?: TestUser | { user_id: number; access_token: string }): Promise<Client> {
  return connectSocket(t.origin, user, open);
}
const join = (s: Client, channel: string) => new Promise<JoinAck>((resolve) => s.emit('join', channel, resolve));
const control = (s: Client, play_id: number, button: 'right' | 'back', command: 'press' | 'release') =>
  new Promise<ControlAck>((resolve) => s.emit('control', { play_id, button, command }, resolve));
/** The next `event` the socket receives. */
function next<E extends keyof ServerToClientEvents>(
  s: Client,
  event: E,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve) =>
    (s as unknown as { once: (e: string, f: (v: unknown) => void) => void }).once(
      event,
      resolve as (v: unknown) => void,
    ),
  );
}
const player = () => createTestUser(t, {}, { freeTc: 10_000 });
const drive = (u: TestUser) => new PlayDriver(t, clock, u);

describe('the real-time socket (spec §7): channels, identity, pushes and controls', () => {
  it('[R7-11] a guest may join top, the configured channel and a station; the user channel only with its own identity', async () => {
    const guest = await connect();
    expect(await join(guest, CHANNELS.top)).toEqual({ ok: true });
    expect(await join(guest, t.config.realtimeChannel)).toEqual({ ok: true });
    expect(await join(guest, CHANNELS.station(stationId))).toEqual({ ok: true });
    expect(await join(guest, CHANNELS.user(1))).toMatchObject({ ok: false, error_code: 403 });
    expect(await join(guest, 'admin')).toMatchObject({ ok: false, error_code: 404 });
    const [alice, bob] = [await player(), await player()];
    const a = await connect(alice);
    expect(await join(a, CHANNELS.user(alice.user_id))).toEqual({ ok: true });
    expect(await join(a, CHANNELS.user(bob.user_id))).toMatchObject({
      ok: false,
      error_code: 403,
      error_info: expect.stringMatching(/許可/),
    });
  });

  it('a handshake with a wrong or revoked token is refused; a token revoked after connecting can no longer join its user channel', async () => {
    const alice = await player();
    await expect(connect({ user_id: alice.user_id, access_token: 'x'.repeat(43) })).rejects.toThrow(/ログイン/);
    await expect(connect({ user_id: alice.user_id + 1, access_token: alice.access_token })).rejects.toThrow();
    const a = await connect(alice);
    await t.server.services().identity.revoke(alice.access_token);
    expect(await join(a, CHANNELS.user(alice.user_id))).toMatchObject({ ok: false, error_code: 403 });
  });

  it('[R7-11] the station channel gets reserve_change=1 when its line moves, and the user channel the "turn is near" push', async () => {
    const [alice, bob] = [await player(), await player()];
    const watcher = await connect();
    await join(watcher, CHANNELS.station(stationId));
    const b = await connect(bob);
    await join(b, CHANNELS.user(bob.user_id));
    const changed = next(watcher, 'reserve_change');
    await drive(alice).reserve(stationId);
    expect(await changed).toEqual({ station_id: stationId, reserve_change: 1 });
    const pushed = next(b, 'push');
    await drive(bob).reserve(stationId);
    expect(await pushed).toMatchObject({
      kind: 'turnNear',
      reserve_num: 2,
      title: 'まもなくあなたの番です',
      message: expect.stringContaining('2番目'),
    });
    await stationOps(t.server).setStatus(stationId, 'maintenance');
    await stationOps(t.server).setStatus(stationId, 'open');
  });

  it('controls travel over the socket with acknowledgements; anyone but the current player is refused', async () => {
    const [alice, mallory] = [await player(), await player()];
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const as = await connect(alice);
    const ms = await connect(mallory);
    const pressed = await control(as, a.play!.play_id, 'right', 'press');
    expect(pressed).toMatchObject({ ok: true, machine: { phase: 'movingRight', button: 'right' } });
    expect(await control(ms, a.play!.play_id, 'right', 'release')).toMatchObject({ ok: false, error_code: 403 });
    const guest = await connect();
    expect(await control(guest, a.play!.play_id, 'right', 'release')).toMatchObject({ ok: false, error_code: 401 });
    expect(await control(as, a.play!.play_id, 'sideways' as 'right', 'press')).toMatchObject({
      ok: false,
      error_code: 400,
    });
    await a.wait(500);
    expect(await control(as, a.play!.play_id, 'right', 'release')).toMatchObject({
      ok: true,
      machine: { phase: 'waitBack', button: 'back' },
    });
    await a.holdBack(200).waitResult().finish();
  });

  it('a player whose last connection drops is away (the grace window runs); connecting again brings the same play back', async () => {
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const first = await connect(alice);
    const second = await connect(alice);
    const connections = t.server.io.of('/').sockets.size;
    first.close();
    await expect.poll(() => t.server.io.of('/').sockets.size).toBe(connections - 1); // the server saw the close
    const loop = stationOps(t.server);
    expect(loop.playOn(stationId)!.grace_ms_left).toBeNull(); // one connection left
    second.close();
    await expect.poll(() => loop.playOn(stationId)!.grace_ms_left).toBe(PLAY_TIMINGS.graceMs);
    await connect(alice);
    await expect.poll(() => loop.playOn(stationId)!.grace_ms_left).toBeNull();
    await a.holdRight(100).holdBack(100).waitResult().finish();
  });

  it('[R7-11] a kuji box channel gets play_end=1 when its box ends', async () => {
    const [box] = await t.server
      .store()
      .query<{ kuji_id: number; box_id: number }>(
        `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`,
      );
    const watcher = await connect();
    expect(await join(watcher, CHANNELS.kujiBox(box!.kuji_id, box!.box_id))).toEqual({ ok: true });
    const ended = next(watcher, 'play_end');
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/kuji_box_status',
      payload: { box_id: box!.box_id, box_status: 'outOfStock' },
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(res.json()).toMatchObject({ error_code: 200, box: { box_id: box!.box_id, box_status: 'outOfStock' } });
    expect(await ended).toEqual({ kuji_id: box!.kuji_id, box_id: box!.box_id, play_end: 1 });
  });

  it('[R7-11] updates on top carry maintenance and the station list when a station goes down and comes back', async () => {
    const top = await connect();
    await join(top, CHANNELS.top);
    const updates: unknown[] = [];
    top.on('update', (u) => updates.push(u));
    await stationOps(t.server).setStatus(stationId, 'adjusting');
    // The station list goes out at most once a second a station (the lobby's numbers, issue 45):
    // the earlier tests' changes may hold this one to the end of that second on the manual clock.
    clock.advance(1_000);
    await expect
      .poll(() => updates)
      .toEqual([
        { channel: 'top', maintenance: { station_id: stationId, station_status: 'adjusting' } },
        {
          channel: 'top',
          list: [
            {
              station_id: stationId,
              station_status: 'adjusting',
              playing: 0,
              visit_count: expect.any(Number),
              reserve_count: expect.any(Number),
            },
          ],
        },
      ]);
    await stationOps(t.server).setStatus(stationId, 'open');
    clock.advance(1_000);
    await expect.poll(() => updates.length).toBeGreaterThanOrEqual(4);
    expect(updates[2]).toEqual({ channel: 'top', maintenance: { station_id: stationId, station_status: 'open' } });
  });
});
