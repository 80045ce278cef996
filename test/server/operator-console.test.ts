import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, type JoinAck, type ServerToClientEvents } from '../../src/contract';
import {
  OPERATOR_AUTH_HEADER,
  operatorAuditResponseSchema,
  operatorFloorResponseSchema,
  operatorKujiBoxesResponseSchema,
  operatorMessageResponseSchema,
  operatorNumbersResponseSchema,
  operatorServiceStateResponseSchema,
  operatorUserResponseSchema,
} from '../../src/contract/operator.schema';
import { MAINTENANCE_CODES } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { io } from 'socket.io-client';

/**
 * Issue 26: the console's calls (docs/operator-console.md) against the real server: the floor and
 * its actions, service messages and the emergency maintenance, suspending users, the numbers and
 * the kuji boxes. Sockets are real socket.io clients; time is the manual clock.
 */
const clock = new ManualServerClock(new Date('2026-11-26T14:00:00+09:00'));
const PASSWORD = 'correct horse battery 42';
let t: TestServer;
let admin = '';
let floorStaff = '';
let stations: number[] = [];
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock });
  const operators = t.server.services().operators;
  await operators.add('aoi.admin', '青井 葵', 'admin', PASSWORD);
  await operators.add('kenta.floor', '森田 健太', 'floor', PASSWORD);
  admin = (await call('login', { login: 'aoi.admin', password: PASSWORD }, null)).json.session.token as string;
  floorStaff = (await call('login', { login: 'kenta.floor', password: PASSWORD }, null)).json.session.token as string;
  const rows = await t.server.store().query<{ station_id: number }>(
    `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal'
          AND station_status = 'open' AND stock >= 5 AND play_price > 0 ORDER BY station_id LIMIT 3`,
  );
  stations = rows.map((r) => r.station_id);
}, 120_000);
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  // The server has seen every connection of the test close (a push counts the connections it reached).
  await vi.waitFor(() => expect(t.server.services().realtime.connectionCount()).toBe(0));
});
afterAll(async () => t?.close());

async function call(path: string, body: object, token: string | null) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
  });
  return { status: res.statusCode, json: res.json() };
}
const player = (fields: Record<string, unknown> = {}) => createTestUser(t, fields, { freeTc: 10_000 });
const balance = async (u: TestUser) => (await t.server.services().ledger.balance(u.user_id)).tc_all;
const floorOf = async (stationId: number) =>
  operatorFloorResponseSchema
    .parse((await call('floor', {}, floorStaff)).json)
    .stations.find((s) => s.station_id === stationId)!;
/** The next `event` the socket receives. */
function next<E extends keyof ServerToClientEvents>(s: TestSocket, event: E) {
  return new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) =>
    (s as unknown as { once: (e: string, f: (v: unknown) => void) => void }).once(event, resolve as never),
  );
}
const join = (s: TestSocket, channel: string) => new Promise<JoinAck>((resolve) => s.emit('join', channel, resolve));
const signedIn = (u: TestUser) => connectSocket(t.origin, u, open);
/** Everything `socket` receives of `event`, collected until the test reads it. */
function collect<E extends keyof ServerToClientEvents>(s: TestSocket, event: E) {
  const got: Parameters<ServerToClientEvents[E]>[0][] = [];
  (s as unknown as { on: (e: string, f: (v: unknown) => void) => void }).on(event, (v) => got.push(v as never));
  return got;
}
/** A socket.io round trip on `s`: everything the server sent before it has arrived. */
const settled = async (s: TestSocket) => {
  await join(s, CHANNELS.top);
};

