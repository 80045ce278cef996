import { CRANE, startPlay } from '../crane-machine';
import { PLAY_TIMINGS } from '../play-loop.rule';
import type { CranePhase } from '../play.entity';
import { machineDown, NO_AGENT, REATTACHING, UNSTARTED } from './room-machine';
import type {
  Away,
  DrivenPlay,
  Playing,
  Holder,
  MachineLink,
  PlayRun,
  RoomEffect,
  RoomSnapshot,
  StationRoomState,
  Turn,
  Waiting,
} from './room.types';

/**
 * A room as the store holds it, after a (re)start: the line, the turn and the play where they were,
 * each deadline at its stored instant. Nobody is connected to a new process yet, so the holder is
 * not present; the `resumed` event that follows puts a running play in its grace window (its
 * player's connection went with the old process) and hands the turn on if it can. A reservation
 * left holding the turn without its play (which one transaction makes impossible) is ended.
 */
export function restoreRoom(
  snapshot: RoomSnapshot,
  now: number,
  known: MachineLink = NO_AGENT,
): { state: StationRoomState; effects: RoomEffect[] } {
  const effects: RoomEffect[] = [];
  const { play } = snapshot;
  const holding = snapshot.reservations.find((r) =>
    play ? r.reserveId === play.reserveId : r.status === 'playTransition',
  );
  const orphans = snapshot.reservations.filter((r) => r.status === 'playWaiting' && r !== holding);
  if (orphans.length > 0) {
    effects.push({
      type: 'commit',
      writes: [
        { kind: 'endReservations', reserveIds: orphans.map((o) => o.reserveId), status: 'cancel', reason: 'played' },
      ],
    });
  }
  const line: Waiting[] = snapshot.reservations
    .filter((r) => r.status === 'reserve' && r !== holding)
    .map((r) => ({ reserveId: r.reserveId, userId: r.userId, settingId: r.settingId, nearNotified: false }));
  const holder: Holder | null = play
    ? {
        reserveId: play.reserveId,
        userId: play.userId,
        settingId: holding?.settingId ?? 0,
        present: false,
        runMisses: play.runMisses ?? 0,
      }
    : holding
      ? { reserveId: holding.reserveId, userId: holding.userId, settingId: holding.settingId, present: false }
      : null;
  let turn: Turn = { phase: 'idle' };
  if (play && holder) {
    const run: PlayRun = {
      playId: play.playId,
      currency: play.currency,
      price: play.price,
      charged: play.charged,
      armStrength: play.armStrength,
      assistLevel: play.assistLevel,
      gaugeMisses: play.gaugeMisses,
      machine: play.machine ?? startPlay(play.layout, play.armStrength, play.seed, true),
      inputs: play.inputs,
      dropAtTick: play.dropAtTick,
      ticksSinceSave: 0,
      driven: UNSTARTED,
    };
    if (play.phase === 'resetting')
      turn = { phase: 'resetting', holder, play: run, deadline: play.phaseDeadline ?? now };
    else if (play.phase === 'result' && (play.result === 'win' || play.result === 'miss')) {
      const won = play.result === 'win' && snapshot.station.designatedType !== 'practice';
      turn = {
        phase: 'result',
        holder,
        play: run,
        result: play.result,
        wonPrizeName: won ? snapshot.station.prizeName : null,
        deadline: play.phaseDeadline ?? now,
        // A staff assist asked and not answered holds the turn until its stored end [R11-9].
        assist: play.assistAskedAt != null ? { askedAt: play.assistAskedAt } : null,
      };
    } else if (play.graceDeadline !== null)
      turn = { phase: 'away', holder, play: run, graceDeadline: play.graceDeadline };
    else turn = { phase: 'playing', holder, play: run, nextTickAt: now + CRANE.tickMs };
  } else if (holder) {
    turn = { phase: 'turnOffered', holder, deadline: holding?.deadline ?? now + PLAY_TIMINGS.confirmMs };
  }
  // The machine as this instance knows it (its agent connected here, its last report), else
  // nothing until its agent reports.
  const machine: MachineLink = { ...known, emergencyStopped: snapshot.station.emergencyStopped === true };
  const state: StationRoomState = {
    station: snapshot.station,
    field: snapshot.field,
    line,
    turn,
    machine,
    pendingSettings: snapshot.pendingSettings ?? null,
  };
  if (state.turn.phase === 'idle' || state.turn.phase === 'turnOffered') return { state, effects };
  // A play under way lives on in the machine while the server is gone (its agent lets go of a held
  // button when the pings stop, and dials again): the room takes it back when the agent's report
  // names it (room-machine-events.ts, `reported`), or refunds it once when the report says the
  // machine no longer runs it. A play still resetting is taken back the same way (its start sent
  // again if the machine is home without it).
  if ((state.turn.phase === 'playing' || state.turn.phase === 'away') && play?.machine && !machine.emergencyStopped)
    return {
      state: { ...state, machine: { ...machine, fault: REATTACHING }, turn: reattached(state.turn, now) },
      effects,
    };
  // A recorded result stands with its continue window; a continue waits for the machine to be
  // known home and clear (its agent's report), as any start does.
  if (state.turn.phase === 'result') return { state: { ...state, machine }, effects };
  if (state.turn.phase === 'resetting' && !machine.emergencyStopped) {
    const turn = state.turn;
    // The reset window ends at the restart at the earliest; the agent has MACHINE_TIMINGS.reattachMs.
    const resetting = { ...turn, play: { ...turn.play, driven: UNSTARTED }, deadline: Math.max(turn.deadline, now) };
    return { state: { ...state, machine: { ...machine, fault: REATTACHING }, turn: resetting }, effects };
  }
  return { state: machineDown({ ...state, machine }, 'restarted', now, effects), effects };
}

/**
 * A play under way as a restarted room takes it up: the claw where it was saved, a button that was
 * held let go (the agent's watchdog released it when the server's pings stopped: → held leaves ↑
 * waiting, ↑ held is the drop), the button limit whole again.
 */
function reattached<T extends Playing | Away>(turn: T, now: number): T {
  const play = turn.play;
  const saved = play.machine.phase;
  const phase: CranePhase = saved === 'movingRight' ? 'waitBack' : saved === 'movingBack' ? 'dropping' : saved;
  const dropped = !['ready', 'waitBack'].includes(phase);
  const inputs =
    saved === 'movingRight' || saved === 'movingBack'
      ? [
          ...play.inputs,
          {
            tick: play.machine.tick,
            button: saved === 'movingRight' ? ('right' as const) : ('back' as const),
            command: 'release' as const,
          },
        ]
      : play.inputs;
  const driven: DrivenPlay = {
    startAcked: true,
    buttonDeadline: dropped || turn.phase === 'away' ? null : now + PLAY_TIMINGS.buttonLimitMs,
    autoStopAt: null,
    holdUntil: null,
    droppedAt: dropped ? now : null,
    homeAt: null,
    prizeSeen: false,
    wonPrizeId: null,
  };
  return { ...turn, play: { ...play, inputs, machine: { ...play.machine, phase }, driven } };
}
