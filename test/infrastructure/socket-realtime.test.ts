import { firstValueFrom, filter, take, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeConnectionState, RealtimeEvent, ServiceSignal } from '../../src/application';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { REALTIME_SOCKET_SETTINGS } from '../../src/domain';
import { CONTROL_OFFLINE_CODE, SocketRealtime, socketClientAfter, socketOptions } from '../../src/infrastructure';
import { FakeSession } from '../../src/testing';
import { PlayDriver } from '../support/play-driver';
import { ManualServerClock } from '../support/manual-server-clock';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { stationOps } from '../support/station-ops';

const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;
const adapters: SocketRealtime[] = [];
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock });
  const row = await playableStation(t);
  stationId = row.station_id;
});
afterAll(async () => {
  for (const a of adapters) a.close();
  await t?.close();
});

function adapter(user: TestUser | null, signals?: ServiceSignal[]): SocketRealtime {
  const a = new SocketRealtime(
    {
      url: t.origin,
      configuredChannel: 'onkure',
      ...(signals
        ? { serviceSignals: { target: 'web' as const, publish: (s: ServiceSignal) => signals.push(s) } }
        : {}),
    },
    new FakeSession(user),
  );
  adapters.push(a);
  return a;
}
const nextEvent = (events: Observable<RealtimeEvent>, type: RealtimeEvent['type']) =>
  firstValueFrom(events.pipe(filter((e) => e.type === type)));
const until = (a: SocketRealtime, state: RealtimeConnectionState) =>
  firstValueFrom(a.connection$.pipe(filter((s) => s === state)));

