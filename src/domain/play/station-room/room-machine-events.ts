import { PLAY_TIMINGS } from '../play-loop.rule';
import { advance, homeAndClear } from './room-line';
import {
  command,
  decide,
  drivenResetOver,
  machineDown,
  mirror,
  PHASE_OF,
  REATTACHING,
  startedAtOf,
  startCommand,
} from './room-machine';
import { checkpointOf, playStateOf } from './room-play';
import { OK, refused, type Stepped } from './room-step';
import { holderOf } from './room-view';
import type {
  Away,
  DrivenPlay,
  MachinePhase,
  MachineReport,
  Playing,
  PlayRun,
  Resetting,
  RoomEffect,
  RoomEvent,
  StationRoomState,
} from './room.types';

/*
 * What a machine's agent and the operator at the machine tell a station room: connection, reports,
 * acks, the chute's prizes and faults, the emergency stop (room-machine.ts
 * holds the driven play's own rules).
 */

/** The events of the machine's agent and of the operator at the machine. */
export function machineEvent(
  state: StationRoomState,
  event: Extract<
    RoomEvent,
    {
      type:
        | 'machineConnected'
        | 'machineReport'
        | 'machineAck'
        | 'machinePrize'
        | 'machineFault'
        | 'machineGone'
        | 'emergencyStop'
        | 'resumeMachine'
        | 'homeMachine';
    }
  >,
  now: number,
  effects: RoomEffect[],
): Stepped {
  const link = state.machine;
  switch (event.type) {
    case 'machineConnected':
      // A new connection: an answer owed on the last one will not come.
      return { state: { ...state, machine: { ...link, connected: true, endedStart: null } }, answer: OK };
    case 'machineGone':
      return {
        state: machineDown(
          { ...state, machine: { ...link, connected: false, report: null, endedStart: null } },
          `agent_${event.reason}`,
          now,
          effects,
        ),
        answer: OK,
      };
    case 'machineFault':
      return { state: machineDown(state, event.code, now, effects), answer: OK };
    case 'machineReport':
      return { state: reported(state, event.report, now, effects), answer: OK };
    case 'machinePrize':
      return { state: prizeSeen(state, event.playId, event.prizeId, now, effects), answer: OK };
    case 'machineAck':
      return { state: acked(state, event, now, effects), answer: OK };
    case 'emergencyStop': {
      // The stop goes out before anything else the step does.
      effects.push(command({ type: 'stop' }), {
        type: 'commit',
        writes: [{ kind: 'emergencyStopped', stopped: true }],
      });
      const stopped = machineDown(
        { ...state, machine: { ...link, emergencyStopped: true } },
        'emergency_stop',
        now,
        effects,
      );
      return { state: stopped, answer: { kind: 'operator', refundedPlayId: refundedBy(state) } };
    }
    case 'resumeMachine': {
      if (!link.emergencyStopped) return { state, answer: refused('machineBusy') };
      effects.push(command({ type: 'resume' }), command({ type: 'home' }), {
        type: 'commit',
        writes: [{ kind: 'emergencyStopped', stopped: false }],
      });
      // Ready again only once the machine reports itself home and clear after the resume.
      const resumed: StationRoomState = { ...state, machine: { ...link, emergencyStopped: false, fault: 'resuming' } };
      return { state: resumed, answer: { kind: 'operator', refundedPlayId: null } };
    }
    case 'homeMachine': {
      if (holderOf(state.turn) && state.turn.phase !== 'turnOffered') return { state, answer: refused('machineBusy') };
      effects.push(command({ type: 'home' }));
      return { state, answer: { kind: 'operator', refundedPlayId: null } };
    }
  }
}

/** The play an emergency stop refunds (one under way and unfinished), for the operator's answer. */
function refundedBy(state: StationRoomState): number | null {
  const t = state.turn;
  return t.phase === 'resetting' || t.phase === 'playing' || t.phase === 'away' ? t.play.playId : null;
}

/** Phases in which a machine waits for (or holds) a player's button: a play there goes on only when a button comes. */
const WAITING_FOR_BUTTON: ReadonlySet<MachinePhase> = new Set(['ready', 'movingRight', 'waitBack', 'movingBack']);

