import { describe, expect, it } from 'vitest';
import {
  mergePending,
  restoreRoom,
  settingsChanges,
  transition,
  type RoomEffect,
  type RoomEvent,
  type RoomWrite,
  type StationRoomState,
} from '../../../src/domain';
import { aRoom, aRun, aStation, HOLDER, PLAY_ID, READY, T0, TURNS, WAITING } from './station-room.fixtures';

/**
 * [R11-6] An operator's change to a station's settings while a player is in a run of plays waits
 * for the run to end; every change in force is published as the station's next settings version,
 * with what changed (before → after), why and by whom; each play names the version it ran with.
 */
const EARLY = T0 + 1000;
const writesOf = (effects: readonly RoomEffect[]): RoomWrite[] =>
  effects.flatMap((e) => (e.type === 'commit' ? e.writes : []));
const published = (effects: readonly RoomEffect[]) =>
  writesOf(effects).filter((w): w is Extract<RoomWrite, { kind: 'settingsChanged' }> => w.kind === 'settingsChanged');

const lower: RoomEvent = {
  type: 'changeSettings',
  patch: { armStrength: 0.3 },
  reason: 'adjustment',
  operator: 'floor-1',
};

describe('[R11-6] station settings: frozen during a run, published when in force', () => {
  it('[R11-6] between runs a change is in force at once and published as the next version, before → after, with its reason and operator', () => {
    const room = aRoom(TURNS.idle, { line: [WAITING], station: { ...aRoom(TURNS.idle).station, settingsVersion: 4 } });
    const step = transition(room, { ...lower, patch: { armStrength: 0.3, playPrice: 120 } }, EARLY);
    expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: null });
    expect(step.state.station).toMatchObject({ armStrength: 0.3, playPrice: 120, settingsVersion: 5 });
    expect(step.state.pendingSettings ?? null).toBeNull();
    expect(published(step.effects)).toEqual([
      {
        kind: 'settingsChanged',
        version: 5,
        changes: [
          { field: 'armStrength', before: 0.5, after: 0.3 },
          { field: 'playPrice', before: 100, after: 120 },
        ],
        reason: 'adjustment',
        operator: 'floor-1',
        requestedAt: EARLY,
        appliedAt: EARLY,
      },
    ]);
    // Then the next in line has the turn, in the same transaction.
    const kinds = writesOf(step.effects).map((w) => w.kind);
    expect(kinds.indexOf('settingsChanged')).toBeLessThan(kinds.indexOf('offerTurn'));
    expect(step.effects.filter((e) => e.type === 'commit')).toHaveLength(1);
  });

  it('[R11-6] during a run it waits: the plays of the run, continues included, keep the old settings; the end of the run puts it in force before the next turn', () => {
    const during = transition(aRoom(TURNS.result), lower, EARLY);
    expect(during.answer).toEqual({ kind: 'operator', refundedPlayId: null, pending: true });
    expect(during.state.station.armStrength).toBe(0.5);
    expect(during.state.pendingSettings).toMatchObject({ patch: { armStrength: 0.3 }, operator: 'floor-1' });
    expect(writesOf(during.effects)).toEqual([{ kind: 'pendingSettings', pending: during.state.pendingSettings }]);
    expect(published(during.effects)).toEqual([]);

    // The player continues: the next play is charged at the old strength and names the old version.
    const again = transition(during.state, { type: 'continue', userId: HOLDER.userId, playId: PLAY_ID }, EARLY + 10);
    const start = again.effects.find((e) => e.type === 'startPlay');
    expect(start).toMatchObject({ baseArmStrength: 0.5, settingsVersion: 0 });
    expect(again.state.pendingSettings).not.toBeNull();

    // The run ends (the player finishes at a result): the change is in force, then the next turn.
    const atResult: StationRoomState = {
      ...during.state,
      turn: { ...TURNS.result, play: aRun({ playId: PLAY_ID + 1 }) },
    };
    const ended = transition(atResult, { type: 'finish', userId: HOLDER.userId, playId: PLAY_ID + 1 }, EARLY + 20);
    expect(ended.state.station).toMatchObject({ armStrength: 0.3, settingsVersion: 1 });
    expect(ended.state.pendingSettings).toBeNull();
    expect(published(ended.effects)).toEqual([
      expect.objectContaining({
        version: 1,
        changes: [{ field: 'armStrength', before: 0.5, after: 0.3 }],
        requestedAt: EARLY,
        appliedAt: EARLY + 20,
      }),
    ]);
    expect(ended.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
    const kinds = writesOf(ended.effects).map((w) => w.kind);
    expect(kinds.indexOf('pendingSettings')).toBeLessThan(kinds.indexOf('offerTurn'));
  });

  it('[R11-6] several changes during one run merge into one version; a change that changes nothing publishes nothing', () => {
    let room = transition(aRoom(TURNS.playing), lower, EARLY).state;
    room = transition(
      room,
      { type: 'changeSettings', patch: { playPrice: 150 }, reason: 'campaign', operator: 'floor-2' },
      EARLY + 5,
    ).state;
    expect(room.pendingSettings).toMatchObject({
      patch: { armStrength: 0.3, playPrice: 150 },
      reason: 'campaign',
      operator: 'floor-2',
      requestedAt: EARLY,
    });
    const ended = transition(room, { type: 'endPlay', playId: PLAY_ID }, EARLY + 10);
    expect(published(ended.effects)).toEqual([
      expect.objectContaining({
        version: 1,
        changes: [
          { field: 'armStrength', before: 0.5, after: 0.3 },
          { field: 'playPrice', before: 100, after: 150 },
        ],
        reason: 'campaign',
      }),
    ]);

    const same = transition(aRoom(TURNS.idle), { ...lower, patch: { armStrength: 0.5 } }, EARLY);
    expect(published(same.effects)).toEqual([]);
    expect(same.state.station.settingsVersion ?? 0).toBe(0);
  });

  it('[R11-6] a new prize asked during a run waits too; at the end of the run the prize changes as it always did (the line ends with "change") and the change is published', () => {
    const prize: RoomEvent = {
      type: 'changePrize',
      prize: { prizeName: 'Cat plush', prizeShape: 'plush', stock: 4 },
      operator: 'floor-1',
    };
    const during = transition(aRoom(TURNS.result), prize, EARLY);
    expect(during.state.station.prizeName).toBe('Bear plush');
    expect(during.state.turn.phase).toBe('result');
    const ended = transition(during.state, { type: 'finish', userId: HOLDER.userId, playId: PLAY_ID }, EARLY + 10);
    expect(ended.state).toMatchObject({
      field: null,
      line: [],
      turn: { phase: 'idle' },
      station: { status: 'open', prizeName: 'Cat plush', stock: 4, settingsVersion: 1 },
    });
    expect(published(ended.effects)).toEqual([
      expect.objectContaining({
        changes: [{ field: 'prizeName', before: 'Bear plush', after: 'Cat plush' }],
        reason: 'prize_change',
      }),
    ]);
    expect(ended.effects).toContainEqual({ type: 'reserveCancelled', userId: WAITING.userId, reason: 'prize_change' });
  });

  it('[R11-6] the emergency stop is the exception: it stops the run at once, and the change waiting for the run is in force with it', () => {
    const during = transition(aRoom(TURNS.playing), lower, EARLY);
    const stopped = transition(during.state, { type: 'emergencyStop' }, EARLY + 10);
    expect(stopped.state.turn.phase).toBe('idle');
    expect(stopped.state.station.armStrength).toBe(0.3);
    expect(published(stopped.effects)).toHaveLength(1);
  });

  it('[R11-6] a change that was waiting when the server stopped is kept: a restarted room with no run puts it in force when it resumes', () => {
    const pending = {
      patch: { armStrength: 0.3 },
      stock: null,
      reason: 'repair' as const,
      operator: 'floor-1',
      requestedAt: EARLY,
    };
    const { state } = restoreRoom(
      { station: aStation(), field: null, reservations: [], play: null, pendingSettings: pending },
      EARLY + 50,
      READY,
    );
    expect(state.pendingSettings).toEqual(pending);
    const resumed = transition(state, { type: 'resumed' }, EARLY + 60);
    expect(resumed.state.station).toMatchObject({ armStrength: 0.3, settingsVersion: 1 });
    expect(published(resumed.effects)).toEqual([expect.objectContaining({ reason: 'repair', appliedAt: EARLY + 60 })]);
  });

  it('[R11-6] the pure rules: only real changes are listed, in a fixed order; a later change wins field by field', () => {
    const station = { armStrength: 0.5, playPrice: 100, prizeName: 'Bear', prizeShape: 'plush' as const };
    expect(settingsChanges(station, { prizeName: 'Cat', armStrength: 0.5, playPrice: 90 })).toEqual([
      { field: 'playPrice', before: 100, after: 90 },
      { field: 'prizeName', before: 'Bear', after: 'Cat' },
    ]);
    const first = {
      patch: { armStrength: 0.2 },
      stock: null,
      reason: 'adjustment' as const,
      operator: 'a',
      requestedAt: 1,
    };
    const second = {
      patch: { armStrength: 0.4, playPrice: 80 },
      stock: 3,
      reason: 'repair' as const,
      operator: 'b',
      requestedAt: 2,
    };
    expect(mergePending(first, second)).toEqual({
      patch: { armStrength: 0.4, playPrice: 80 },
      stock: 3,
      reason: 'repair',
      operator: 'b',
      requestedAt: 1,
    });
  });
});