describe('the socket.io adapter against the reference server', () => {
  it('[R7-10] [R9-14] connects with the socket settings of the spec: websocket only, /socket.io, 20 s timeout, unlimited reconnection with 1–5 s backoff', () => {
    const options = socketOptions(() => null);
    expect(options).toMatchObject({
      path: '/socket.io',
      transports: ['websocket'],
      timeout: 20_000,
      reconnection: true,
      reconnectionAttempts: Number.POSITIVE_INFINITY,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 5_000,
      randomizationFactor: 0.5,
      perMessageDeflate: { threshold: 1_024 },
    });
    expect(REALTIME_SOCKET_SETTINGS.pollingPath).toBe('/engine.io');
  });

  it('[R4.8-1] goes closed → opening → open with the first channel, and closing → closed when the app closes it', async () => {
    const a = adapter(null);
    const states: RealtimeConnectionState[] = [];
    a.connection$.subscribe((s) => states.push(s));
    a.channel({ kind: 'top' }).subscribe();
    await until(a, 'open');
    a.close();
    expect(states).toEqual(['closed', 'opening', 'open', 'closing', 'closed']);
  });

  it('in a browser the client library loads and connects only once the page has loaded (issue 27): a channel asked for before waits, then opens', async () => {
    let loaded = () => undefined as void;
    const pageLoaded = new Promise<void>((resolve) => (loaded = resolve));
    const a = new SocketRealtime(
      { url: t.origin, configuredChannel: 'onkure' },
      new FakeSession(null),
      socketClientAfter(() => pageLoaded),
    );
    adapters.push(a);
    const states: RealtimeConnectionState[] = [];
    a.connection$.subscribe((s) => states.push(s));
    const top = a.channel({ kind: 'top' }).subscribe();
    // Turns of the event loop, no timer: the page has not loaded, so nothing connects.
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(states).toEqual(['closed', 'opening']);
    loaded();
    await until(a, 'open');
    expect(states).toEqual(['closed', 'opening', 'open']);
    top.unsubscribe();
  });

  it('closes the connection when the last channel is left (a player leaving the play screen is away) and opens it again with the next', async () => {
    const a = adapter(null);
    const first = a.channel({ kind: 'station', stationId }).subscribe();
    await until(a, 'open');
    first.unsubscribe();
    await until(a, 'closed');
    const second = a.channel({ kind: 'top' }).subscribe();
    await until(a, 'open');
    second.unsubscribe();
  });

  it("[R7-11] receives the station channel's reserve_change and the user channel's push from the real play loop; controls come back acknowledged", async () => {
    const alice = await createTestUser(t, {}, { freeTc: 10_000 });
    const bob = await createTestUser(t, {}, { freeTc: 10_000 });
    const viewer = adapter(null);
    const b = adapter(bob);
    const station = viewer.channel({ kind: 'station', stationId });
    const changed = nextEvent(station, 'reserveChange');
    const stationSub = station.subscribe();
    const bobEvents = b.channel({ kind: 'user' });
    const pushed = nextEvent(bobEvents, 'push');
    const bobSub = bobEvents.subscribe();
    await until(viewer, 'open');
    await until(b, 'open');
    await expect.poll(() => t.server.io.of('/').adapter.rooms.get(`user:${bob.user_id}`)?.size ?? 0).toBe(1);

    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId);
    expect(await changed).toEqual({ type: 'reserveChange', stationId });
    await new PlayDriver(t, clock, bob).reserve(stationId);
    expect(await pushed).toMatchObject({ type: 'push', push: { kind: 'turnNear', reserve_num: 2 } });

    await a.confirm().waitPlaying();
    const player = adapter(alice);
    const answer = await firstValueFrom(player.control({ playId: a.play!.play_id, button: 'right', command: 'press' }));
    expect(answer).toMatchObject({ ok: true, machine: { phase: 'movingRight' } });
    const refused = await firstValueFrom(b.control({ playId: a.play!.play_id, button: 'right', command: 'release' }));
    expect(refused).toMatchObject({ ok: false, error_code: 403 });
    await firstValueFrom(player.control({ playId: a.play!.play_id, button: 'right', command: 'release' }));
    await a.holdBack(100).waitResult().finish();
    stationSub.unsubscribe();
    bobSub.unsubscribe();
    await stationOps(t.server).setStatus(stationId, 'maintenance');
    await stationOps(t.server).setStatus(stationId, 'open');
  });

  it('says when the user channel is joined, then delivers a support-chat reply checked at the border; a malformed one is dropped', async () => {
    const hana = await createTestUser(t);
    const a = adapter(hana);
    const events = a.channel({ kind: 'user' });
    const seen: RealtimeEvent[] = [];
    const sub = events.subscribe((e) => seen.push(e));
    await expect.poll(() => seen.some((e) => e.type === 'joined')).toBe(true);
    // A second subscriber to a joined channel hears it at once.
    const late: RealtimeEvent[] = [];
    const lateSub = events.subscribe((e) => late.push(e));
    expect(late).toEqual([{ type: 'joined' }]);
    t.server.io.to(`user:${hana.user_id}`).emit('chat', { message_id: 'x' });
    await t.server.services().support.reply(hana.user_id, '明日発送いたします。', 'reply-adapter-1');
    await expect.poll(() => seen.filter((e) => e.type === 'chat').length).toBe(1);
    expect(seen.find((e) => e.type === 'chat')).toMatchObject({
      type: 'chat',
      message: { from: 'operator', text: '明日発送いたします。' },
    });
    sub.unsubscribe();
    lateSub.unsubscribe();
  });

  it("[R8-5] [R8-6] an operator's service message pushed to the open connection becomes a service signal, as if a call had answered it", async () => {
    const alice = await createTestUser(t, {}, { freeTc: 10_000 });
    const signals: ServiceSignal[] = [];
    const a = adapter(alice, signals);
    const events: RealtimeEvent[] = [];
    a.channel({ kind: 'user' }).subscribe((e) => events.push(e));
    await firstValueFrom(a.channel({ kind: 'user' }).pipe(filter((e) => e.type === 'joined')));
    await t.server.services().operators.add('rin.admin', '中村 凛', 'admin', 'correct horse battery 42');
    const login = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      payload: { login: 'rin.admin', password: 'correct horse battery 42' },
    });
    const token = login.json().session.token as string;
    const sent = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/user_message',
      payload: { user_id: alice.user_id, code: 'reloaderror', info: '再読み込みしてください。' },
      headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
    });
    expect(sent.json()).toMatchObject({ error_code: 200, delivered: 1 });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]).toEqual({
      kind: 'maintenance',
      code: 'reloaderror',
      error_code: 9003,
      via: 'push',
      effects: [
        { type: 'stopSound' },
        { type: 'resetStream' },
        { type: 'stopPolling' },
        { type: 'showAlert', alert: 'reloadError', message: expect.any(String) },
        { type: 'stopModal' },
      ],
    });
    // It is not a channel event: the page's channels hear nothing of it.
    expect(events.filter((e) => e.type !== 'joined')).toEqual([]);
  });

  it('a button pressed while the connection is down is refused at once, never queued to reach the machine later', async () => {
    const user = await createTestUser(t, {}, { freeTc: 10_000 });
    const driver = new PlayDriver(t, clock, user);
    await driver.reserve(stationId).waitTurn().confirm().waitPlaying();
    const a = adapter(user);
    const sub = a.channel({ kind: 'user' }).subscribe();
    await until(a, 'open');
    // The transport drops (a network failure); the adapter reconnects by itself, a moment later.
    for (const socket of t.server.io.of('/').sockets.values()) socket.conn.close();
    await until(a, 'opening');
    const play = driver.play!.play_id;
    expect(await firstValueFrom(a.control({ playId: play, button: 'right', command: 'press' }))).toEqual({
      ok: false,
      error_code: CONTROL_OFFLINE_CODE,
      error_info: '通信が途切れています。つながり次第、もう一度ボタンを押してください。',
    });
    await until(a, 'open');
    await t.server.services().rooms.idle();
    // Nothing reached the machine: the claw still waits for button ①; a press now works.
    expect((await driver.current())!.machine).toMatchObject({ phase: 'ready', button: 'right' });
    expect(await firstValueFrom(a.control({ playId: play, button: 'right', command: 'press' }))).toMatchObject({
      ok: true,
    });
    await firstValueFrom(a.control({ playId: play, button: 'right', command: 'release' }));
    await driver.holdBack(100).waitResult().finish();
    sub.unsubscribe();
  }, 15_000);

  it('[R4.8-2] after an unexpected closure it reconnects by itself with backoff and joins its channels again', async () => {
    const a = adapter(null);
    const events = a.channel({ kind: 'station', stationId });
    const received = events.pipe(
      filter((e) => e.type === 'reserveChange'),
      take(1),
      toArray(),
    );
    const got = firstValueFrom(received);
    const sub = events.subscribe();
    await until(a, 'open');
    const states: RealtimeConnectionState[] = [];
    const watch = a.connection$.subscribe((s) => states.push(s));
    // The server drops the transport (as a network failure would); the client was not asked to leave.
    for (const socket of t.server.io.of('/').sockets.values()) socket.conn.close();
    await expect.poll(() => states.includes('opening')).toBe(true);
    await until(a, 'open');
    await expect
      .poll(() => t.server.io.of('/').adapter.rooms.get(`station:${stationId}`)?.size ?? 0, { timeout: 5000 })
      .toBeGreaterThanOrEqual(1);
    const user = await createTestUser(t, {}, { freeTc: 10_000 });
    await new PlayDriver(t, clock, user).reserve(stationId);
    expect(await got).toEqual([{ type: 'reserveChange', stationId }]);
    watch.unsubscribe();
    sub.unsubscribe();
    await stationOps(t.server).setStatus(stationId, 'maintenance');
    await stationOps(t.server).setStatus(stationId, 'open');
  }, 15_000);

  it('tells the server what the page shows of a station (the consoles’ spectator counts): the latest kind once per connection, again after a reconnection, withdrawn on unsubscribe', async () => {
    const a = adapter(null);
    const counts = async () =>
      (await t.server.services().realtime.spectators()).find((s) => s.station_id === stationId) ?? {
        station_id: stationId,
        hls: 0,
        rtc: 0,
        jpg: 0,
      };
    const channel = a.channel({ kind: 'station', stationId }).subscribe();
    let watching = a.watch({ stationId, kind: 'hls' }).subscribe();
    await expect.poll(counts).toMatchObject({ hls: 1, rtc: 0, jpg: 0 });
    // A move to another kind: one report replaces the other (no withdrawal in between is counted).
    watching.unsubscribe();
    watching = a.watch({ stationId, kind: 'rtc' }).subscribe();
    await expect.poll(counts).toMatchObject({ hls: 0, rtc: 1, jpg: 0 });
    // The connection drops: the server forgets it, and the page's report comes back with the new one.
    const states: RealtimeConnectionState[] = [];
    const watchStates = a.connection$.subscribe((s) => states.push(s));
    for (const socket of t.server.io.of('/').sockets.values()) socket.conn.close();
    await expect.poll(() => states.includes('opening')).toBe(true);
    await until(a, 'open');
    watchStates.unsubscribe();
    await expect.poll(counts, { timeout: 5_000 }).toMatchObject({ hls: 0, rtc: 1, jpg: 0 });
    watching.unsubscribe();
    await expect.poll(counts).toMatchObject({ hls: 0, rtc: 0, jpg: 0 });
    channel.unsubscribe();
  }, 15_000);
});
