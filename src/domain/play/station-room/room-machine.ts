import { CRANE, machineView, type CraneState } from '../crane-machine';
import { MACHINE_TIMINGS, PLAY_TIMINGS } from '../play-loop.rule';
import type { CraneButton, CranePhase } from '../play.entity';
export { machineReady } from './room-line';
import { stoppedOn } from './room-line';
import { checkpointOf, playStateOf, recordResult, stopPlay } from './room-play';
export { UNSTARTED } from './room-play';
import { refused, type Stepped } from './room-step';
import { REATTACHING, startBound } from './room-view';
import type {
  Away,
  DrivenPlay,
  MachineCommand,
  MachineLink,
  MachinePhase,
  MachineReport,
  Playing,
  PlayRun,
  Resetting,
  RoomEffect,
  StationRoomState,
} from './room.types';

/*
 * A station whose machine is driven by its agent (docs/agent-protocol.md): the room keeps the rules
 * — who plays, the button limit, the server's hold bound, when a result is decided — and the
 * machine carries commands out and reports what it does. `play.machine` is then a mirror of the
 * reports (for the views, the cameras and the play's log), never computed here. The win is the
 * chute sensor's `machinePrize`.
 */

/** The machine link of a station driven by an agent that has not connected yet. */
export const NO_AGENT: MachineLink = { connected: false, report: null, fault: 'agent', emergencyStopped: false };

export { REATTACHING, startBound } from './room-view';

export const command = (c: MachineCommand): RoomEffect => ({ type: 'machineCommand', command: c });

/**
 * The start of a play not yet begun on the machine (its model at tick 0: the generator still its
 * seed): sent when the play is charged, and again when a restarted room finds the machine home
 * without it.
 */
export function startCommand(play: PlayRun): RoomEffect {
  const sim = { seed: play.machine.rng, layout: play.machine.prizes };
  return command({ type: 'start', playId: play.playId, armStrength: play.armStrength, sim });
}

export const PHASE_OF: Record<MachinePhase, CranePhase> = {
  idle: 'done',
  ready: 'ready',
  movingRight: 'movingRight',
  waitBack: 'waitBack',
  movingBack: 'movingBack',
  dropping: 'dropping',
  closing: 'closing',
  lifting: 'lifting',
  returning: 'returning',
  opening: 'opening',
};

/** The mirror of the machine at `now`: what it reported, the tick of the play, the room's button deadline. */
export function mirror(
  machine: CraneState,
  driven: DrivenPlay,
  now: number,
  report: MachineReport | null,
  startedAt: number,
): CraneState {
  const tick = report?.sim?.tick ?? Math.max(machine.tick, Math.floor((now - startedAt) / CRANE.tickMs));
  const deadline = driven.buttonDeadline;
  return {
    ...machine,
    tick,
    ...(report?.position ? report.position : {}),
    ...(report?.sim ? { prizes: report.sim.prizes } : {}),
    buttonDeadlineTick: deadline === null ? null : tick + Math.ceil(Math.max(0, deadline - now) / CRANE.tickMs),
    autoStopTick: driven.autoStopAt === null ? null : tick + 1,
  };
}

/** The room's model of the claw after a command it sent (the reports correct it). */
function withPhase(play: PlayRun, phase: CranePhase, driven: Partial<DrivenPlay>, autoFired?: CraneButton): PlayRun {
  return {
    ...play,
    machine: {
      ...play.machine,
      phase,
      ...(autoFired ? { autoFired: [...play.machine.autoFired, autoFired] } : {}),
    },
    driven: { ...play.driven, ...driven },
  };
}

export const startedAtOf = (play: PlayRun, now: number): number => now - play.machine.tick * CRANE.tickMs;

/**
 * A player's button on a machine-driven play: the room checks it against its model of the claw,
 * sends the command and answers at once with the model (the machine's report follows).
 */
