import { awaitsButton, CRANE, dropNow, layPrizes, letGo, startPlay, tick, type CraneState } from '../crane-machine';
import { nextAssistMisses, PLAY_TIMINGS } from '../play-loop.rule';
import { endedPlayView, turnPlayView } from './room-view';
import type {
  Away,
  Holder,
  Playing,
  PlayRun,
  Resetting,
  Result,
  RoomEffect,
  RoomField,
  RoomStation,
  RoomWrite,
  StartedPlay,
  StationRoomState,
} from './room.types';

/** The running machine is saved at least this often (a restart loses at most this much of a play). */
export const SAVE_EVERY_TICKS = 10;
/** While the claw moves, viewers get the play this often (and on every change of the claw's phase). */
export const PUSH_EVERY_TICKS = 4;

/** The most prizes lying on a field at once. */
const FIELD_PRIZES = 3;

/** The field a station starts with: laid from its id, as many prizes as its stock allows (at least one). */
export function initialField(station: RoomStation): RoomField {
  const count = Math.max(1, Math.min(FIELD_PRIZES, station.stock));
  return { prizes: layPrizes(station.stationId * 7919, count, 1, station.prizeShape), nextPrizeId: count + 1 };
}

/**
 * The field after a play: the prizes where they came to rest, and new ones placed (from the play's
 * seeded draws) while the stock has more. Practice stations put theirs back: nothing is given away.
 */
export function refilledField(station: RoomStation, machine: CraneState, field: RoomField): RoomField {
  const prizes = [...machine.prizes];
  let nextPrizeId = field.nextPrizeId;
  const wanted = Math.max(
    1,
    Math.min(FIELD_PRIZES, station.designatedType === 'practice' ? FIELD_PRIZES : station.stock),
  );
  while (prizes.length < wanted) {
    prizes.push(layPrizes(machine.rng ^ nextPrizeId, 1, nextPrizeId, station.prizeShape)[0]!);
    nextPrizeId += 1;
  }
  return { prizes, nextPrizeId };
}

/** A started play, from what its write answered. */
export function newRun(started: StartedPlay, field: RoomField): PlayRun {
  return {
    playId: started.playId,
    currency: started.currency,
    price: started.price,
    charged: started.charged,
    armStrength: started.armStrength,
    assistLevel: started.assistLevel,
    gaugeMisses: started.gaugeMisses,
    machine: startPlay(field.prizes, started.armStrength, started.seed),
    inputs: [],
    dropAtTick: null,
    ticksSinceSave: 0,
  };
}

/** What one play costs at this station: TC, one ticket (point-ticket stations) or nothing (practice). */
export function chargeOf(station: RoomStation): { currency: PlayRun['currency']; price: number } {
  if (station.designatedType === 'practice') return { currency: 'free', price: 0 };
  if (station.designatedType === 'point_ticket') return { currency: 'ticket', price: 1 };
  return { currency: 'tc', price: station.playPrice };
}

export function checkpointOf(play: PlayRun, graceDeadline: number | null): Extract<RoomWrite, { kind: 'checkpoint' }> {
  return {
    kind: 'checkpoint',
    playId: play.playId,
    machine: play.machine,
    inputs: play.inputs,
    dropAtTick: play.dropAtTick,
    graceDeadline,
  };
}

/** The machine waits for its next tick, `CRANE.tickMs` after the previous one was due (not after it ran). */
export function nextTickAfter(dueAt: number, now: number): number {
  return now - dueAt < CRANE.tickMs ? dueAt + CRANE.tickMs : now + CRANE.tickMs;
}

/** The refund of a play: exactly what it took. */
export function refundOf(userId: number, play: PlayRun): Extract<RoomWrite, { kind: 'refund' }> {
  return {
    kind: 'refund',
    playId: play.playId,
    userId,
    currency: play.currency,
    price: play.price,
    charged: play.charged,
  };
}

/**
 * The player is gone while the machine runs: a held button lets go where the claw is; a claw that
 * waits for a button pauses in the grace window. A claw already on its way down finishes by itself.
 */
export function goneWhilePlaying(
  turn: Playing,
  now: number,
  effects: RoomEffect[],
  station: RoomStation,
): Playing | Away {
  const holder = { ...turn.holder, present: false };
  const released = letGo(turn.play.machine);
  let play = turn.play;
  if (released.input) {
    play = { ...play, machine: released.state, inputs: [...play.inputs, released.input] };
  }
  if (!awaitsButton(play.machine)) {
    if (play !== turn.play) {
      play = { ...play, ticksSinceSave: 0 };
      effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
    }
    return { ...turn, holder, play };
  }
  const graceDeadline = now + PLAY_TIMINGS.graceMs;
  play = { ...play, ticksSinceSave: 0 };
  const away: Away = { phase: 'away', holder, play, graceDeadline };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, graceDeadline) });
  effects.push(playStateOf(station, away, now));
  return away;
}

/** The player is back: a paused play runs on from where it waited. */
export function backFromAway(turn: Away, now: number, effects: RoomEffect[], station: RoomStation): Playing {
  const play = { ...turn.play, ticksSinceSave: 0 };
  const playing: Playing = {
    phase: 'playing',
    holder: { ...turn.holder, present: true },
    play,
    nextTickAt: now + CRANE.tickMs,
  };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  effects.push(playStateOf(station, playing, now));
  return playing;
}