/** A report: the link's view of the machine, the running play's mirror, a claw home after the drop, a fault cleared. */
function reported(
  state: StationRoomState,
  report: MachineReport,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const link = state.machine;
  let after: StationRoomState = { ...state, machine: { ...link, connected: true, report } };
  if (link.fault === REATTACHING) after = reattach(after, report, now, effects);
  const turn = after.turn;
  // The machine names the play it runs; once its cycle is over it is idle with none.
  const ofPlay = (playId: number) => report.playId === playId || (report.phase === 'idle' && report.playId === null);
  if ((turn.phase === 'playing' || turn.phase === 'away') && ofPlay(turn.play.playId)) {
    const followed = followReport(after, turn, report, now, effects);
    // Home with the prize already seen: the result need not wait for the settle window.
    if (followed.phase === 'playing' && followed.play.driven.homeAt !== null && followed.play.driven.prizeSeen)
      return decide(after, followed, now, effects);
    after = { ...after, turn: followed };
  }
  // A play the room no longer runs (stopped and refunded while its agent was away) that still waits
  // on the machine for a button would keep the station out of service for good: it is dropped, so
  // the machine finishes its cycle and comes home by itself (docs/agent-protocol.md, "Exactly once").
  if (report.playId !== null && !report.stopped && WAITING_FOR_BUTTON.has(report.phase)) {
    const t = after.turn;
    if (!('play' in t) || t.play.playId !== report.playId)
      effects.push(command({ type: 'drop', playId: report.playId }));
  }
  // Ready again: the fault is over once the machine is home with its chute clear.
  if (after.machine.fault !== null && homeAndClear(report)) {
    after = { ...after, machine: { ...after.machine, fault: null } };
  }
  return after.turn.phase === 'idle' ? advance(after, now, effects) : after;
}

/**
 * The first report after a restart of the room, with a play under way: the machine still runs it
 * (it names it, or it finished the drop and came home) and the play goes on; else the prize its
 * chute saw meanwhile wins, or the play is refunded once (R10-1: resumed or refunded).
 */
function reattach(
  state: StationRoomState,
  report: MachineReport,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const turn = state.turn;
  const machine = { ...state.machine, fault: null };
  if (turn.phase === 'resetting') return reattachStart(state, turn, report, now, effects);
  // The play ended meanwhile (refunded when its agent went): ready again once home and clear, as after any fault.
  if (turn.phase !== 'playing' && turn.phase !== 'away')
    return { ...state, machine: { ...machine, fault: 'restarted' } };
  const d = turn.play.driven;
  const home = report.phase === 'idle' && report.playId === null;
  if (report.playId === turn.play.playId && (report.phase === 'movingRight' || report.phase === 'movingBack')) {
    // The machine still holds the button the room took back as let go: its agent's watchdog did not
    // fire (the agent stayed connected to an instance that lived on while the room's own died), so
    // the room lets go of it now, where the claw is, as its model says.
    const button = report.phase === 'movingRight' ? 'right' : 'back';
    effects.push(command({ type: 'release', playId: turn.play.playId, button }));
    return { ...state, machine };
  }
  if (report.playId === turn.play.playId || (home && d.droppedAt !== null)) return { ...state, machine };
  if (d.prizeSeen) {
    const playing: Playing = { phase: 'playing', holder: turn.holder, play: turn.play, nextTickAt: now };
    return decide({ ...state, machine }, playing, now, effects);
  }
  return machineDown({ ...state, machine: { ...machine, fault: 'restarted' } }, 'restarted', now, effects);
}

/**
 * The first report after a restart, with a play still resetting: the machine took its start (it
 * names it) and the buttons wake when the reset window is over; the machine is home and clear
 * without it (the start never reached it) and the start goes again, the same seed and layout; else
 * the play is refunded once.
 */
function reattachStart(
  state: StationRoomState,
  turn: Resetting,
  report: MachineReport,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const machine = { ...state.machine, fault: null };
  const play = turn.play;
  if (report.playId === play.playId) {
    const started: Resetting = { ...turn, play: { ...play, driven: { ...play.driven, startAcked: true } } };
    const after: StationRoomState = { ...state, machine, turn: started };
    return now >= turn.deadline ? drivenResetOver(after, started, now, effects) : after;
  }
  if (report.playId === null && homeAndClear(report)) {
    effects.push(startCommand(play));
    // The machine has MACHINE_TIMINGS.startMs from now to take it.
    return { ...state, machine, turn: { ...turn, deadline: Math.max(turn.deadline, now) } };
  }
  return machineDown({ ...state, machine: { ...machine, fault: 'restarted' } }, 'restarted', now, effects);
}