export function drivenControl(
  state: StationRoomState,
  running: Playing,
  button: CraneButton,
  cmd: 'press' | 'release',
  now: number,
  effects: RoomEffect[],
): Stepped {
  const play = running.play;
  const driven = play.driven;
  const phase = play.machine.phase;
  if (driven.autoStopAt !== null) return { state: { ...state, turn: running }, answer: refused('buttonNotReady') };
  // After a restart, until the agent names the play again: a button now would be lost (and the play with it).
  if (state.machine.fault === REATTACHING)
    return { state: { ...state, turn: running }, answer: refused('buttonNotReady') };
  let next: PlayRun | null = null;
  if (button === 'right' && cmd === 'press' && phase === 'ready')
    next = withPhase(play, 'movingRight', { buttonDeadline: null, holdUntil: now + MACHINE_TIMINGS.holdMs });
  else if (button === 'right' && cmd === 'release' && phase === 'movingRight')
    next = withPhase(play, 'waitBack', { buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs, holdUntil: null });
  else if (button === 'back' && cmd === 'press' && phase === 'waitBack')
    next = withPhase(play, 'movingBack', { buttonDeadline: null, holdUntil: now + MACHINE_TIMINGS.holdMs });
  else if (button === 'back' && cmd === 'release' && phase === 'movingBack')
    next = withPhase(play, 'dropping', { holdUntil: null, droppedAt: now });
  if (!next) return { state: { ...state, turn: running }, answer: refused('buttonNotReady') };
  effects.push(command({ type: cmd, playId: play.playId, button }));
  const input = { tick: next.machine.tick, button, command: cmd };
  next = { ...next, inputs: [...next.inputs, input], ticksSinceSave: 0 };
  next = { ...next, machine: mirror(next.machine, next.driven, now, null, startedAtOf(play, now)) };
  const playing: Playing = { ...running, play: next };
  effects.push({ type: 'checkpoint', write: checkpointOf(next, null) });
  effects.push(playStateOf(state.station, playing, now));
  return {
    state: { ...state, turn: playing },
    answer: { kind: 'control', tick: next.machine.tick, machine: machineView(next.machine) },
  };
}

/** The reset window is over: the machine took the start → the buttons wake; not yet → wait, within a bound. */
export function drivenResetOver(
  state: StationRoomState,
  turn: Resetting,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const driven = turn.play.driven;
  if (!driven.startAcked) {
    // After a restart the agent may still be dialling back: it has longer to name the play.
    if (now < turn.deadline + startBound(state.machine)) return state;
    return machineDown(state, 'start_timeout', now, effects);
  }
  const play = withPhase(turn.play, 'ready', { buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs });
  const playing: Playing = { phase: 'playing', holder: turn.holder, play, nextTickAt: now };
  effects.push({
    type: 'commit',
    writes: [{ kind: 'playRunning', playId: play.playId, reserveId: turn.holder.reserveId, machine: play.machine }],
  });
  // The player went away during the reset (or the room restarted in it): the play waits for them in
  // its grace window, its button limit stopped, as for a player gone mid-play.
  if (!turn.holder.present) return { ...state, turn: drivenGone(state, playing, now, effects) };
  effects.push(playStateOf(state.station, playing, now));
  return { ...state, turn: playing };
}