/** Nobody came back: the claw drops where it is and the play ends as any other. */
export function graceLapsed(turn: Away, now: number, effects: RoomEffect[]): Playing {
  const machine = dropNow(turn.play.machine);
  const play = { ...turn.play, machine, dropAtTick: machine.tick, ticksSinceSave: 0 };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  return { phase: 'playing', holder: turn.holder, play, nextTickAt: now + CRANE.tickMs };
}

/** The reset is over: the machine starts (or pauses at once when the player is gone). */
export function machineStarts(
  turn: Resetting,
  now: number,
  effects: RoomEffect[],
  station: RoomStation,
): Playing | Away {
  const running: RoomWrite = {
    kind: 'playRunning',
    playId: turn.play.playId,
    reserveId: turn.holder.reserveId,
    machine: turn.play.machine,
  };
  if (!turn.holder.present) {
    const graceDeadline = now + PLAY_TIMINGS.graceMs;
    const away: Away = { phase: 'away', holder: turn.holder, play: turn.play, graceDeadline };
    effects.push({ type: 'commit', writes: [running, checkpointOf(turn.play, graceDeadline)] });
    effects.push(playStateOf(station, away, now));
    return away;
  }
  const playing: Playing = { phase: 'playing', holder: turn.holder, play: turn.play, nextTickAt: now + CRANE.tickMs };
  effects.push({ type: 'commit', writes: [running] });
  effects.push(playStateOf(station, playing, now));
  return playing;
}

/** A `playState` effect for a turn that holds a play. */
export function playStateOf(station: RoomStation, turn: Resetting | Playing | Away | Result, now: number): RoomEffect {
  return { type: 'playState', view: turnPlayView(station, turn, now)! };
}

/**
 * One tick of a running machine: the claw moves; it is saved every SAVE_EVERY_TICKS and on every
 * change of phase, shown every PUSH_EVERY_TICKS and on every change; when the claw is done the
 * result is recorded (`recordResult`).
 */
export function machineTicks(
  state: StationRoomState,
  turn: Playing,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const before = turn.play.machine.phase;
  const machine = tick(turn.play.machine);
  let play: PlayRun = { ...turn.play, machine, ticksSinceSave: turn.play.ticksSinceSave + 1 };
  effects.push({ type: 'machineTicked' });
  if (machine.phase === 'done') return recordResult(state, { ...turn, play }, now, effects);
  const changed = machine.phase !== before;
  if (changed || play.ticksSinceSave >= SAVE_EVERY_TICKS) {
    play = { ...play, ticksSinceSave: 0 };
    effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  }
  const next: Playing = { ...turn, play, nextTickAt: nextTickAfter(turn.nextTickAt, now) };
  if (changed || machine.tick % PUSH_EVERY_TICKS === 0) effects.push(playStateOf(state.station, next, now));
  return { ...state, turn: next };
}

/** The claw is done: the result, the prize, the stock, the VIP weekly count, the gauge and the field are written at once. */
export function recordResult(
  state: StationRoomState,
  turn: Playing,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const { station } = state;
  const outcome = turn.play.machine.outcome!;
  const practice = station.designatedType === 'practice';
  const won = outcome.result === 'win' && !practice;
  const stationAfter = won ? { ...station, stock: Math.max(0, station.stock - 1) } : station;
  const field = refilledField(stationAfter, turn.play.machine, state.field ?? initialField(station));
  const deadline = now + PLAY_TIMINGS.continueMs;
  effects.push({
    type: 'commit',
    writes: [
      {
        kind: 'recordResult',
        playId: turn.play.playId,
        reserveId: turn.holder.reserveId,
        userId: turn.holder.userId,
        result: outcome.result,
        prizeWon: won ? { productName: station.prizeName } : null,
        vipWin: won && station.stationType !== 'normal',
        gaugeMisses: practice ? null : nextAssistMisses(turn.play.gaugeMisses, outcome.result),
        machine: turn.play.machine,
        inputs: turn.play.inputs,
        dropAtTick: turn.play.dropAtTick,
        continueDeadline: deadline,
      },
      ...(won ? [{ kind: 'stock', stock: stationAfter.stock } as const] : []),
      { kind: 'field', field },
    ],
  });
  const result: Result = {
    phase: 'result',
    holder: turn.holder,
    play: { ...turn.play, ticksSinceSave: 0 },
    result: outcome.result,
    wonPrizeName: won ? station.prizeName : null,
    deadline,
  };
  effects.push(playStateOf(stationAfter, result, now));
  if (won) effects.push({ type: 'winner', userId: turn.holder.userId, prizeName: station.prizeName });
  return { ...state, station: stationAfter, field, turn: result };
}

/**
 * Stops the play on the machine for good: an unfinished one (resetting, playing, away) is refunded
 * exactly once and ends as 'refunded'; a finished one (result) just ends. Answers the refunded play.
 */
export function stopPlay(
  station: RoomStation,
  holder: Holder,
  play: PlayRun,
  finished: Result | null,
  effects: RoomEffect[],
): number | null {
  const writes: RoomWrite[] = [];
  if (!finished) writes.push(refundOf(holder.userId, play));
  writes.push({
    kind: 'closePlay',
    playId: play.playId,
    refunded: !finished,
    machine: play.machine,
    inputs: play.inputs,
  });
  effects.push({ type: 'commit', writes });
  effects.push({
    type: 'playState',
    view: endedPlayView(station, holder, play, finished ? finished.result : 'refunded', finished?.wonPrizeName ?? null),
  });
  return finished ? null : play.playId;
}