/** The running play follows what the machine reports: the wall ends a move, the claw comes home. */
function followReport(
  state: StationRoomState,
  turn: Playing | Away,
  report: MachineReport,
  now: number,
  effects: RoomEffect[],
): Playing | Away {
  const play = turn.play;
  const d = play.driven;
  let driven: Partial<DrivenPlay> = {};
  let phase = play.machine.phase;
  if (report.phase === 'waitBack' && phase === 'movingRight') {
    // The claw reached the wall: the machine let go by itself, ↑ waits with its limit.
    phase = 'waitBack';
    driven = { holdUntil: null, autoStopAt: null, buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs };
  } else if (['dropping', 'closing', 'lifting', 'returning', 'opening'].includes(report.phase)) {
    phase = PHASE_OF[report.phase];
    if (d.droppedAt === null) driven = { holdUntil: null, autoStopAt: null, buttonDeadline: null, droppedAt: now };
  } else if (report.phase === 'idle' && d.droppedAt !== null && d.homeAt === null) {
    phase = 'opening';
    driven = { homeAt: now };
  }
  const next: PlayRun = {
    ...play,
    driven: { ...d, ...driven },
    machine: mirror({ ...play.machine, phase }, { ...d, ...driven }, now, report, startedAtOf(play, now)),
    ticksSinceSave: play.ticksSinceSave + 1,
  };
  const changed = phase !== play.machine.phase;
  if (changed) effects.push({ type: 'checkpoint', write: checkpointOf({ ...next, ticksSinceSave: 0 }, null) });
  const out = { ...turn, play: changed ? { ...next, ticksSinceSave: 0 } : next };
  if (changed || report.sim?.tick === undefined || report.sim.tick % 4 === 0)
    effects.push(playStateOf(state.station, out, now));
  return out;
}

/** The chute sensor saw a prize: the win of the play under way (once). */
function prizeSeen(
  state: StationRoomState,
  playId: number | null,
  prizeId: number | null,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const turn = state.turn;
  const running = (turn.phase === 'playing' || turn.phase === 'away') && turn.play.playId === playId;
  if (!running || turn.play.driven.prizeSeen) {
    // Out of the machine all the same: the operator settles it (gives it to the player, or puts it back).
    effects.push({ type: 'commit', writes: [{ kind: 'strayPrize', playId, prizeId }] }, { type: 'floorChanged' });
    return state;
  }
  const play: PlayRun = { ...turn.play, driven: { ...turn.play.driven, prizeSeen: true, wonPrizeId: prizeId } };
  const next = { ...turn, play };
  // Home already: the result need not wait for the rest of the settle window.
  if (next.phase === 'playing' && play.driven.homeAt !== null) return decide(state, next, now, effects);
  return { ...state, turn: next };
}

/** A command's outcome: the machine took the start, refused it, or took a button at its tick. */
function acked(
  state: StationRoomState,
  event: Extract<RoomEvent, { type: 'machineAck' }>,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const turn = state.turn;
  const c = event.command;
  if (c.type === 'start' && state.machine.endedStart === c.playId) {
    // The answer to a start the room stopped: taken, the machine reported the play before this ack
    // (it is dropped as a play the room does not run, and ready once home); refused, it never ran.
    const after: StationRoomState = { ...state, machine: { ...state.machine, endedStart: null } };
    return after.turn.phase === 'idle' ? advance(after, now, effects) : after;
  }
  if (c.type === 'start') {
    if (turn.phase !== 'resetting' || turn.play.playId !== c.playId) return state;
    if (!event.ok) return machineDown(state, `start_${event.reason ?? 'refused'}`, now, effects);
    const play = { ...turn.play, driven: { ...turn.play.driven, startAcked: true } };
    const after: StationRoomState = { ...state, turn: { ...turn, play } };
    // Taken after the reset window ended: the buttons wake now.
    return now >= turn.deadline ? drivenResetOver(after, { ...turn, play }, now, effects) : after;
  }
  // A button the simulated cabinet took: its tick goes into the play's log, so the play replays exactly.
  if ((c.type === 'press' || c.type === 'release') && event.ok && event.tick !== null) {
    if ((turn.phase !== 'playing' && turn.phase !== 'away') || turn.play.playId !== c.playId) return state;
    const inputs = [...turn.play.inputs];
    for (let i = inputs.length - 1; i >= 0; i -= 1) {
      const input = inputs[i]!;
      if (input.button === c.button && input.command === c.type) {
        inputs[i] = { ...input, tick: event.tick };
        break;
      }
    }
    return { ...state, turn: { ...turn, play: { ...turn.play, inputs } } };
  }
  return state;
}
