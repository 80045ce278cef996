import { describe, expect, it } from 'vitest';
import { CRANE } from '../../../src/domain/play/crane-machine';
import {
  PLAY_TIMINGS,
  restoreRoom,
  roomPlayView,
  STAFF_ASSIST_DEFAULT_MISSES,
  STAFF_ASSIST_HOLD_MS,
  transition,
  type Result,
  type RoomEffect,
  type RoomEvent,
  type RoomWrite,
  type StationRoomState,
} from '../../../src/domain';
import { aRoom, aRun, aStation, HOLDER, PLAY_ID, T0, TURNS, WAITING } from './station-room.fixtures';

/*
 * [R11-9] Staff assist in the station room: after the station's number of misses in a row in one
 * turn, the player may ask after a miss; the turn is held (the continue window stops) until the
 * staff answer, at most five minutes; the count starts again after any answer and with every turn.
 */
const EARLY = T0 + 1_000;
const writesOf = (effects: readonly RoomEffect[]): RoomWrite[] =>
  effects.flatMap((e) => (e.type === 'commit' ? e.writes : []));
const ask: RoomEvent = { type: 'askAssist', userId: HOLDER.userId, playId: PLAY_ID };
const done: RoomEvent = { type: 'answerAssist', playId: PLAY_ID, answer: 'done', operator: 'floor-1' };

/** A result after a miss, the holder with `misses` in a row in this turn. */
const afterMisses = (misses: number, over: Partial<Result> = {}, station = aStation()): StationRoomState =>
  aRoom({ ...TURNS.result, holder: { ...HOLDER, runMisses: misses }, ...over }, { line: [WAITING], station });