/** Time passed on a machine-driven play: a button that fires by itself, a hold bound, a result, a stuck claw. */
export function drivenClock(
  state: StationRoomState,
  turn: Playing,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const play = turn.play;
  const d = play.driven;
  const id = play.playId;
  const phase = play.machine.phase;
  let next: PlayRun | null = null;
  if (d.homeAt !== null && now >= d.homeAt + MACHINE_TIMINGS.settleMs) return decide(state, turn, now, effects);
  if (d.droppedAt !== null && now >= d.droppedAt + MACHINE_TIMINGS.cycleMs)
    return machineDown(state, 'cycle_timeout', now, effects);
  if (d.autoStopAt !== null && now >= d.autoStopAt) {
    const button: CraneButton = phase === 'movingRight' ? 'right' : 'back';
    effects.push(command({ type: 'release', playId: id, button }));
    next =
      button === 'right'
        ? withPhase(play, 'waitBack', { autoStopAt: null, buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs })
        : withPhase(play, 'dropping', { autoStopAt: null, droppedAt: now });
  } else if (d.buttonDeadline !== null && now >= d.buttonDeadline && (phase === 'ready' || phase === 'waitBack')) {
    // The published button limit: the button fires by itself for a moment (the player's app shows the countdown).
    const button: CraneButton = phase === 'ready' ? 'right' : 'back';
    effects.push(command({ type: 'press', playId: id, button }));
    next = withPhase(
      play,
      button === 'right' ? 'movingRight' : 'movingBack',
      { buttonDeadline: null, autoStopAt: now + MACHINE_TIMINGS.autoMoveMs },
      button,
    );
  } else if (d.holdUntil !== null && now >= d.holdUntil && (phase === 'movingRight' || phase === 'movingBack')) {
    const button: CraneButton = phase === 'movingRight' ? 'right' : 'back';
    effects.push(command({ type: 'release', playId: id, button }));
    next =
      button === 'right'
        ? withPhase(play, 'waitBack', { holdUntil: null, buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs })
        : withPhase(play, 'dropping', { holdUntil: null, droppedAt: now });
  }
  if (!next) return state;
  const sent = effects.at(-1)!;
  if (sent.type === 'machineCommand' && (sent.command.type === 'press' || sent.command.type === 'release')) {
    next = {
      ...next,
      inputs: [...next.inputs, { tick: play.machine.tick, button: sent.command.button, command: sent.command.type }],
    };
  }
  next = { ...next, machine: mirror(next.machine, next.driven, now, null, startedAtOf(play, now)), ticksSinceSave: 0 };
  const playing: Playing = { ...turn, play: next };
  effects.push({ type: 'checkpoint', write: checkpointOf(next, null) });
  effects.push(playStateOf(state.station, playing, now));
  return { ...state, turn: playing };
}

/** The result of a machine-driven play: the chute sensor's prize, or a miss. */
export function decide(state: StationRoomState, turn: Playing, now: number, effects: RoomEffect[]): StationRoomState {
  const d = turn.play.driven;
  const machine: CraneState = {
    ...turn.play.machine,
    phase: 'done',
    outcome: {
      result: d.prizeSeen ? 'win' : 'miss',
      grabbedPrizeId: d.wonPrizeId,
      wonPrizeId: d.wonPrizeId,
      slipped: false,
      closedAt: { x: turn.play.machine.x, z: turn.play.machine.z },
    },
  };
  return recordResult(state, { ...turn, play: { ...turn.play, machine } }, now, effects);
}

/**
 * The machine cannot play (a fault, its agent gone, a start it refused, a claw that never came
 * home, an emergency stop): a play under way is stopped and refunded exactly once, the holder's
 * place ends, and no turn is offered until the machine reports idle and clear. A turn only offered
 * goes back to the head of the line.
 */
export function machineDown(
  state: StationRoomState,
  why: string,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const turn = state.turn;
  const machine: MachineLink = { ...stoppedOn(state.machine, turn), fault: state.machine.fault ?? why };
  let after: StationRoomState = { ...state, machine };
  switch (turn.phase) {
    case 'idle':
      return after;
    case 'turnOffered':
      // The store says so too: the player's record must not keep offering a turn nobody can take.
      effects.push({ type: 'commit', writes: [{ kind: 'withdrawTurn', reserveId: turn.holder.reserveId }] });
      return {
        ...after,
        turn: { phase: 'idle' },
        line: [
          {
            reserveId: turn.holder.reserveId,
            userId: turn.holder.userId,
            settingId: turn.holder.settingId,
            nearNotified: true,
          },
          ...state.line,
        ],
      };
    case 'starting':
      // The charge in flight is refunded when its outcome arrives (playStarted of an aborted start).
      return { ...after, turn: { ...turn, aborted: true } };
    case 'resetting':
    case 'playing':
    case 'away':
    case 'result': {
      const finished = turn.phase === 'result' ? turn : null;
      stopPlay(state.station, turn.holder, turn.play, finished, effects);
      effects.push(
        {
          type: 'commit',
          writes: [
            { kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'maintenance' },
          ],
        },
        { type: 'reserveCancelled', userId: turn.holder.userId, reason: 'maintenance' },
      );
      after = { ...after, turn: { phase: 'idle' } };
      return after;
    }
  }
}

