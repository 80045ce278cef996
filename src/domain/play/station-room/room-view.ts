import { machineView } from '../crane-machine';
import { MACHINE_TIMINGS } from '../play-loop.rule';
import type { PlayResult, PlayView } from '../play.entity';
import { mayAskAssist, type StaffAssistView } from '../staff-assist.rule';
import { assistMissesOf } from '../station-settings.rule';
import type { Holder, MachineLink, PlayRun, RoomStation, StationRoomState, Turn } from './room.types';

/**
 * The link's fault while a restarted room waits for its agent to name the play under way: the play
 * is taken back when the report names it, and refunded once when it does not.
 */
export const REATTACHING = 'reattaching';

/**
 * How long after its reset window a play's start may wait for the machine to take it: longer while
 * a restarted room waits for its agent to dial back.
 */
export const startBound = (machine: MachineLink): number =>
  machine.fault === REATTACHING ? MACHINE_TIMINGS.reattachMs : MACHINE_TIMINGS.startMs;

const msLeft = (deadline: number, now: number): number => Math.max(0, deadline - now);

/**
 * Staff assist as the turn's player sees it [R11-9]: their misses in a row against the station's
 * number, whether they may ask now (after a miss, in the continue window), the hold while asked,
 * and how the last assist ended.
 */
function staffAssistView(station: RoomStation, turn: Turn, now: number): StaffAssistView | null {
  const needed = assistMissesOf(station);
  if (needed === 0 || turn.phase === 'idle') return null;
  const misses = turn.holder.runMisses ?? 0;
  if (turn.phase !== 'result') return { needed, misses, state: 'counting', ms_left: null, outcome: null };
  const outcome = turn.assistOutcome ?? null;
  if (turn.assist) return { needed, misses, state: 'asked', ms_left: msLeft(turn.deadline, now), outcome };
  const available = turn.result === 'miss' && now < turn.deadline && mayAskAssist(needed, misses);
  return { needed, misses, state: available ? 'available' : 'counting', ms_left: null, outcome };
}

/** A play as its player and its viewers see it. */
function view(
  station: RoomStation,
  holder: Holder,
  play: PlayRun,
  shown: Pick<PlayView, 'phase' | 'window_ms_left' | 'grace_ms_left' | 'result' | 'won_prize_name'> &
    Partial<Pick<PlayView, 'staff_assist'>>,
): PlayView {
  return {
    play_id: play.playId,
    play_reserve_id: holder.reserveId,
    station_id: station.stationId,
    machine: machineView(play.machine),
    currency: play.currency,
    price: play.price,
    arm_strength: play.armStrength,
    assist_level: play.assistLevel,
    ...shown,
  };
}

/** The play of a turn as it is now, or null when the turn holds none (idle, offered, a first start). */
export function turnPlayView(station: RoomStation, turn: Turn, now: number): PlayView | null {
  const none = { window_ms_left: null, grace_ms_left: null, result: null, won_prize_name: null };
  switch (turn.phase) {
    case 'idle':
    case 'turnOffered':
      return null;
    case 'starting':
      return turnPlayView(station, turn.resume, now);
    case 'resetting':
      return view(station, turn.holder, turn.play, {
        ...none,
        staff_assist: staffAssistView(station, turn, now),
        phase: 'resetting',
        window_ms_left: msLeft(turn.deadline, now),
      });
    case 'playing':
      return view(station, turn.holder, turn.play, {
        ...none,
        phase: 'playing',
        staff_assist: staffAssistView(station, turn, now),
      });
    case 'away':
      return view(station, turn.holder, turn.play, {
        ...none,
        staff_assist: staffAssistView(station, turn, now),
        phase: 'playing',
        grace_ms_left: msLeft(turn.graceDeadline, now),
      });
    case 'result':
      return view(station, turn.holder, turn.play, {
        ...none,
        phase: 'result',
        window_ms_left: msLeft(turn.deadline, now),
        result: turn.result,
        won_prize_name: turn.wonPrizeName,
        staff_assist: staffAssistView(station, turn, now),
      });
  }
}

/** The play on a room's machine as it is now, or null. */
export function roomPlayView(state: StationRoomState, now: number): PlayView | null {
  return turnPlayView(state.station, state.turn, now);
}

/** A play whose turn is over, as it is shown the last time. */
export function endedPlayView(
  station: RoomStation,
  holder: Holder,
  play: PlayRun,
  result: PlayResult | null,
  wonPrizeName: string | null,
): PlayView {
  return view(station, holder, play, {
    phase: 'ended',
    window_ms_left: null,
    grace_ms_left: null,
    result,
    won_prize_name: wonPrizeName,
  });
}

/**
 * When the room must look at the time next: the turn's deadline, or the machine's next tick; null
 * when nothing falls due. The room keeps one timer for this instant and sends `clock` when it passes.
 */
export function nextWakeup(state: StationRoomState): number | null {
  const turn = state.turn;
  switch (turn.phase) {
    case 'turnOffered':
    case 'result':
      return turn.deadline;
    case 'resetting':
      return turn.play.driven.startAcked ? turn.deadline : turn.deadline + startBound(state.machine);
    case 'playing':
      return drivenDue(turn.play.driven);
    case 'away':
      return turn.graceDeadline;
    case 'idle':
    case 'starting':
      return null;
  }
}

/** The next instant a machine-driven play's rules fall due (room-machine.ts), or null. */
export function drivenDue(d: PlayRun['driven']): number | null {
  const due = [
    d.buttonDeadline,
    d.autoStopAt,
    d.holdUntil,
    d.droppedAt === null ? null : d.droppedAt + MACHINE_TIMINGS.cycleMs,
    d.homeAt === null ? null : d.homeAt + MACHINE_TIMINGS.settleMs,
  ].filter((t): t is number => t !== null);
  return due.length === 0 ? null : Math.min(...due);
}

/**
 * Whether a player is in a run of plays on the machine (from their first confirm to the end of
 * their turn, continues included): an operator's change to the settings waits for it to end [R11-6].
 */
export const inRun = (turn: Turn): boolean =>
  turn.phase === 'starting' ||
  turn.phase === 'resetting' ||
  turn.phase === 'playing' ||
  turn.phase === 'away' ||
  turn.phase === 'result';

/** The player holding the turn, or null. */
export function holderOf(turn: Turn): Holder | null {
  return turn.phase === 'idle' ? null : turn.holder;
}

/** The users with a place at the station (the holder first), for routing a user's calls to their room. */
export function roomUsers(state: StationRoomState): number[] {
  const holder = holderOf(state.turn);
  return [...(holder ? [holder.userId] : []), ...state.line.map((w) => w.userId)];
}

/** The play a turn holds (a continue being charged holds the play before it), or null. */
export const playIdOf = (turn: Turn): number | null =>
  turn.phase === 'resetting' || turn.phase === 'playing' || turn.phase === 'away' || turn.phase === 'result'
    ? turn.play.playId
    : turn.phase === 'starting' && turn.resume.phase === 'result'
      ? turn.resume.play.playId
      : null;
