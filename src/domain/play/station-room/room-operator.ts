import { isMaintenanceStatus } from '../../reservation/reservation.entity';
import { advance, stoppedOn, endIfSoldOut, endLine } from './room-line';
import { stopPlay } from './room-play';
import {
  assistMissesOf,
  changesPrize,
  mergePending,
  settingsChanges,
  type PendingSettings,
  type SettingsPatch,
} from '../station-settings.rule';
import { holderOf, inRun, playIdOf } from './room-view';
import { refused, type Stepped } from './room-step';
import type { OperatorEvent, PrizeChange, RoomEffect, RoomWrite, StationRoomState } from './room.types';

/**
 * The operator's events (docs/operator-console.md): a station's status, stock (a restock, a stray
 * prize given away), arm strength and prize, ending a play or a place, pausing. Part of the station room's `transition`.
 */
export function operate(state: StationRoomState, event: OperatorEvent, now: number, effects: RoomEffect[]): Stepped {
  const turn = state.turn;
  const isHolder = (userId: number): boolean => holderOf(turn)?.userId === userId;
  switch (event.type) {
    case 'setStatus': {
      const { state: after, refundedPlayId } = setStatus(state, event.status, now, effects);
      return { state: after, answer: { kind: 'operator', refundedPlayId } };
    }
    case 'restock':
    case 'prizeOut': {
      const stock = event.type === 'restock' ? event.stock : Math.max(0, state.station.stock - 1);
      let after: StationRoomState = { ...state, station: { ...state.station, stock } };
      effects.push({ type: 'commit', writes: [{ kind: 'stock', stock }] });
      after = stock === 0 ? endIfSoldOut(after, effects) : advance(after, now, effects);
      return { state: after, answer: { kind: 'operator', refundedPlayId: null } };
    }
    case 'changeSettings':
    case 'setArmStrength':
    case 'changePrize': {
      const patch: SettingsPatch =
        event.type === 'setArmStrength'
          ? { armStrength: event.armStrength }
          : event.type === 'changeSettings'
            ? definedOnly(event.patch)
            : definedOnly({
                prizeName: event.prize.prizeName,
                prizeShape: event.prize.prizeShape,
                armStrength: event.prize.armStrength,
              });
      const asked: PendingSettings = {
        patch,
        stock: event.type === 'changePrize' ? event.prize.stock : null,
        reason: event.reason ?? (event.type === 'changePrize' ? 'prize_change' : 'adjustment'),
        operator: event.operator ?? null,
        requestedAt: now,
      };
      if (inRun(turn)) {
        // A player is in a run of plays: the change waits for it to end [R11-6].
        const pending = mergePending(state.pendingSettings ?? null, asked);
        effects.push({ type: 'commit', writes: [{ kind: 'pendingSettings', pending }] }, { type: 'floorChanged' });
        return {
          state: { ...state, pendingSettings: pending },
          answer: { kind: 'operator', refundedPlayId: null, pending: true },
        };
      }
      const applied = applySettings(
        { ...state, pendingSettings: mergePending(state.pendingSettings ?? null, asked) },
        now,
        effects,
      );
      return { state: applied.state, answer: { kind: 'operator', refundedPlayId: applied.refundedPlayId } };
    }
    case 'endPlay': {
      if (playIdOf(turn) !== event.playId) return { state, answer: refused('noPlay') };
      return endHolder(state, now, effects);
    }
    case 'removeFromLine': {
      if (isHolder(event.userId)) return endHolder(state, now, effects);
      const waiting = state.line.find((w) => w.userId === event.userId);
      if (!waiting) return { state, answer: refused('reservationNotFound') };
      effects.push(
        {
          type: 'commit',
          writes: [{ kind: 'endReservations', reserveIds: [waiting.reserveId], status: 'cancel', reason: 'operator' }],
        },
        { type: 'reserveCancelled', userId: waiting.userId, reason: 'operator' },
      );
      const after = advance({ ...state, line: state.line.filter((w) => w !== waiting) }, now, effects);
      return { state: after, answer: { kind: 'operator', refundedPlayId: null } };
    }
    case 'pause': {
      if (state.station.paused === event.paused) return { state, answer: { kind: 'operator', refundedPlayId: null } };
      effects.push({ type: 'commit', writes: [{ kind: 'paused', paused: event.paused }] });
      const after: StationRoomState = { ...state, station: { ...state.station, paused: event.paused } };
      // Resumed: the head of the line gets the turn the pause held back.
      return {
        state: event.paused ? after : advance(after, now, effects),
        answer: { kind: 'operator', refundedPlayId: null },
      };
    }
  }
}

const definedOnly = <T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

/**
 * Puts the station's waiting change in force (between runs: at once, or when the run that held it
 * ended, transition.ts) [R11-6]. A new prize goes through the 'change' status as it always did (the
 * line ends, the field is laid again) [R4.3-3]; the arm strength and the price just change. What
 * really changed is published as the next settings version, with its reason and operator.
 */