/**
 * The player is gone while the machine runs: a held button is let go (as a release would), and a
 * claw that waits for a button waits in the grace window with its button limit stopped. A claw
 * already on its way down finishes by itself.
 */
export function drivenGone(state: StationRoomState, turn: Playing, now: number, effects: RoomEffect[]): Playing | Away {
  const holder = { ...turn.holder, present: false };
  const play = turn.play;
  const d = play.driven;
  const phase = play.machine.phase;
  let next = play;
  if ((phase === 'movingRight' || phase === 'movingBack') && d.autoStopAt === null) {
    const button: CraneButton = phase === 'movingRight' ? 'right' : 'back';
    effects.push(command({ type: 'release', playId: play.playId, button }));
    next =
      button === 'right'
        ? withPhase(play, 'waitBack', { holdUntil: null, buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs })
        : withPhase(play, 'dropping', { holdUntil: null, droppedAt: now });
    next = {
      ...next,
      inputs: [...next.inputs, { tick: play.machine.tick, button, command: 'release' }],
      ticksSinceSave: 0,
    };
    effects.push({ type: 'checkpoint', write: checkpointOf(next, null) });
  }
  if (next.machine.phase !== 'ready' && next.machine.phase !== 'waitBack') return { ...turn, holder, play: next };
  const graceDeadline = now + PLAY_TIMINGS.graceMs;
  const away: Away = {
    phase: 'away',
    holder,
    play: {
      ...next,
      machine: { ...next.machine, buttonDeadlineTick: null },
      driven: { ...next.driven, buttonDeadline: null },
      ticksSinceSave: 0,
    },
    graceDeadline,
  };
  effects.push({ type: 'checkpoint', write: checkpointOf(away.play, graceDeadline) });
  effects.push(playStateOf(state.station, away, now));
  return away;
}

/** The player is back: the claw waits for their button again, with a whole button limit. */
export function drivenBack(state: StationRoomState, turn: Away, now: number, effects: RoomEffect[]): Playing {
  const d = turn.play.driven;
  const machine = turn.play.machine;
  const play: PlayRun = {
    ...turn.play,
    // The view's button limit is the mirror's until the machine's next report: a whole one from now.
    machine: { ...machine, buttonDeadlineTick: machine.tick + Math.ceil(PLAY_TIMINGS.buttonLimitMs / CRANE.tickMs) },
    driven: { ...d, buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs },
    ticksSinceSave: 0,
  };
  const playing: Playing = { phase: 'playing', holder: { ...turn.holder, present: true }, play, nextTickAt: now };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  effects.push(playStateOf(state.station, playing, now));
  return playing;
}

/** Nobody came back: the claw drops where it is and the play ends as any other. */
export function drivenGraceLapsed(turn: Away, now: number, effects: RoomEffect[]): Playing {
  effects.push(command({ type: 'drop', playId: turn.play.playId }));
  const dropped = withPhase(turn.play, 'dropping', { buttonDeadline: null, droppedAt: now });
  const play = { ...dropped, dropAtTick: turn.play.machine.tick, ticksSinceSave: 0 };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  return { phase: 'playing', holder: turn.holder, play, nextTickAt: now };
}
