import { isMaintenanceStatus } from '../../reservation/reservation.entity';
import { isTurnNear, PLAY_TIMINGS } from '../play-loop.rule';
import { holderOf } from './room-view';
import type {
  EndReason,
  MachineLink,
  MachineReport,
  RoomEffect,
  RoomRefusal,
  RoomStation,
  StationRoomState,
  Turn,
  Waiting,
} from './room.types';

/**
 * Whether the station's machine may take a turn now (R11-2): only when its agent is connected, no
 * fault and no emergency stop holds it, and its last report says the claw is home (idle) with the
 * chute sensor clear.
 */
export function machineReady(machine: MachineLink): boolean {
  const r = machine.report;
  return (
    machine.connected &&
    (machine.endedStart ?? null) === null &&
    machine.fault === null &&
    !machine.emergencyStopped &&
    r !== null &&
    homeAndClear(r)
  );
}

/** The machine's report of a claw home (idle), its chute sensor clear and nothing stopped: it can start a play. */
export const homeAndClear = (r: MachineReport): boolean => r.phase === 'idle' && r.sensor === 'clear' && !r.stopped;

/**
 * The machine after the room stopped the play of `turn`: a start sent and not yet answered may still
 * be taken, so the machine is not ready until that start's answer (MachineLink.endedStart).
 */
export function stoppedOn(machine: MachineLink, turn: Turn): MachineLink {
  // Over a connection that is gone, no answer will come: the machine's next report says all.
  return machine.connected && turn.phase === 'resetting' && !turn.play.driven.startAcked
    ? { ...machine, endedStart: turn.play.playId }
    : machine;
}

/** Whether the station hands out turns now: open, not paused, and a prize left (practice stations never run out). */
export function stationPlayable(station: RoomStation): boolean {
  return station.status === 'open' && !station.paused && (station.stock > 0 || station.designatedType === 'practice');
}

/**
 * Why a new place or a new play at this station is refused, or null: maintenance (531), a prize
 * change, or no prize left. A place is refused when the stock is out even at practice stations (a
 * practice station with no stock is taken out of the catalogue), a play only at the others.
 */
export function stationRefusal(station: RoomStation, forPlay: boolean): RoomRefusal | null {
  if (isMaintenanceStatus(station.status)) return forPlay ? 'prizeChanging' : 'stationMaintenance';
  if (station.status !== 'open') return 'prizeChanging';
  if (station.stock <= 0 && (!forPlay || station.designatedType !== 'practice')) return 'soldOut';
  return null;
}

/** The place of each waiting player: 1 is next; the holder of the turn is place 1 and the line follows. */
export function placeInLine(state: StationRoomState, index: number): number {
  return index + (holderOf(state.turn) ? 2 : 1);
}

/**
 * After a step: hands the turn to the head of the line when nobody holds it and the station takes
 * plays (a confirm window from now, the player told "あなたの番です"), then tells every player whose
 * place became near (once per reservation).
 */
export function advance(state: StationRoomState, now: number, effects: RoomEffect[]): StationRoomState {
  let next = state;
  const head = state.line[0];
  // A change waiting for the last run to end is put in force first (transition.ts), then the turn goes on [R11-6].
  const settingsWait = (state.pendingSettings ?? null) !== null;
  if (
    state.turn.phase === 'idle' &&
    !settingsWait &&
    head &&
    stationPlayable(state.station) &&
    machineReady(state.machine)
  ) {
    const deadline = now + PLAY_TIMINGS.confirmMs;
    next = {
      ...state,
      line: state.line.slice(1),
      turn: {
        phase: 'turnOffered',
        holder: { reserveId: head.reserveId, userId: head.userId, settingId: head.settingId, present: true },
        deadline,
      },
    };
    effects.push(
      { type: 'commit', writes: [{ kind: 'offerTurn', reserveId: head.reserveId, deadline }] },
      { type: 'turnNow', userId: head.userId },
    );
  }
  return notifyNear(next, effects);
}

function notifyNear(state: StationRoomState, effects: RoomEffect[]): StationRoomState {
  let changed = false;
  const line = state.line.map((w, i): Waiting => {
    const place = placeInLine(state, i);
    if (w.nearNotified || !isTurnNear(place)) return w;
    changed = true;
    effects.push({ type: 'turnNear', userId: w.userId, place });
    return { ...w, nearNotified: true };
  });
  return changed ? { ...state, line } : state;
}

/**
 * Ends the places of the whole line (and of the holder when `withHolder`), telling each player:
 * maintenance ('cancel'), a prize change or a sold-out station ('change').
 */
export function endLine(
  state: StationRoomState,
  status: 'cancel' | 'change',
  reason: EndReason,
  effects: RoomEffect[],
  withHolder: boolean,
): StationRoomState {
  const holder = withHolder ? holderOf(state.turn) : null;
  const ended = [...(holder ? [{ reserveId: holder.reserveId, userId: holder.userId }] : []), ...state.line];
  if (ended.length === 0) return state;
  effects.push({
    type: 'commit',
    writes: [{ kind: 'endReservations', reserveIds: ended.map((e) => e.reserveId), status, reason }],
  });
  for (const e of ended) effects.push({ type: 'reserveCancelled', userId: e.userId, reason });
  return { ...state, line: [] };
}

/**
 * What tells a line apart for the people watching it: who waits, who holds the turn and whether
 * their play is charged (the catalogue's "playing" flag). A step that changes it pushes `lineChanged`.
 */
export function lineSignature(state: StationRoomState): string {
  const turn = state.turn;
  const holder =
    turn.phase === 'idle'
      ? '-'
      : `${turn.holder.reserveId}${turn.phase === 'turnOffered' || turn.phase === 'starting' ? '?' : '!'}`;
  return `${holder}|${state.line.map((w) => w.reserveId).join(',')}`;
}

/** A station whose last prize is gone: nobody behind can play it; each place ends with 'change'. */
export function endIfSoldOut(state: StationRoomState, effects: RoomEffect[]): StationRoomState {
  if (state.station.stock > 0 || state.station.designatedType === 'practice') return state;
  // A play under way finishes; a turn only offered ends with the line.
  const offered = state.turn.phase === 'turnOffered';
  const after = endLine(state, 'change', 'prize_change', effects, offered);
  return offered ? { ...after, turn: { phase: 'idle' } } : after;
}
