import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  getReserveResponseSchema,
  historyResponseSchema,
  itemInfoResponseSchema,
  userDataResponseSchema,
  gaugeResponseSchema,
  type PlayState,
  type PushMessage,
} from '../../src/contract';
import { assistGauge, CONTROL_COMMANDS_PER_SECOND, PLAY_TIMINGS } from '../../src/domain';
import { CRANE, replayPlay, type CranePrize } from '../../src/domain/play/crane-machine';
import type { PlayEvents } from '../../server/play/rooms/play-ports';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { stationOps } from '../support/station-ops';
import { createTestUser, type TestUser } from '../support/users';

const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let seed = 1;
let stationId = 0;
let practiceId = 0;
let price = 0;

/** What the loop told the world, in order. */
const events: { kind: keyof PlayEvents; args: unknown[] }[] = [];
const recorder = new Proxy({} as PlayEvents, {
  get:
    (_target, kind: keyof PlayEvents) =>
    (...args: unknown[]) =>
      events.push({ kind, args }),
});
const pushesTo = (userId: number): PushMessage[] =>
  events.filter((e) => e.kind === 'push' && e.args[0] === userId).map((e) => e.args[1] as PushMessage);

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, playSeeds: () => seed, agent: true });
  t.server.services().setPlayEvents(recorder);
  const store = t.server.store();
  const row = await playableStation(t);
  stationId = row.station_id;
  price = row.play_price;
  const [practice] = await store.query<{ station_id: number }>(
    `SELECT station_id FROM stations WHERE designated_type = 'practice' AND station_status = 'open' LIMIT 1`,
  );
  practiceId = practice!.station_id;
});
afterAll(async () => t?.close());
beforeEach(() => {
  events.length = 0;
});

const player = (tc = 10_000) => createTestUser(t, {}, { freeTc: tc });
const drive = (u: TestUser) => new PlayDriver(t, clock, u);
const balance = async (u: TestUser) => (await t.server.services().ledger.balance(u.user_id)).tc_all;
const layoutOf = async (id: number) =>
  (
    await t.server
      .store()
      .query<{ layout: CranePrize[] }>('SELECT layout FROM station_machines WHERE station_id = $1', [id])
  )[0]?.layout ?? [];
/** Hold times that bring the claw from the chute over a prize. */
const aimAt = (p: { x: number; z: number }) => ({
  right: ((p.x - CRANE.home.x) / CRANE.moveUnitsPerSecond) * 1000,
  back: ((p.z - CRANE.home.z) / CRANE.moveUnitsPerSecond) * 1000,
});
/** Ends whatever the station has going, so each test starts on an idle machine. */
async function idle(driver: PlayDriver) {
  const play = await driver.current();
  if (play?.phase === 'result') await driver.finish();
}

