import { CRANE, machineView, startPlay, type CraneState } from '../crane-machine';
import { MACHINE_TIMINGS, PLAY_TIMINGS } from '../play-loop.rule';
import type { CraneButton, CranePhase } from '../play.entity';
import { advance } from './room-line';
export { machineReady } from './room-line';
import { checkpointOf, playStateOf, recordResult, stopPlay } from './room-play';
import { OK, refused, type Stepped } from './room-step';
import { holderOf } from './room-view';
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
  RoomEvent,
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

const command = (c: MachineCommand): RoomEffect => ({ type: 'machineCommand', command: c });

/** A new machine-driven play: the start command to the machine, and the play's button rules. */
export function drivenStart(
  play: PlayRun,
  seed: number,
  layout: PlayRun['machine']['prizes'],
): {
  play: PlayRun;
  effect: RoomEffect;
} {
  const driven: DrivenPlay = {
    startAcked: false,
    buttonDeadline: null,
    autoStopAt: null,
    holdUntil: null,
    droppedAt: null,
    homeAt: null,
    prizeSeen: false,
    wonPrizeId: null,
  };
  return {
    play: { ...play, machine: startPlay(layout, play.armStrength, seed, true), driven },
    effect: command({ type: 'start', playId: play.playId, armStrength: play.armStrength, sim: { seed, layout } }),
  };
}

const PHASE_OF: Record<MachinePhase, CranePhase> = {
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
function mirror(
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
    driven: { ...play.driven!, ...driven },
  };
}

const startedAtOf = (play: PlayRun, now: number): number => now - play.machine.tick * CRANE.tickMs;

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
  const driven = play.driven!;
  const phase = play.machine.phase;
  if (driven.autoStopAt !== null) return { state: { ...state, turn: running }, answer: refused('buttonNotReady') };
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
  next = { ...next, machine: mirror(next.machine, next.driven!, now, null, startedAtOf(play, now)) };
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
  const driven = turn.play.driven!;
  if (!driven.startAcked) {
    if (now < turn.deadline + MACHINE_TIMINGS.startMs) return state;
    return machineDown(state, 'start_timeout', now, effects);
  }
  const play = withPhase(turn.play, 'ready', { buttonDeadline: now + PLAY_TIMINGS.buttonLimitMs });
  const playing: Playing = { phase: 'playing', holder: turn.holder, play, nextTickAt: now };
  effects.push({
    type: 'commit',
    writes: [{ kind: 'playRunning', playId: play.playId, reserveId: turn.holder.reserveId, machine: play.machine }],
  });
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
  const d = play.driven!;
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
  next = { ...next, machine: mirror(next.machine, next.driven!, now, null, startedAtOf(play, now)), ticksSinceSave: 0 };
  const playing: Playing = { ...turn, play: next };
  effects.push({ type: 'checkpoint', write: checkpointOf(next, null) });
  effects.push(playStateOf(state.station, playing, now));
  return { ...state, turn: playing };
}

/** The result of a machine-driven play: the chute sensor's prize, or a miss. */
function decide(state: StationRoomState, turn: Playing, now: number, effects: RoomEffect[]): StationRoomState {
  const d = turn.play.driven!;
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
  const machine: MachineLink = { ...(state.machine ?? NO_AGENT), fault: state.machine?.fault ?? why };
  const turn = state.turn;
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
        | 'homeMachine'
        | 'setDriver';
    }
  >,
  now: number,
  effects: RoomEffect[],
): Stepped {
  if (event.type === 'setDriver') return setDriver(state, event.driver, now, effects);
  const link = state.machine;
  if (!link) {
    // The built-in simulator has no agent: reports are not its, and there is nothing to command.
    return event.type === 'emergencyStop' || event.type === 'resumeMachine' || event.type === 'homeMachine'
      ? { state, answer: refused('machineDown') }
      : { state, answer: OK };
  }
  switch (event.type) {
    case 'machineConnected':
      return { state: { ...state, machine: { ...link, connected: true } }, answer: OK };
    case 'machineGone':
      return {
        state: machineDown(
          { ...state, machine: { ...link, connected: false, report: null } },
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

/**
 * The operator moves the station to its agent (a real cabinet, or the reference agent's sim) or
 * back to the built-in simulator, between plays only. On its agent the station waits for the
 * agent's report of an idle machine before it offers the next turn.
 */
function setDriver(state: StationRoomState, driver: 'builtin' | 'agent', now: number, effects: RoomEffect[]): Stepped {
  const current = state.station.driver ?? 'builtin';
  const answer = { kind: 'operator', refundedPlayId: null } as const;
  if (current === driver) return { state, answer };
  if (state.turn.phase !== 'idle' && state.turn.phase !== 'turnOffered')
    return { state, answer: refused('machineBusy') };
  effects.push({ type: 'commit', writes: [{ kind: 'driver', driver }] });
  const station = { ...state.station, driver };
  if (driver === 'builtin') {
    const { machine: _dropped, ...rest } = state;
    return { state: advance({ ...rest, station }, now, effects), answer };
  }
  const held = state.turn.phase === 'turnOffered' ? machineDown(state, 'agent', now, effects) : state;
  return { state: { ...held, station, machine: NO_AGENT }, answer };
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
  const link = state.machine!;
  let after: StationRoomState = { ...state, machine: { ...link, connected: true, report } };
  const turn = after.turn;
  // The machine names the play it runs; once its cycle is over it is idle with none.
  const ofPlay = (playId: number) => report.playId === playId || (report.phase === 'idle' && report.playId === null);
  if ((turn.phase === 'playing' || turn.phase === 'away') && turn.play.driven && ofPlay(turn.play.playId)) {
    const followed = followReport(after, turn, report, now, effects);
    // Home with the prize already seen: the result need not wait for the settle window.
    if (followed.phase === 'playing' && followed.play.driven!.homeAt !== null && followed.play.driven!.prizeSeen)
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
  if (after.machine!.fault !== null && report.phase === 'idle' && report.sensor === 'clear' && !report.stopped) {
    after = { ...after, machine: { ...after.machine!, fault: null } };
  }
  return after.turn.phase === 'idle' ? advance(after, now, effects) : after;
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
  const d = play.driven!;
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
  effects.push({ type: 'machineTicked' });
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
  if ((turn.phase !== 'playing' && turn.phase !== 'away') || !turn.play.driven || turn.play.playId !== playId)
    return state;
  if (turn.play.driven.prizeSeen) return state;
  const play: PlayRun = { ...turn.play, driven: { ...turn.play.driven, prizeSeen: true, wonPrizeId: prizeId } };
  const next = { ...turn, play };
  // Home already: the result need not wait for the rest of the settle window.
  if (next.phase === 'playing' && play.driven!.homeAt !== null) return decide(state, next, now, effects);
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
  if (c.type === 'start') {
    if (turn.phase !== 'resetting' || turn.play.playId !== c.playId || !turn.play.driven) return state;
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

/**
 * The player is gone while the machine runs: a held button is let go (as a release would), and a
 * claw that waits for a button waits in the grace window with its button limit stopped. A claw
 * already on its way down finishes by itself.
 */
export function drivenGone(state: StationRoomState, turn: Playing, now: number, effects: RoomEffect[]): Playing | Away {
  const holder = { ...turn.holder, present: false };
  const play = turn.play;
  const d = play.driven!;
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
      driven: { ...next.driven!, buttonDeadline: null },
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
  const d = turn.play.driven!;
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