export function applySettings(
  state: StationRoomState,
  now: number,
  effects: RoomEffect[],
): { state: StationRoomState; refundedPlayId: number | null } {
  const pending = state.pendingSettings ?? null;
  if (!pending) return { state, refundedPlayId: null };
  const { patch } = pending;
  const changes = settingsChanges(state.station, patch);
  const cleared: StationRoomState = { ...state, pendingSettings: null };
  const writes: RoomWrite[] = [{ kind: 'pendingSettings', pending: null }];
  const published = (station: StationRoomState['station']): StationRoomState['station'] => {
    if (changes.length === 0) return station;
    const version = (station.settingsVersion ?? 0) + 1;
    effects.push({
      type: 'commit',
      writes: [
        {
          kind: 'settingsChanged',
          version,
          changes,
          reason: pending.reason,
          operator: pending.operator,
          requestedAt: pending.requestedAt,
          appliedAt: now,
        },
      ],
    });
    return { ...station, settingsVersion: version };
  };
  effects.push({ type: 'commit', writes }, { type: 'floorChanged' });
  if (pending.stock !== null || changesPrize(patch)) {
    // 'change' ends the play (refunded when unfinished) and the line [R4.3-3]; then the new prize, then open.
    const stopped = setStatus(cleared, 'change', now, effects);
    const prize: PrizeChange = {
      prizeName: patch.prizeName ?? state.station.prizeName,
      prizeShape: patch.prizeShape ?? state.station.prizeShape,
      stock: pending.stock ?? state.station.stock,
      armStrength: patch.armStrength,
    };
    effects.push({ type: 'commit', writes: [{ kind: 'prize', prize }] });
    if (patch.playPrice !== undefined)
      effects.push({ type: 'commit', writes: [{ kind: 'playPrice', price: patch.playPrice }] });
    if (patch.assistMisses !== undefined)
      effects.push({ type: 'commit', writes: [{ kind: 'assistMisses', misses: patch.assistMisses }] });
    const changed: StationRoomState = {
      ...stopped.state,
      field: null,
      station: published({
        ...stopped.state.station,
        prizeName: prize.prizeName,
        prizeShape: prize.prizeShape,
        stock: prize.stock,
        armStrength: prize.armStrength ?? stopped.state.station.armStrength,
        playPrice: patch.playPrice ?? stopped.state.station.playPrice,
        ...(patch.assistMisses !== undefined ? { assistMisses: patch.assistMisses } : {}),
      }),
    };
    const opened = setStatus(changed, 'open', now, effects);
    return { state: opened.state, refundedPlayId: stopped.refundedPlayId };
  }
  if (patch.armStrength !== undefined && patch.armStrength !== state.station.armStrength)
    writes.push({ kind: 'armStrength', armStrength: patch.armStrength });
  if (patch.playPrice !== undefined && patch.playPrice !== state.station.playPrice)
    writes.push({ kind: 'playPrice', price: patch.playPrice });
  if (patch.assistMisses !== undefined && patch.assistMisses !== assistMissesOf(state.station))
    writes.push({ kind: 'assistMisses', misses: patch.assistMisses });
  const station = published({
    ...state.station,
    armStrength: patch.armStrength ?? state.station.armStrength,
    playPrice: patch.playPrice ?? state.station.playPrice,
    ...(patch.assistMisses !== undefined ? { assistMisses: patch.assistMisses } : {}),
  });
  return { state: advance({ ...cleared, station }, now, effects), refundedPlayId: null };
}

/**
 * The operator ends the turn on the machine: a play under way stops (refunded exactly once when
 * unfinished), an offered turn is withdrawn, a continue being charged is refunded when it lands;
 * the holder's place ends ('operator') and they are told; the line moves on. The status stays.
 */
function endHolder(state: StationRoomState, now: number, effects: RoomEffect[]): Stepped {
  const turn = state.turn;
  if (turn.phase === 'idle') return { state, answer: refused('noPlay') };
  // A start being charged: the play is refunded as soon as its write lands (playStarted, aborted).
  if (turn.phase === 'starting') {
    if (turn.aborted) return { state, answer: refused('noPlay') };
    return {
      state: { ...state, turn: { ...turn, aborted: true } },
      answer: { kind: 'operator', refundedPlayId: null },
    };
  }
  let refundedPlayId: number | null = null;
  if (turn.phase !== 'turnOffered')
    refundedPlayId = stopPlay(state.station, turn.holder, turn.play, turn.phase === 'result' ? turn : null, effects);
  effects.push(
    {
      type: 'commit',
      writes: [{ kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'operator' }],
    },
    { type: 'reserveCancelled', userId: turn.holder.userId, reason: 'operator' },
  );
  const after = advance({ ...state, turn: { phase: 'idle' }, machine: stoppedOn(state.machine, turn) }, now, effects);
  return { state: after, answer: { kind: 'operator', refundedPlayId } };
}

/**
 * The operator sets the station's status. Maintenance statuses and 'change' stop the play on the
 * machine (refunded exactly once when unfinished) and end every place ('cancel', or 'change' for a
 * prize change) [R4.3-3, R4.3-4]; 'open' hands the turn to the head of the line again.
 */
function setStatus(
  state: StationRoomState,
  status: StationRoomState['station']['status'],
  now: number,
  effects: RoomEffect[],
): { state: StationRoomState; refundedPlayId: number | null } {
  let after: StationRoomState = { ...state, station: { ...state.station, status } };
  effects.push({ type: 'commit', writes: [{ kind: 'stationStatus', status }] });
  let refundedPlayId: number | null = null;
  if (isMaintenanceStatus(status) || status === 'change') {
    const turn = state.turn;
    const closing = status === 'change' ? ('change' as const) : ('cancel' as const);
    const reason = status === 'change' ? ('prize_change' as const) : ('maintenance' as const);
    if (turn.phase === 'resetting' || turn.phase === 'playing' || turn.phase === 'away' || turn.phase === 'result') {
      refundedPlayId = stopPlay(state.station, turn.holder, turn.play, turn.phase === 'result' ? turn : null, effects);
    }
    after = endLine(after, closing, reason, effects, true);
    after = {
      ...after,
      turn: turn.phase === 'starting' ? { ...turn, aborted: true } : { phase: 'idle' },
      machine: stoppedOn(after.machine, turn),
    };
  }
  effects.push({ type: 'stationStatus', status });
  if (status === 'open') after = advance(after, now, effects);
  return { state: after, refundedPlayId };
}