describe('the station rooms over the real server, on a manual clock (docs/play.md)', () => {
  it('[R4.3-1] A reserves and has the turn; B waits at place 2 and is told the turn is near; A confirms, is charged once and plays; B gets the turn after A', async () => {
    const [alice, bob] = [await player(), await player()];
    const a = drive(alice);
    const b = drive(bob);
    await a.reserve(stationId);
    expect(a.record).toMatchObject({
      reserve_status: 'playTransition',
      reserve_num: 1,
      reserve_time: PLAY_TIMINGS.confirmMs / 1000,
    });
    expect(pushesTo(alice.user_id)).toContainEqual(
      expect.objectContaining({ kind: 'turnNow', station_id: stationId, title: 'あなたの番です' }),
    );
    await b.reserve(stationId);
    expect(b.record).toMatchObject({ reserve_status: 'reserve', reserve_num: 2 });
    expect(pushesTo(bob.user_id)).toEqual([
      expect.objectContaining({ kind: 'turnNear', reserve_num: 2, title: 'まもなくあなたの番です' }),
    ]);

    const before = await balance(alice);
    await a.confirm();
    expect(a.play).toMatchObject({ phase: 'resetting', currency: 'tc', price, window_ms_left: PLAY_TIMINGS.resetMs });
    expect(await balance(alice)).toBe(before - price);
    await a.poll();
    expect(a.record).toMatchObject({ reserve_status: 'playWaiting', playing: 1 });

    await a.waitPlaying();
    expect(a.play).toMatchObject({
      phase: 'playing',
      machine: { phase: 'ready', button: 'right', button_ms_left: PLAY_TIMINGS.buttonLimitMs },
    });
    await a.holdRight(800).holdBack(600).waitResult();
    expect(a.play!.phase).toBe('result');
    expect(['win', 'miss']).toContain(a.play!.result);
    expect(await balance(alice)).toBe(before - price); // charged once, at the start

    // Nobody continues: the window closes, A's turn ends and B's begins.
    await a.wait(PLAY_TIMINGS.continueMs);
    expect(await a.current()).toBeNull();
    await b.poll();
    expect(b.record).toMatchObject({ reserve_status: 'playTransition', reserve_num: 1 });
    expect(pushesTo(bob.user_id).map((p) => p.kind)).toEqual(['turnNear', 'turnNow']);
    await b.confirm().waitPlaying().holdRight(300).holdBack(300).waitResult().finish();
  });

  it("every play is in the player's log with its price, arm strength, assist level, seed, field and inputs, and replays to its result", async () => {
    seed = 424242;
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(1200).holdBack(900).waitResult();
    const history = historyResponseSchema.parse((await a.post('v2/play/history')).json).history;
    const entry = history.list[0]!;
    expect(entry).toMatchObject({
      play_id: a.play!.play_id,
      station_id: stationId,
      currency: 'tc',
      price,
      seed: 424242,
      result: a.play!.result,
      assist_level: 0,
    });
    expect(entry.inputs.map((i) => `${i.button}:${i.command}`)).toEqual([
      'right:press',
      'right:release',
      'back:press',
      'back:release',
    ]);
    const replayed = replayPlay(entry.layout, entry.arm_strength, entry.seed, entry.inputs, entry.drop_at_tick);
    expect(replayed.outcome!.result).toBe(entry.result);
    // Another player sees none of it.
    const other = drive(await player());
    expect(historyResponseSchema.parse((await other.post('v2/play/history')).json).history.list).toEqual([]);
    await a.finish();
  });

  it("[R4.5-1][R10-5] a well-aimed claw at full strength wins: the prize joins the player's prize box (unread, pushed), the stock drops, the winner is announced, and the gauge empties", async () => {
    await stationOps(t.server).setArmStrength(stationId, 1);
    const [stock] = await t.server
      .store()
      .query<{ stock: number; prize_name: string }>('SELECT stock, prize_name FROM stations WHERE station_id = $1', [
        stationId,
      ]);
    const alice = await player();
    await t.server
      .store()
      .query('INSERT INTO assist_gauges (user_id, station_id, misses, updated_at) VALUES ($1, $2, 3, now())', [
        alice.user_id,
        stationId,
      ]);
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const target = (await layoutOf(stationId))[0]!;
    const aim = aimAt(target);
    seed = 7;
    await a.holdRight(aim.right).holdBack(aim.back).waitResult();
    expect(a.play).toMatchObject({ result: 'win', won_prize_name: stock!.prize_name });
    const [after] = await t.server
      .store()
      .query<{ stock: number }>('SELECT stock FROM stations WHERE station_id = $1', [stationId]);
    expect(after!.stock).toBe(stock!.stock - 1);
    const items = await t.server
      .store()
      .query('SELECT product_name FROM won_prizes WHERE user_id = $1', [alice.user_id]);
    expect(items).toEqual([{ product_name: stock!.prize_name }]);
    // The prize waits in the prize box [R4.5-1]: not requested, kept 30 days [R10-5], marked unread,
    // and the winner is told at once.
    const box = itemInfoResponseSchema.parse((await a.post('user/item')).json).item_info.list;
    expect(box[0]).toMatchObject({
      product_name: stock!.prize_name,
      delivery_status: 'not_requested',
      prize_kind: 'crane',
    });
    expect(Date.parse(box[0]!.keep_until!) - Date.parse(box[0]!.won_at)).toBe(30 * 24 * 3600_000);
    expect(box[0]!.img_url).toMatch(/\/api\/images\//);
    expect(userDataResponseSchema.parse((await a.post('user/user_data')).json).user_data.unread.prize).toBe(1);
    expect(pushesTo(alice.user_id)).toContainEqual(
      expect.objectContaining({
        kind: 'notice',
        title: '景品を獲得しました',
        message: expect.stringContaining(stock!.prize_name),
      }),
    );
    expect(events.find((e) => e.kind === 'winner')?.args[0]).toMatchObject({
      station_id: stationId,
      prize_name: stock!.prize_name,
      message: expect.stringContaining('ゲット'),
    });
    expect(
      gaugeResponseSchema.parse((await a.post('v2/play/gauge', { station_id: stationId })).json).gauge,
    ).toMatchObject({ misses: 0, level: 0 });
    // The field is refilled: the won prize is replaced while stock remains.
    expect((await layoutOf(stationId)).some((p) => p.id === target.id)).toBe(false);
    await a.finish();
    await stationOps(t.server).setArmStrength(stationId, 0.5);
  });

  it('misses fill the assist gauge by published steps and the next play runs with the raised arm strength', async () => {
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const base = a.play!.arm_strength;
    // Aim at the empty back-right corner: a sure miss.
    await a.holdRight(4000).holdBack(4000).waitResult();
    expect(a.play!.result).toBe('miss');
    await a.continuePlay().waitPlaying().holdRight(4000).holdBack(4000).waitResult();
    const gauge = gaugeResponseSchema.parse((await a.post('v2/play/gauge', { station_id: stationId })).json).gauge;
    expect(gauge).toMatchObject({ misses: 2, level: 1, strength_bonus: assistGauge(2).strengthBonus });
    await a.continuePlay();
    expect(a.play).toMatchObject({
      assist_level: 1,
      arm_strength: Math.min(1, Math.round((base + assistGauge(2).strengthBonus) * 100) / 100),
    });
    await a.waitPlaying().holdRight(4000).holdBack(4000).waitResult().finish();
  });

  it("the confirm window lapses: the turn passes to the next in line and the late player's reservation is cancelled", async () => {
    const [alice, bob] = [await player(), await player()];
    const a = drive(alice);
    const b = drive(bob);
    await a.reserve(stationId);
    await b.reserve(stationId);
    await a.wait(PLAY_TIMINGS.confirmMs - 1000);
    await a.poll();
    expect(a.record).toMatchObject({ reserve_status: 'playTransition', reserve_time: 1 });
    await a.wait(1000);
    expect(events.find((e) => e.kind === 'reserveCancelled')?.args).toEqual([alice.user_id, stationId, 'timeout']);
    await b.poll();
    expect(b.record).toMatchObject({ reserve_status: 'playTransition', reserve_num: 1 });
    const late = await a.post('v2/play/confirm', { station_id: stationId });
    expect(late).toMatchObject({ status: 409, json: { error_code: 409, error_info: 'まだ順番ではありません。' } });
    await b.confirm().waitPlaying().holdRight(100).holdBack(100).waitResult().finish();
  });

  it('a player who spent their TC meanwhile is refused at confirm with 402 in Japanese, keeps the turn, and nothing is charged', async () => {
    const alice = await player(price);
    const a = drive(alice);
    await a.reserve(stationId);
    await t.server.services().ledger.debit(alice.user_id, { amount: price, reason: 'admin', idempotencyKey: 'spent' });
    const refused = await a.post('v2/play/confirm', { station_id: stationId });
    expect(refused).toMatchObject({
      status: 402,
      json: { error_code: 402, error_info: expect.stringMatching(/^TCが不足しています/) },
    });
    await a.poll();
    expect(a.record).toMatchObject({ reserve_status: 'playTransition' });
    expect(await t.server.store().query('SELECT 1 FROM plays WHERE user_id = $1', [alice.user_id])).toEqual([]);
    await t.server
      .services()
      .ledger.credit(alice.user_id, 'free', { amount: price, reason: 'admin', idempotencyKey: 'topup' });
    await a.confirm().waitPlaying().holdRight(100).holdBack(100).waitResult().finish();
  });

  it('controls: only the current player (403), each button at its moment (409), at most 25 commands a second (429)', async () => {
    const [alice, mallory] = [await player(), await player()];
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const m = drive(mallory);
    const foreign = await m.post('v2/play/control', { play_id: a.play!.play_id, button: 'right', command: 'press' });
    expect(foreign).toMatchObject({
      status: 403,
      json: { error_code: 403, error_info: 'このプレイは操作できません。' },
    });
    const early = await a.post('v2/play/control', { play_id: a.play!.play_id, button: 'back', command: 'press' });
    expect(early).toMatchObject({ status: 409, json: { error_info: 'このボタンはいま操作できません。' } });
    const answers = [];
    for (let i = 0; i < CONTROL_COMMANDS_PER_SECOND + 2; i += 1)
      answers.push(await a.post('v2/play/control', { play_id: a.play!.play_id, button: 'back', command: 'release' }));
    // The refused early press counted too: 1 + 27 commands within one second, 25 allowed.
    expect(answers.filter((x) => x.status === 429)).toHaveLength(1 + answers.length - CONTROL_COMMANDS_PER_SECOND);
    expect(answers.at(-1)!.json).toMatchObject({
      error_code: 429,
      error_info: '操作が速すぎます。少し間をあけてください。',
    });
    await a.wait(1000).holdRight(100).holdBack(100).waitResult().finish();
  });

  it('a player who drops out mid-play has 150 s to return to the same play; the button time limits wait too', async () => {
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().control('right', 'press').wait(500);
    const loop = stationOps(t.server);
    await loop.away(alice.user_id);
    // The room lets go of the held button; the machine's report of where it stopped comes back.
    await t.settle();
    const away = loop.playOn(stationId)!;
    expect(away).toMatchObject({
      phase: 'playing',
      grace_ms_left: PLAY_TIMINGS.graceMs,
      machine: { phase: 'waitBack' },
    });
    const x = away.machine.x;
    await a.wait(PLAY_TIMINGS.graceMs - 1000);
    expect(loop.playOn(stationId)).toMatchObject({
      phase: 'playing',
      grace_ms_left: 1000,
      machine: { phase: 'waitBack', x },
    });
    // Back: the same play, where it was.
    const back = (await a.current())!;
    expect(back).toMatchObject({ play_id: away.play_id, grace_ms_left: null, machine: { phase: 'waitBack', x } });
    await a.holdBack(300).waitResult().finish();
  });

  it('nobody returns within the grace window: the claw drops by itself and the result is recorded', async () => {
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(700);
    await stationOps(t.server).away(alice.user_id);
    await t.server.services().rooms.idle();
    await a.wait(PLAY_TIMINGS.graceMs - 1000);
    expect(
      (
        await t.server
          .store()
          .query<{ result: string | null }>('SELECT result FROM plays WHERE user_id = $1', [alice.user_id])
      )[0]!.result,
    ).toBeNull();
    await a.wait(1000 + CRANE.dropMs + CRANE.closeMs + CRANE.liftMs + 5000);
    const [play] = await t.server
      .store()
      .query<{ result: string | null; drop_at_tick: number | null; phase: string }>(
        'SELECT result, drop_at_tick, phase FROM plays WHERE user_id = $1',
        [alice.user_id],
      );
    expect(play).toMatchObject({
      phase: 'result',
      result: expect.stringMatching(/^(win|miss)$/),
      drop_at_tick: expect.any(Number),
    });
    await a.finish();
  });

  it('a fault mid-play refunds that play exactly once, sets the station to malfunction and cancels the line', async () => {
    const [alice, bob] = [await player(), await player()];
    const a = drive(alice);
    const b = drive(bob);
    await a.reserve(stationId).waitTurn();
    await b.reserve(stationId);
    const before = await balance(alice);
    await a.confirm().waitPlaying().control('right', 'press');
    expect(await balance(alice)).toBe(before - price);
    const loop = stationOps(t.server);
    const fault = await loop.fault(stationId);
    expect(fault.refunded_play_id).toBe(a.play!.play_id);
    expect(await balance(alice)).toBe(before);
    expect((await loop.fault(stationId)).refunded_play_id).toBeNull();
    expect(await balance(alice)).toBe(before);
    const refunds = await t.server
      .store()
      .query('SELECT delta FROM tc_ledger WHERE user_id = $1 AND reason = $2', [alice.user_id, 'refund']);
    expect(refunds).toEqual([{ delta: price }]);
    const [play] = await t.server
      .store()
      .query<{ result: string }>('SELECT result FROM plays WHERE play_id = $1', [a.play!.play_id]);
    expect(play!.result).toBe('refunded');
    // Both the player and the line behind are told (the spec's cancel with the maintenance alert).
    expect(events.filter((e) => e.kind === 'reserveCancelled').map((e) => e.args)).toEqual([
      [alice.user_id, stationId, 'maintenance'],
      [bob.user_id, stationId, 'maintenance'],
    ]);
    expect(events).toContainEqual({ kind: 'stationStatus', args: [stationId, 'malfunction'] });
    const record = await b.post('v2/play/get_reserve', { station_id: stationId });
    expect(record.json).toMatchObject({ error_code: 531 });
    await loop.setStatus(stationId, 'open');
    expect(
      getReserveResponseSchema.parse((await b.post('v2/play/get_reserve', { station_id: stationId })).json).reserve_info
        .reserve_status,
    ).toBeNull();
  });

  it('practice stations play without a charge and give no prize', async () => {
    await stationOps(t.server).setArmStrength(practiceId, 1);
    const alice = await player(0);
    const a = drive(alice);
    await a.reserve(practiceId).waitTurn().confirm();
    expect(a.play).toMatchObject({ currency: 'free', price: 0 });
    await a.waitPlaying();
    const target = (await layoutOf(practiceId))[0]!;
    const aim = aimAt(target);
    seed = 7;
    await a.holdRight(aim.right).holdBack(aim.back).waitResult();
    expect(a.play).toMatchObject({ won_prize_name: null });
    expect(await t.server.store().query('SELECT 1 FROM won_prizes WHERE user_id = $1', [alice.user_id])).toEqual([]);
    expect(await balance(alice)).toBe(0);
    await a.finish();
  });

  it('a paid play in progress cannot be cancelled away (409); after the result the player leaves with finish', async () => {
    const alice = await player();
    const a = drive(alice);
    await a.reserve(stationId).waitTurn().confirm();
    const setting = a.record!.station_setting_id;
    const cancel = await a.post('v2/play/reserve_cancel', {
      shop_id: 1,
      reserve_cancel: { station_setting_id: setting },
    });
    expect(cancel).toMatchObject({ status: 409, json: { error_info: 'プレイ中のため、この操作はできません。' } });
    await a.waitPlaying().holdRight(100).holdBack(100).waitResult();
    const result: PlayState = a.play!;
    await a.finish();
    expect(await a.current()).toBeNull();
    expect(result.phase).toBe('result');
    await idle(a);
  });
});