describe('the operator console calls (issue 26)', () => {
  it("[R10-9] the floor shows each station's line, its play and viewers; a console joins the live floor and hears of each change", async () => {
    const stationId = stations[0]!;
    const [alice, bob] = [await player({ nickname: '春野 あかり' }), await player({ nickname: '夏目 そら' })];
    const console_ = await connectSocket(t.origin, { operator_token: floorStaff }, open);
    expect(await join(console_, CHANNELS.operatorFloor)).toEqual({ ok: true });
    const changed = next(console_, 'floor_change');
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    expect(await changed).toEqual({ station_id: stationId });
    await new PlayDriver(t, clock, bob).reserve(stationId);
    const seen = await floorOf(stationId);
    expect(seen).toMatchObject({
      station_status: 'open',
      paused: false,
      line: [
        { user_id: alice.user_id, nickname: '春野 あかり', place: 1, reserve_status: 'playWaiting' },
        { user_id: bob.user_id, nickname: '夏目 そら', place: 2, reserve_status: 'reserve' },
      ],
      play: { play_id: a.play!.play_id, user_id: alice.user_id, nickname: '春野 あかり', phase: 'playing' },
      still_url: `/api/stations/${stationId}/camera/front.jpg`,
    });
    // The still the floor names is the station's camera, made from the video its publisher sends.
    const cameras = await TestCameras.issue(t, [stationId]);
    try {
      await cameras.publish(stationId, 'front');
      await expect
        .poll(
          () =>
            t.server
              .services()
              .rtcFeed.status()
              .some((c) => c.stationId === stationId && c.camera === 'front' && c.source === 'whip'),
          { timeout: 10_000 },
        )
        .toBe(true);
      const still = await t.server.app.inject({ method: 'GET', url: seen.still_url });
      expect(still.headers['content-type']).toBe('image/jpeg');
    } finally {
      await cameras.stopAll();
    }

    // A player, a guest or a support-role console cannot join the floor.
    const guest = await connectSocket(t.origin, undefined, open);
    expect(await join(guest, CHANNELS.operatorFloor)).toMatchObject({ ok: false, error_code: 403 });
    const user = await signedIn(alice);
    expect(await join(user, CHANNELS.operatorFloor)).toMatchObject({ ok: false, error_code: 403 });
    await t.server.services().operators.add('yui.support', '佐藤 結衣', 'support', PASSWORD);
    const support = (await call('login', { login: 'yui.support', password: PASSWORD }, null)).json.session
      .token as string;
    const refused = io(t.origin, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { operator_token: support },
    }) as TestSocket;
    open.push(refused);
    await expect(
      new Promise<void>((resolve, reject) => {
        refused.once('connect', resolve);
        refused.once('connect_error', reject);
      }),
    ).rejects.toThrow();
    await call('end_play', { station_id: stationId, play_id: a.play!.play_id }, admin);
    await call('remove_from_line', { station_id: stationId, user_id: bob.user_id }, admin);
  });

  it('[R10-9] ending a play refunds it exactly once and tells the player; the next in line gets the turn; the audit log has before and after', async () => {
    const stationId = stations[0]!;
    const [alice, bob] = [await player(), await player()];
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    await new PlayDriver(t, clock, bob).reserve(stationId);
    const charged = await balance(alice);
    expect(charged).toBeLessThan(10_000);
    const socket = await signedIn(alice);
    expect(await join(socket, CHANNELS.user(alice.user_id))).toEqual({ ok: true });
    expect(await join(socket, CHANNELS.station(stationId))).toEqual({ ok: true });
    const told = next(socket, 'crane_reserve_cancel');
    const states = collect(socket, 'play_state');

    // Two operators end it at once: one refund, and the second is told the play is no longer there
    // (the next player's turn is left alone).
    const playId = a.play!.play_id;
    const answers = await Promise.all([
      call('end_play', { station_id: stationId, play_id: playId }, admin),
      call('end_play', { station_id: stationId, play_id: playId }, floorStaff),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 200)!.json.station.refunded_play_id).toBe(playId);
    expect(await balance(alice)).toBe(10_000);
    expect(await told).toEqual({ station_id: stationId, reason: 'operator' });
    await settled(socket);
    expect(states.some((s) => s.play_id === a.play!.play_id && s.result === 'refunded')).toBe(true);
    // The machine finishes the ended play's cycle and reports itself home; then the next turn goes out.
    await a.waitMachineHome(stationId);
    expect(await floorOf(stationId)).toMatchObject({
      station_status: 'open',
      line: [{ user_id: bob.user_id, reserve_status: 'playTransition' }],
      play: null,
    });
    const log = operatorAuditResponseSchema.parse((await call('audit', { limit: 5 }, admin)).json).list;
    const ended = log.find((e) => e.action === 'operator/end_play' && (e.after as { last_play?: unknown })?.last_play);
    expect(ended).toMatchObject({
      target: { station_id: stationId },
      before: { last_play: { play_id: a.play!.play_id, phase: 'playing', result: null } },
      after: { last_play: { play_id: a.play!.play_id, result: 'refunded' } },
    });
    expect(answers.find((r) => r.status === 409)!.json).toEqual({
      error_code: 409,
      error_info: 'このステーションでは、いまプレイしているお客様はいません。',
    });
    // Bob's offered turn is withdrawn by taking him out of the line.
    expect((await call('remove_from_line', { station_id: stationId, user_id: bob.user_id }, admin)).status).toBe(200);
  });

  it('[R10-9] a player taken out of the line is told, and the others move up; someone not in the line is 404', async () => {
    const stationId = stations[1]!;
    const [alice, bob, carol] = [await player(), await player(), await player()];
    await new PlayDriver(t, clock, alice).reserve(stationId).waitTurn().confirm().waitPlaying();
    await new PlayDriver(t, clock, bob).reserve(stationId);
    await new PlayDriver(t, clock, carol).reserve(stationId);
    const socket = await signedIn(bob);
    expect(await join(socket, CHANNELS.user(bob.user_id))).toEqual({ ok: true });
    const told = next(socket, 'crane_reserve_cancel');
    expect(await call('remove_from_line', { station_id: stationId, user_id: bob.user_id }, floorStaff)).toMatchObject({
      status: 200,
      json: { removed: true },
    });
    expect(await told).toEqual({ station_id: stationId, reason: 'operator' });
    expect((await floorOf(stationId)).line.map((l) => [l.user_id, l.place])).toEqual([
      [alice.user_id, 1],
      [carol.user_id, 2],
    ]);
    expect(await call('remove_from_line', { station_id: stationId, user_id: bob.user_id }, floorStaff)).toMatchObject({
      status: 404,
      json: { error_info: '予約が見つかりません。' },
    });
    await call('remove_from_line', { station_id: stationId, user_id: alice.user_id }, admin);
    await call('remove_from_line', { station_id: stationId, user_id: carol.user_id }, admin);
  });

  it('[R10-9] a paused station keeps its line but hands out no turn and refuses a continue; resumed, the next player gets the turn', async () => {
    const stationId = stations[2]!;
    const [alice, bob] = [await player(), await player()];
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(100).holdBack(100).waitResult();
    const b = new PlayDriver(t, clock, bob);
    await b.reserve(stationId);
    expect(await call('pause', { station_id: stationId, paused: true }, floorStaff)).toMatchObject({
      status: 200,
      json: { station: { station_id: stationId, paused: true } },
    });
    expect((await a.post('v2/play/continue', { play_id: a.play!.play_id })).json).toMatchObject({
      error_code: 409,
      error_info: 'このステーションは一時停止中です。しばらくお待ちください。',
    });
    await a.finish();
    await b.wait(5_000).poll();
    expect(b.record!.reserve_status).toBe('reserve');
    expect(await floorOf(stationId)).toMatchObject({ paused: true, play: null, line: [{ user_id: bob.user_id }] });
    await call('pause', { station_id: stationId, paused: false }, floorStaff);
    await b.poll();
    expect(b.record!.reserve_status).toBe('playTransition');
    await call('remove_from_line', { station_id: stationId, user_id: bob.user_id }, admin);
  });

  it('[R8-5] an emergency reaches every open client at once and stops every player call (9001) until it ends; [R4.1-2] status-3 users are not told and pass', async () => {
    const [alice, staff] = [await player(), await player({ status: 3 })];
    const guest = await connectSocket(t.origin, undefined, open);
    const aliceSocket = await signedIn(alice);
    const staffSocket = await signedIn(staff);
    const staffGot = collect(staffSocket, 'service');
    const toGuest = next(guest, 'service');
    const toAlice = next(aliceSocket, 'service');
    const sent = operatorMessageResponseSchema.parse(
      (await call('broadcast', { code: 'emergency', info: '機械の点検のため、15時まで停止します。' }, admin)).json,
    );
    expect(sent.delivered).toBe(2);
    const expected = { error_code: MAINTENANCE_CODES.emergency, error_info: '機械の点検のため、15時まで停止します。' };
    expect(await toGuest).toEqual(expected);
    expect(await toAlice).toEqual(expected);
    await settled(staffSocket);
    expect(staffGot).toEqual([]);
    // Every player call meets it, guests' too; a status-3 user, an operator and signing in pass.
    const d = new PlayDriver(t, clock, alice);
    expect(await d.post('user/tc')).toEqual({ status: 503, json: expected });
    const guestCall = await t.server.app.inject({ method: 'POST', url: '/api/contents/carousel', payload: {} });
    expect(guestCall.json()).toEqual(expected);
    expect((await new PlayDriver(t, clock, staff).post('user/tc')).json.error_code).toBe(200);
    expect(operatorServiceStateResponseSchema.parse((await call('service_state', {}, floorStaff)).json)).toMatchObject({
      emergency: { info: expected.error_info, by: 'aoi.admin' },
    });
    // Rewording it keeps one emergency.
    await call('broadcast', { code: 'emergency' }, admin);
    expect(
      await t.server.store().query('SELECT count(*)::int AS n FROM service_emergencies WHERE ended_at IS NULL'),
    ).toEqual([{ n: 1 }]);
    expect((await d.post('user/tc')).json.error_info).toBe(
      'ただいま緊急メンテナンスを行っています。ご迷惑をおかけして申し訳ございません。再開までしばらくお待ちください。',
    );
    expect((await call('emergency_end', {}, admin)).json).toMatchObject({ emergency: null });
    expect((await d.post('user/tc')).json.error_code).toBe(200);
  });

  it('[R8-6] [R4.6-2] reloaderror and cancellation reach one user, on every connection of theirs, and no one else', async () => {
    const [alice, bob] = [await player(), await player()];
    const first = await signedIn(alice);
    const second = await signedIn(alice);
    const other = await signedIn(bob);
    const bobGot = collect(other, 'service');
    const reloads = [next(first, 'service'), next(second, 'service')];
    expect(
      operatorMessageResponseSchema.parse(
        (await call('user_message', { user_id: alice.user_id, code: 'reloaderror' }, admin)).json,
      ).delivered,
    ).toBe(2);
    for (const got of await Promise.all(reloads))
      expect(got).toEqual({
        error_code: MAINTENANCE_CODES.reloaderror,
        error_info: '最新の情報を読み込むため、ページを再読み込みしてください。',
      });
    const cancelled = next(first, 'service');
    await call('user_message', { user_id: alice.user_id, code: 'cancellation', info: '再度お試しください。' }, admin);
    expect(await cancelled).toEqual({ error_code: MAINTENANCE_CODES.cancellation, error_info: '再度お試しください。' });
    await settled(other);
    expect(bobGot).toEqual([]);
    expect(await call('user_message', { user_id: 999_999, code: 'reloaderror' }, admin)).toMatchObject({
      status: 404,
      json: { error_info: 'ユーザーが見つかりません。' },
    });
    // Text is checked: control characters are refused in Japanese.
    expect(
      await call('user_message', { user_id: alice.user_id, code: 'reloaderror', info: 'a\u202eb' }, admin),
    ).toMatchObject({ status: 400, json: { error_info: expect.stringMatching(/お知らせ内容/) } });
  });

  it('[R8-5] a suspended user is told at once (9002) and disconnected; every call of theirs answers 9002 until restored; the audit log holds the status before and after', async () => {
    const alice = await player();
    const socket = await signedIn(alice);
    // Trying to slip out of the internal rooms changes nothing: only joinable channels can be left.
    await new Promise((resolve) => socket.emit('leave', `session:${alice.user_id}`, resolve));
    await new Promise((resolve) => socket.emit('leave', 'exempt:maintenance', resolve));
    const told = next(socket, 'service');
    const gone = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    const suspended = operatorUserResponseSchema.parse(
      (await call('user_status', { user_id: alice.user_id, suspended: true }, admin)).json,
    );
    expect(suspended.user).toMatchObject({
      user_id: alice.user_id,
      suspended: true,
      user_status: 2,
      tc_balance: 10_000,
    });
    expect(await told).toMatchObject({ error_code: MAINTENANCE_CODES.invaliduser });
    await gone;
    const d = new PlayDriver(t, clock, alice);
    expect(await d.post('user/tc')).toMatchObject({ status: 403, json: { error_code: MAINTENANCE_CODES.invaliduser } });
    // A new connection is refused too.
    await expect(signedIn(alice)).rejects.toThrow();
    const restored = operatorUserResponseSchema.parse(
      (await call('user_status', { user_id: alice.user_id, suspended: false }, admin)).json,
    );
    expect(restored.user).toMatchObject({ suspended: false, user_status: 1 });
    expect((await d.post('user/tc')).json.error_code).toBe(200);
    const log = operatorAuditResponseSchema.parse((await call('audit', { limit: 2 }, admin)).json).list;
    expect(log.map((e) => [e.action, e.before, e.after])).toEqual([
      ['operator/user_status', { status: 2 }, { status: 1 }],
      ['operator/user_status', { status: 1 }, { status: 2 }],
    ]);
  });

  it('[R10-9] the numbers per station per day: plays, wins, win rate, TC taken, refunds and their TC, assist payouts', async () => {
    const day = '2026-11-26';
    const answer = operatorNumbersResponseSchema.parse(
      (await call('numbers', { from: day, to: day }, floorStaff)).json,
    );
    const store = t.server.store();
    for (const stationId of stations) {
      const played = await store.query<{ result: string; price: number; currency: string; assist_level: number }>(
        'SELECT result, price, currency, assist_level FROM plays WHERE station_id = $1 AND result IS NOT NULL',
        [stationId],
      );
      const row = answer.rows.find((r) => r.station_id === stationId && r.day === day);
      const ran = played.filter((p) => p.result !== 'refunded');
      const wins = ran.filter((p) => p.result === 'win');
      expect(row, `station ${stationId}`).toMatchObject({
        plays: ran.length,
        wins: wins.length,
        win_rate: ran.length ? wins.length / ran.length : 0,
        tc_taken: ran.filter((p) => p.currency === 'tc').reduce((sum, p) => sum + p.price, 0),
        refunds: played.length - ran.length,
        refunded_tc: played.filter((p) => p.result === 'refunded').reduce((sum, p) => sum + p.price, 0),
        assist_payouts: wins.filter((p) => p.assist_level > 0).length,
      });
    }
    // The first station's two plays and the second's were ended by the operator (refunded); the third's played to a result.
    expect(answer.rows.find((r) => r.station_id === stations[0])).toMatchObject({ plays: 0, refunds: 2 });
    expect(answer.rows.find((r) => r.station_id === stations[1])).toMatchObject({ plays: 0, refunds: 1 });
    expect(answer.rows.find((r) => r.station_id === stations[2])).toMatchObject({ plays: 1 });
    // A day before any play has no rows; a reversed or too long range is refused in Japanese.
    expect(
      operatorNumbersResponseSchema.parse((await call('numbers', { from: '2026-11-25', to: '2026-11-25' }, admin)).json)
        .rows,
    ).toEqual([]);
    for (const range of [
      { from: '2026-11-27', to: '2026-11-26' },
      { from: '2026-01-01', to: '2026-11-26' },
      { from: '2026-02-30', to: '2026-03-01' },
    ])
      expect(await call('numbers', range, admin)).toMatchObject({ status: 400, json: { error_code: 400 } });
  });

  it('[R10-9] the kuji boxes with their stock per rank and their commitment; the seed only once a box ended', async () => {
    const boxes = operatorKujiBoxesResponseSchema.parse((await call('kuji_boxes', {}, floorStaff)).json).boxes;
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(box.prizes.length).toBeGreaterThan(0);
      if (box.box_status === 'onSale') expect(box.commitment).toMatch(/^[0-9a-f]{64}$/);
      if (box.box_status === 'onSale' || box.box_status === 'ready') expect(box.seed).toBeNull();
    }
    const onSale = boxes.find((b) => b.box_status === 'onSale')!;
    await call('kuji_box_status', { box_id: onSale.box_id, box_status: 'endOfSale' }, admin);
    const ended = operatorKujiBoxesResponseSchema
      .parse((await call('kuji_boxes', {}, admin)).json)
      .boxes.find((b) => b.box_id === onSale.box_id)!;
    expect(ended).toMatchObject({ box_status: 'endOfSale', commitment: onSale.commitment });
    expect(ended.seed).toMatch(/^[0-9a-f]{64}$/);
  });
});