describe('[R11-9] staff assist in the station room', () => {
  it('[R11-9] too few misses in a row: the player may not ask yet, and sees how many count', () => {
    const room = afterMisses(STAFF_ASSIST_DEFAULT_MISSES - 1);
    expect(roomPlayView(room, EARLY)?.staff_assist).toEqual({
      needed: STAFF_ASSIST_DEFAULT_MISSES,
      misses: STAFF_ASSIST_DEFAULT_MISSES - 1,
      state: 'counting',
      ms_left: null,
      outcome: null,
    });
    const step = transition(room, ask, EARLY);
    expect(step.answer).toEqual({ kind: 'refused', refusal: 'assistNotAvailable' });
    expect(step.effects).toEqual([]);
    // After a win, whatever the count, and from someone else: refused too.
    expect(transition(afterMisses(10, { result: 'win' }), ask, EARLY).answer).toMatchObject({
      refusal: 'assistNotAvailable',
    });
    expect(transition(afterMisses(10), { ...ask, userId: 99 }, EARLY).answer).toMatchObject({ refusal: 'notYourPlay' });
  });

  it('[R11-9] asked after enough misses: the turn is held five minutes (the continue window stops), the console is told; a continue waits for the answer', () => {
    const room = afterMisses(10);
    expect(roomPlayView(room, EARLY)?.staff_assist?.state).toBe('available');
    const step = transition(room, ask, EARLY);
    expect(step.answer).toEqual({ kind: 'play' });
    expect(writesOf(step.effects)).toEqual([
      {
        kind: 'assistAsked',
        playId: PLAY_ID,
        userId: HOLDER.userId,
        reserveId: HOLDER.reserveId,
        misses: 10,
        askedAt: EARLY,
        deadline: EARLY + STAFF_ASSIST_HOLD_MS,
      },
    ]);
    expect(step.effects.some((e) => e.type === 'floorChanged')).toBe(true);
    const held = step.state;
    expect(roomPlayView(held, EARLY + 60_000)?.staff_assist).toMatchObject({
      state: 'asked',
      ms_left: STAFF_ASSIST_HOLD_MS - 60_000,
    });
    // Past the continue window the turn is still the player's.
    const later = transition(held, { type: 'clock' }, EARLY + PLAY_TIMINGS.continueMs + 1);
    expect(later.state.turn.phase).toBe('result');
    expect(
      transition(held, { type: 'continue', userId: HOLDER.userId, playId: PLAY_ID }, EARLY + 2_000).answer,
    ).toEqual({ kind: 'refused', refusal: 'assistPending' });
    expect(transition(held, ask, EARLY + 2_000).answer).toEqual({ kind: 'refused', refusal: 'assistPending' });
  });

  it('[R11-9] the staff mark it done (or decline it): the count starts again and the continue window runs anew; a second answer finds none', () => {
    const held = transition(afterMisses(12), ask, EARLY).state;
    const at = EARLY + 90_000;
    for (const answer of ['done', 'declined'] as const) {
      const step = transition(held, { ...done, answer }, at);
      expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: null });
      const [ended, ...rest] = writesOf(step.effects);
      expect(ended).toEqual({
        kind: 'assistEnded',
        playId: PLAY_ID,
        outcome: answer,
        operator: 'floor-1',
        at,
        continueDeadline: at + PLAY_TIMINGS.continueMs,
      });
      // Done: the prize nearest the chute now lies just outside it (the next play is laid from
      // this field); declined: the field is as it was.
      if (answer === 'done') {
        const before = held.field!.prizes;
        const after = step.state.field!.prizes;
        expect(rest).toEqual([{ kind: 'field', field: step.state.field }]);
        const near = (ps: readonly { x: number; z: number }[]) => Math.min(...ps.map((p) => Math.hypot(p.x, p.z)));
        expect(near(after)).toBeLessThan(near(before));
        expect(after.filter((p, i) => p.x !== before[i]!.x || p.z !== before[i]!.z)).toHaveLength(1);
        // Still clear of the others, and outside the chute.
        for (const p of after)
          for (const q of after)
            if (p !== q) expect(Math.hypot(p.x - q.x, p.z - q.z)).toBeGreaterThan(p.radius + q.radius);
        expect(after.every((p) => p.x > CRANE.chute.x1 && p.z > CRANE.chute.z1)).toBe(true);
      } else {
        expect(rest).toEqual([]);
        expect(step.state.field).toBe(held.field);
      }
      const turn = step.state.turn as Result;
      expect(turn.holder.runMisses).toBe(0);
      expect(turn.deadline).toBe(at + PLAY_TIMINGS.continueMs);
      expect(roomPlayView(step.state, at)?.staff_assist).toMatchObject({
        state: 'counting',
        misses: 0,
        outcome: answer,
      });
      expect(transition(step.state, done, at + 1).answer).toEqual({ kind: 'refused', refusal: 'noAssist' });
      // The player may continue now.
      expect(
        transition(step.state, { type: 'continue', userId: HOLDER.userId, playId: PLAY_ID }, at + 1).answer,
      ).toEqual({ kind: 'play' });
    }
  });

  it('[R11-9] nobody answers: at five minutes the hold lapses and the continue window runs again; the turn ends only after it', () => {
    const held = transition(afterMisses(10), ask, EARLY).state;
    expect(transition(held, { type: 'clock' }, EARLY + STAFF_ASSIST_HOLD_MS - 1).effects).toEqual([]);
    const lapsed = transition(held, { type: 'clock' }, EARLY + STAFF_ASSIST_HOLD_MS);
    expect(writesOf(lapsed.effects)).toEqual([
      expect.objectContaining({ kind: 'assistEnded', outcome: 'lapsed', operator: null }),
    ]);
    expect(lapsed.state.turn.phase).toBe('result');
    const end = EARLY + STAFF_ASSIST_HOLD_MS + PLAY_TIMINGS.continueMs;
    const over = transition(lapsed.state, { type: 'clock' }, end);
    expect(over.state.turn.phase).toBe('turnOffered');
    expect(writesOf(over.effects).map((w) => w.kind)).toContain('endReservations');
  });

  it('[R11-9] the number is a station setting: 0 turns it off (nothing shown, nothing asked); a change during the run waits like any setting', () => {
    const off = afterMisses(30, {}, aStation({ assistMisses: 0 }));
    expect(roomPlayView(off, EARLY)?.staff_assist).toBeNull();
    expect(transition(off, ask, EARLY).answer).toEqual({ kind: 'refused', refusal: 'assistNotAvailable' });
    const three = afterMisses(3, {}, aStation({ assistMisses: 3 }));
    expect(roomPlayView(three, EARLY)?.staff_assist?.state).toBe('available');
    // Changed during the run: pending, then published with the run's end.
    const change = transition(three, { type: 'changeSettings', patch: { assistMisses: 5 }, reason: 'assist' }, EARLY);
    expect(change.state.pendingSettings?.patch).toEqual({ assistMisses: 5 });
    expect(change.state.station.assistMisses).toBe(3);
    const ended = transition(change.state, { type: 'finish', userId: HOLDER.userId, playId: PLAY_ID }, EARLY + 1);
    expect(ended.state.station.assistMisses).toBe(5);
    expect(writesOf(ended.effects)).toEqual(
      expect.arrayContaining([
        { kind: 'assistMisses', misses: 5 },
        expect.objectContaining({
          kind: 'settingsChanged',
          changes: [{ field: 'assistMisses', before: 3, after: 5 }],
          reason: 'assist',
        }),
      ]),
    );
  });

  it('[R11-9] leaving resets the count: the next turn starts from none', () => {
    // A new turn's holder carries no misses (the line hands a fresh holder the turn).
    const ended = transition(afterMisses(9), { type: 'finish', userId: HOLDER.userId, playId: PLAY_ID }, EARLY);
    expect(ended.state.turn.phase).toBe('turnOffered');
    const next = ended.state.turn as Extract<StationRoomState['turn'], { phase: 'turnOffered' }>;
    expect(next.holder.runMisses ?? 0).toBe(0);
  });

  it('[R11-9] a restart keeps the hold: the restored room is still held until the stored end, with the misses counted', () => {
    const { state } = restoreRoom(
      {
        station: aStation(),
        field: null,
        reservations: [
          { reserveId: HOLDER.reserveId, userId: HOLDER.userId, settingId: 7, status: 'playWaiting', deadline: null },
        ],
        play: {
          ...aRun(),
          reserveId: HOLDER.reserveId,
          userId: HOLDER.userId,
          phase: 'result',
          seed: 1,
          layout: [],
          machine: null,
          phaseDeadline: EARLY + STAFF_ASSIST_HOLD_MS,
          graceDeadline: null,
          result: 'miss',
          runMisses: 11,
          assistAskedAt: EARLY,
        },
      },
      EARLY + 10_000,
    );
    expect(roomPlayView(state, EARLY + 10_000)?.staff_assist).toMatchObject({
      state: 'asked',
      misses: 11,
      ms_left: STAFF_ASSIST_HOLD_MS - 10_000,
    });
  });
});
