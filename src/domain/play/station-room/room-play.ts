import { layPrizes, startPlay, type CraneState } from '../crane-machine';
import { nextAssistMisses, PLAY_TIMINGS } from '../play-loop.rule';
import { nextRunMisses } from '../staff-assist.rule';
import { endedPlayView, turnPlayView } from './room-view';
import type {
  Away,
  DrivenPlay,
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

/** A machine-driven play whose start the machine has not taken (yet). */
export const UNSTARTED: DrivenPlay = {
  startAcked: false,
  buttonDeadline: null,
  autoStopAt: null,
  holdUntil: null,
  droppedAt: null,
  homeAt: null,
  prizeSeen: false,
  wonPrizeId: null,
};

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

/**
 * A started play, from what its write answered: the room's model of the claw on the play's field
 * and seed (a mirror the agent's reports correct), its start not yet taken by the machine.
 */
export function newRun(started: StartedPlay, field: RoomField): PlayRun {
  return {
    playId: started.playId,
    currency: started.currency,
    price: started.price,
    charged: started.charged,
    armStrength: started.armStrength,
    assistLevel: started.assistLevel,
    gaugeMisses: started.gaugeMisses,
    machine: startPlay(field.prizes, started.armStrength, started.seed, true),
    inputs: [],
    dropAtTick: null,
    ticksSinceSave: 0,
    driven: UNSTARTED,
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

/** A `playState` effect for a turn that holds a play. */
export function playStateOf(station: RoomStation, turn: Resetting | Playing | Away | Result, now: number): RoomEffect {
  return { type: 'playState', view: turnPlayView(station, turn, now)! };
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
    // Misses in a row in this turn, for staff assist [R11-9].
    holder: { ...turn.holder, runMisses: nextRunMisses(turn.holder.runMisses ?? 0, outcome.result) },
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
