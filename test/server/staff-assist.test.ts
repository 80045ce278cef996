import { describe, expect, it } from 'vitest';
import {
  historyResponseSchema,
  playStateResponseSchema,
  settingsHistoryResponseSchema,
  type PlayState,
} from '../../src/contract';
import { operatorFloorResponseSchema, operatorStationAnswerSchema } from '../../src/contract/operator.schema';
import { PLAY_TIMINGS, restoreRoom, roomPlayView, STAFF_ASSIST_HOLD_MS } from '../../src/domain';
import { LedgerPlayLedger } from '../../server/play/rooms/ledger-play-ledger';
import { SqlPlayStore } from '../../server/play/rooms/sql-play-store';
import { ReserveGate } from '../../server/play/reserve-gate';
import { ManualServerClock } from '../support/manual-server-clock';
import { setUpOperatorServer } from '../support/operator-server';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import type { TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { post as postTo } from './user-helpers';

/**
 * [R11-9] Staff assist through the real server: the station's number of misses is a setting
 * (published); after that many misses in a row in one turn the player asks; the turn is held while
 * the console answers (at most five minutes); the play log and the settings history show it.
 */
const clock = new ManualServerClock(new Date('2026-11-29T15:00:00+09:00'));
let t: TestServer;
let stationId = 0;
const { operator } = setUpOperatorServer({
  clock,
  token: 'operator-token-for-tests-0123456789',
  started: async (server) => {
    t = server;
    stationId = (await playableStation(t)).station_id;
  },
});
const post = (path: string, body: object) => postTo(t, path, body);
const floorCard = async () =>
  operatorFloorResponseSchema
    .parse((await operator('floor', {})).json)
    .stations.find((s) => s.station_id === stationId)!;
const playOf = (answer: { json: unknown }): PlayState => playStateResponseSchema.parse(answer.json).play!;
const japanese = expect.stringMatching(/[ぁ-んァ-ン一-龥]/);

/** One play that misses (a short move: the claw drops by the chute, far from the prizes). */
const miss = (d: PlayDriver) => d.holdRight(100).holdBack(100).waitResult();

describe('[R11-9] staff assist through the server', () => {
  it('[R11-9] after the station’s misses in a row the player asks; the turn is held past the continue window until the console marks it done; the count starts again; the play log and the public settings history show it', async () => {
    // The operator sets two misses at this station: a published setting.
    const set = await operator('station_settings', { station_id: stationId, assist_misses: 2, reason: 'assist' });
    expect(operatorStationAnswerSchema.parse(set.json).station.settings_pending).toBeUndefined();
    const published = settingsHistoryResponseSchema.parse(
      (await post('v2/play/settings_history', { station_id: stationId })).json,
    ).settings_history;
    expect(published.list[0]).toMatchObject({
      reason: 'assist',
      changes: [{ field: 'assistMisses', before: 10, after: 2 }],
    });

    const alice = await createTestUser(t, {}, { freeTc: 10_000 });
    const a = new PlayDriver(t, clock, alice);
    await miss(a.reserve(stationId).waitTurn().confirm().waitPlaying());
    expect(a.play).toMatchObject({ result: 'miss', staff_assist: { needed: 2, misses: 1, state: 'counting' } });
    // One miss is not enough.
    const early = await a.post('v2/play/assist', { play_id: a.play!.play_id });
    expect(early).toMatchObject({ status: 409, json: { error_info: japanese } });
    await miss(a.continuePlay().waitPlaying());
    expect(a.play).toMatchObject({ result: 'miss', staff_assist: { misses: 2, state: 'available' } });
    const playId = a.play!.play_id;
    // Someone else may not ask for Alice's play.
    const bob = await createTestUser(t, {}, { freeTc: 10_000 });
    expect((await new PlayDriver(t, clock, bob).post('v2/play/assist', { play_id: playId })).status).toBe(403);

    const asked = await a.post('v2/play/assist', { play_id: playId });
    expect(asked.status).toBe(200);
    expect(playOf(asked).staff_assist).toMatchObject({ state: 'asked', ms_left: STAFF_ASSIST_HOLD_MS });
    expect((await a.post('v2/play/assist', { play_id: playId })).status).toBe(409);
    // The console's floor shows it, with the player and the time left.
    expect((await floorCard()).assist).toMatchObject({
      play_id: playId,
      user_id: alice.user_id,
      misses: 2,
      ms_left: STAFF_ASSIST_HOLD_MS,
    });
    // Held: the continue window passes and the turn is still Alice's; a continue waits.
    await a.wait(PLAY_TIMINGS.continueMs + 5_000);
    expect(await a.current()).toMatchObject({ phase: 'result', staff_assist: { state: 'asked' } });
    expect((await a.post('v2/play/continue', { play_id: playId })).json.error_info).toEqual(japanese);

    // Two operators mark it done at once: one answer is taken, the other finds nothing to answer.
    const both = await Promise.all(
      [1, 2].map(() => operator('assist_answer', { station_id: stationId, play_id: playId, answer: 'done' })),
    );
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await a.current()).toMatchObject({
      phase: 'result',
      window_ms_left: PLAY_TIMINGS.continueMs,
      staff_assist: { state: 'counting', misses: 0, outcome: 'done' },
    });
    expect((await floorCard()).assist).toBeNull();
    // A second answer finds nothing to answer.
    const again = await operator('assist_answer', { station_id: stationId, play_id: playId, answer: 'declined' });
    expect(again).toMatchObject({ status: 409, json: { error_info: japanese } });

    // She plays on after the assist; then leaves.
    await miss(a.continuePlay().waitPlaying());
    expect(a.play?.staff_assist).toMatchObject({ misses: 1, state: 'counting' });
    await a.finish();
    const log = historyResponseSchema.parse((await a.post('v2/play/history', {})).json).history.list;
    expect(log.find((p) => p.play_id === playId)?.staff_assist).toEqual({
      status: 'done',
      misses: 2,
      asked_at: expect.any(String),
      ended_at: expect.any(String),
    });
    expect(log.filter((p) => p.play_id !== playId).every((p) => p.staff_assist === null)).toBe(true);
    const history = settingsHistoryResponseSchema.parse(
      (await post('v2/play/settings_history', { station_id: stationId })).json,
    ).settings_history;
    expect(history.assists?.[0]).toMatchObject({ outcome: 'done', misses: 2 });
    // No player is named there.
    expect(Object.keys(history.assists![0]!).sort()).toEqual(['asked_at', 'ended_at', 'misses', 'outcome']);

    // Leaving reset the count: her next turn starts from none.
    await a.waitMachineHome(stationId);
    await miss(a.reserve(stationId).waitTurn().confirm().waitPlaying());
    expect(a.play?.staff_assist).toMatchObject({ misses: 1, state: 'counting' });
    await a.finish();
  });

  it('[R11-9] nobody answers: after five minutes the hold lapses, the continue window runs again and the turn ends after it', async () => {
    const carol = await createTestUser(t, {}, { freeTc: 10_000 });
    const c = new PlayDriver(t, clock, carol);
    await c.waitMachineHome(stationId);
    await miss(c.reserve(stationId).waitTurn().confirm().waitPlaying());
    await miss(c.continuePlay().waitPlaying());
    const playId = c.play!.play_id;
    // Asked five times at once (a double tap, two tabs): one is taken, the others are told it waits.
    const asks = await Promise.all(Array.from({ length: 5 }, () => c.post('v2/play/assist', { play_id: playId })));
    expect(asks.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const [asked] = await t.server
      .store()
      .query<{ n: number }>("SELECT count(*)::int AS n FROM staff_assists WHERE play_id = $1 AND status = 'asked'", [
        playId,
      ]);
    expect(asked!.n).toBe(1);
    // What a restarted room would take up from the store: the hold and the misses counted.
    const s = t.server.services();
    const store = new SqlPlayStore(
      t.server.store(),
      clock,
      new LedgerPlayLedger(s.ledger, s.dailyFree),
      new ReserveGate(s.vipGate, s.ledger, s.dailyFree),
    );
    const [snapshot] = await store.loadRooms([stationId]);
    expect(snapshot!.play).toMatchObject({ playId, runMisses: 2, assistAskedAt: clock.now().getTime() });
    const restored = restoreRoom(snapshot!, clock.now().getTime()).state;
    expect(roomPlayView(restored, clock.now().getTime())?.staff_assist).toMatchObject({
      state: 'asked',
      misses: 2,
      ms_left: STAFF_ASSIST_HOLD_MS,
    });
    await c.wait(STAFF_ASSIST_HOLD_MS - 1_000);
    expect(await c.current()).toMatchObject({ staff_assist: { state: 'asked', ms_left: 1_000 } });
    await c.wait(1_000);
    expect(await c.current()).toMatchObject({
      phase: 'result',
      staff_assist: { state: 'counting', outcome: 'lapsed' },
    });
    await c.wait(PLAY_TIMINGS.continueMs);
    expect(await c.current()).toBeNull();
    const log = historyResponseSchema.parse((await c.post('v2/play/history', {})).json).history.list;
    expect(log.find((p) => p.play_id === playId)?.staff_assist).toMatchObject({ status: 'lapsed', misses: 2 });
  });

  it('[R11-9] bad input: a clear Japanese error and nothing changed', async () => {
    for (const body of [
      { station_id: stationId, play_id: 1, answer: 'maybe' },
      { station_id: stationId, answer: 'done' },
      { station_id: stationId, play_id: 'x', answer: 'done' },
      { station_id: stationId, play_id: 1, answer: 'done', extra: 1 },
    ]) {
      expect(await operator('assist_answer', body), JSON.stringify(body)).toMatchObject({
        status: 400,
        json: { error_info: japanese },
      });
    }
    expect(await operator('assist_answer', { station_id: stationId, play_id: 999_999, answer: 'done' })).toMatchObject({
      status: 409,
      json: { error_info: japanese },
    });
    for (const misses of [-1, 101, 2.5])
      expect(
        (await operator('station_settings', { station_id: stationId, assist_misses: misses, reason: 'assist' })).status,
      ).toBe(400);
    const alice = await createTestUser(t);
    const d = new PlayDriver(t, clock, alice);
    expect(await d.post('v2/play/assist', { play_id: 'x' })).toMatchObject({
      status: 400,
      json: { error_info: japanese },
    });
    expect((await d.post('v2/play/assist', { play_id: 123 })).status).toBe(403);
  });
});
