import { PLAY_TIMINGS } from '../play-loop.rule';
import { assistedField, mayAskAssist, STAFF_ASSIST_HOLD_MS } from '../staff-assist.rule';
import { assistMissesOf } from '../station-settings.rule';
import { advance, endIfSoldOut, lineSignature, machineReady, stationRefusal } from './room-line';
import {
  drivenBack,
  drivenClock,
  drivenControl,
  drivenGone,
  drivenGraceLapsed,
  drivenResetOver,
  startCommand,
} from './room-machine';
import { machineEvent } from './room-machine-events';
import { applySettings, operate } from './room-operator';
import { OK, PLAY, refused, type Stepped } from './room-step';
import { chargeOf, initialField, newRun, playStateOf, stopPlay } from './room-play';
import { endedPlayView, holderOf, inRun, playIdOf, roomPlayView } from './room-view';
import type {
  Holder,
  Playing,
  Result,
  RoomAnswer,
  RoomEffect,
  RoomEvent,
  RoomReply,
  RoomStep,
  RoomWrite,
  StartedPlay,
  StartResume,
  StationRoomState,
  Turn,
} from './room.types';

/**
 * The station room's rules, as one pure function: given the room's state, an event and the time,
 * the next state, the effects to carry out (store writes, a charge, pushes) in order, and the answer
 * to the caller. Every (phase, event) pair is defined; a request that does not fit the phase is
 * refused with a reason and changes nothing. docs/play.md draws the phases.
 *
 * Guarantees the tests check over any sequence of events: a play is charged only from a turn
 * that holds no unfinished play; every charged play ends exactly once, with a recorded result or
 * a refund; a charge whose outcome arrives when the room no longer expects it is refunded.
 */
export function transition(state: StationRoomState, event: RoomEvent, now: number): RoomStep {
  const effects: RoomEffect[] = [];
  const before = lineSignature(state);
  const applied = apply(state, event, now, effects);
  let next = applied.state;
  // The run that held an operator's change has ended: the change is in force before the next turn [R11-6].
  if (next.pendingSettings && !inRun(next.turn)) next = applySettings(next, now, effects).state;
  const answer = applied.answer;
  if (lineSignature(next) !== before) effects.push({ type: 'lineChanged' });
  return { state: next, effects: oneCommit(effects), answer };
}

/**
 * A step's writes as one transaction, where its first write stood: what the step changes lands
 * whole or not at all, and the world hears of it only once it has landed.
 */
function oneCommit(effects: RoomEffect[]): RoomEffect[] {
  const commits = effects.filter((e) => e.type === 'commit');
  if (commits.length <= 1) return effects;
  const writes = commits.flatMap((e) => e.writes);
  const first = effects.indexOf(commits[0]!);
  return effects.flatMap((e, i): RoomEffect[] =>
    e.type !== 'commit' ? [e] : i === first ? [{ type: 'commit', writes }] : [],
  );
}

function apply(state: StationRoomState, event: RoomEvent, now: number, effects: RoomEffect[]): Stepped {
  const turn = state.turn;
  const holder = holderOf(turn);
  const isHolder = (userId: number): boolean => holder?.userId === userId;
  switch (event.type) {
    // ---- the line: the same in every phase ------------------------------------------------------
    case 'join': {
      if (event.shopId !== undefined && event.shopId !== null && event.shopId !== state.station.shopId)
        return { state, answer: refused('stationNotFound') };
      const refusal = stationRefusal(state.station, false);
      if (refusal) return { state, answer: refused(refusal) };
      if (isHolder(event.userId) || state.line.some((w) => w.userId === event.userId))
        return { state, answer: refused('alreadyInLine') };
      effects.push({ type: 'addToLine', userId: event.userId });
      return { state, answer: OK };
    }
    case 'joined': {
      if (holder?.reserveId === event.reserveId || state.line.some((w) => w.reserveId === event.reserveId))
        return { state, answer: OK };
      const line = [
        ...state.line,
        { reserveId: event.reserveId, userId: event.userId, settingId: event.settingId, nearNotified: false },
      ];
      return { state: advance({ ...state, line }, now, effects), answer: OK };
    }
    case 'leave':
      if (event.shopId !== undefined && event.shopId !== state.station.shopId)
        return { state, answer: refused('reservationNotFound') };
      return leave(state, event.userId, event.settingId, now, effects);

    // ---- the turn and the play ------------------------------------------------------------------
    case 'confirm': {
      if (turn.phase !== 'turnOffered' || !isHolder(event.userId)) return { state, answer: refused('notYourTurn') };
      return start(state, turn, now, effects);
    }
    case 'playStarted':
      return playStarted(state, event.started, now, effects);
    case 'startRefused': {
      if (turn.phase !== 'starting') return { state, answer: OK };
      if (!turn.aborted) return { state: { ...state, turn: turn.resume }, answer: OK };
      // The station went down while the start was written: what it resumes is over too.
      let after: StationRoomState = { ...state, turn: { phase: 'idle' } };
      if (turn.resume.phase === 'result') stopPlay(state.station, turn.holder, turn.resume.play, turn.resume, effects);
      after = advance(after, now, effects);
      return { state: after, answer: OK };
    }
    case 'control':
      return control(state, event, now, effects);
    case 'continue': {
      if (!holder || holder.userId !== event.userId || playIdOf(turn) !== event.playId)
        return { state, answer: refused('notYourPlay') };
      if (turn.phase === 'result' && turn.assist) return { state, answer: refused('assistPending') };
      if (turn.phase !== 'result' || now >= turn.deadline) return { state, answer: refused('continueClosed') };
      if (state.station.paused) return { state, answer: refused('stationPaused') };
      return start(state, turn, now, effects);
    }
    case 'finish': {
      if (!holder || holder.userId !== event.userId || playIdOf(turn) !== event.playId)
        return { state, answer: refused('notYourPlay') };
      if (turn.phase !== 'result') return { state, answer: refused('playingNow') };
      return { state: endTurn(state, turn, now, effects), answer: OK };
    }
    case 'askAssist': {
      if (!holder || holder.userId !== event.userId || playIdOf(turn) !== event.playId)
        return { state, answer: refused('notYourPlay') };
      if (turn.phase !== 'result' || now >= turn.deadline) return { state, answer: refused('assistNotAvailable') };
      if (turn.assist) return { state, answer: refused('assistPending') };
      return askAssist(state, turn, now, effects);
    }
    case 'answerAssist': {
      if (turn.phase !== 'result' || !turn.assist || turn.play.playId !== event.playId)
        return { state, answer: refused('noAssist') };
      return {
        state: assistEnded(state, turn, event.answer, event.operator ?? null, now, effects),
        answer: { kind: 'operator', refundedPlayId: null },
      };
    }
    case 'look':
    case 'back': {
      const answer = event.type === 'look' ? PLAY : OK;
      if (turn.phase === 'idle' || turn.holder.userId !== event.userId) return { state, answer };
      return { state: { ...state, turn: arrived(state, turn, now, effects) }, answer };
    }
    case 'view':
      return { state, answer: { kind: 'view' } };
    case 'away': {
      if (turn.phase === 'idle' || turn.holder.userId !== event.userId || !turn.holder.present)
        return { state, answer: OK };
      if (turn.phase === 'playing')
        return { state: { ...state, turn: drivenGone(state, turn, now, effects) }, answer: OK };
      return { state: { ...state, turn: withHolder(turn, { ...turn.holder, present: false }) }, answer: OK };
    }
    case 'clock':
      return { state: timePassed(state, now, effects), answer: OK };

    // ---- the operator ---------------------------------------------------------------------------
    case 'setStatus':
    case 'restock':
    case 'prizeOut':
    case 'changeSettings':
    case 'setArmStrength':
    case 'changePrize':
    case 'endPlay':
    case 'removeFromLine':
    case 'pause':
      return operate(state, event, now, effects);
    case 'rig':
      effects.push({ type: 'rigSeed', seed: event.seed });
      return { state, answer: { kind: 'rigged', prizes: (state.field ?? initialField(state.station)).prizes } };
    case 'machineConnected':
    case 'machineReport':
    case 'machineAck':
    case 'machinePrize':
    case 'machineFault':
    case 'machineGone':
    case 'emergencyStop':
    case 'resumeMachine':
    case 'homeMachine':
      return machineEvent(state, event, now, effects);
    case 'resumed': {
      let after = state;
      if (turn.phase === 'playing' && !turn.holder.present)
        after = { ...state, turn: drivenGone(state, turn, now, effects) };
      return { state: advance(after, now, effects), answer: OK };
    }
  }
}

function withHolder<T extends Exclude<Turn, { phase: 'idle' }>>(turn: T, holder: Holder): T {
  return { ...turn, holder };
}

/** A sign of life from the holder: present again; a play waiting in its grace window runs on. */
function arrived(
  state: StationRoomState,
  turn: Exclude<Turn, { phase: 'idle' }>,
  now: number,
  effects: RoomEffect[],
): Turn {
  if (turn.phase === 'away') return drivenBack(state, turn, now, effects);
  return turn.holder.present ? turn : withHolder(turn, { ...turn.holder, present: true });
}

// ---- starting a play ---------------------------------------------------------------------------

/**
 * The holder takes the turn (confirm) or plays again (continue): the play is charged and written;
 * what the write answers comes back as `playStarted` or `startRefused`.
 */
function start(state: StationRoomState, from: StartResume, now: number, effects: RoomEffect[]): Stepped {
  const refusal = stationRefusal(state.station, true);
  if (refusal) return { state, answer: refused(refusal) };
  if (!machineReady(state.machine)) return { state, answer: refused('machineDown') };
  const field = state.field ?? initialField(state.station);
  const { currency, price } = chargeOf(state.station);
  const holder = { ...from.holder, present: true };
  const resetDeadline = now + PLAY_TIMINGS.resetMs;
  effects.push({
    type: 'startPlay',
    reserveId: holder.reserveId,
    userId: holder.userId,
    settingId: holder.settingId,
    currency,
    price,
    baseArmStrength: state.station.armStrength,
    settingsVersion: state.station.settingsVersion ?? 0,
    practice: state.station.designatedType === 'practice',
    layout: field.prizes,
    field,
    resetDeadline,
    closesPlayId: from.phase === 'result' ? from.play.playId : null,
  });
  return {
    state: {
      ...state,
      field,
      turn: { phase: 'starting', holder, resetDeadline, resume: withHolder(from, holder), aborted: false },
    },
    answer: PLAY,
  };
}

function playStarted(state: StationRoomState, started: StartedPlay, now: number, effects: RoomEffect[]): Stepped {
  const turn = state.turn;
  if (turn.phase !== 'starting') {
    // A charge the room did not wait for (it cannot happen while the room runs its events one at
    // a time; the rule stands anyway): nothing may keep money for a play that will not run.
    if (playIdOf(turn) === started.playId) return { state, answer: PLAY };
    effects.push({ type: 'commit', writes: strayRefund(started) });
    return { state, answer: OK };
  }
  const play = newRun(started, state.field ?? initialField(state.station));
  if (turn.aborted) {
    stopPlay(state.station, turn.holder, play, null, effects);
    effects.push({
      type: 'commit',
      writes: [
        { kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'maintenance' },
      ],
    });
    return { state: advance({ ...state, turn: { phase: 'idle' } }, now, effects), answer: PLAY };
  }
  // The machine takes the play's start (its credit, the simulated cabinet's field and seed).
  effects.push(startCommand(play));
  const resetting = { phase: 'resetting' as const, holder: turn.holder, play, deadline: turn.resetDeadline };
  effects.push(playStateOf(state.station, resetting, now));
  return { state: { ...state, turn: resetting }, answer: PLAY };
}

function strayRefund(started: StartedPlay): RoomWrite[] {
  return [
    {
      kind: 'refund',
      playId: started.playId,
      userId: started.userId,
      currency: started.currency,
      price: started.price,
      charged: started.charged,
    },
    { kind: 'closePlay', playId: started.playId, refunded: true, machine: null, inputs: [] },
  ];
}

// ---- the machine -------------------------------------------------------------------------------

function control(
  state: StationRoomState,
  event: Extract<RoomEvent, { type: 'control' }>,
  now: number,
  effects: RoomEffect[],
): Stepped {
  const turn = state.turn;
  const holder = holderOf(turn);
  if (!holder || holder.userId !== event.userId || playIdOf(turn) !== event.playId)
    return { state, answer: refused('notYourPlay') };
  if (turn.phase !== 'playing' && turn.phase !== 'away') return { state, answer: refused('buttonNotReady') };
  // A button from a player away from the play brings them back to it.
  const running: Playing =
    turn.phase === 'away'
      ? drivenBack(state, turn, now, effects)
      : turn.holder.present
        ? turn
        : { ...turn, holder: { ...turn.holder, present: true } };
  return drivenControl(state, running, event.button, event.command, now, effects);
}

/** A deadline or the machine's next tick fell due. */
function timePassed(state: StationRoomState, now: number, effects: RoomEffect[]): StationRoomState {
  const turn = state.turn;
  switch (turn.phase) {
    case 'idle':
    case 'starting':
      return state;
    case 'turnOffered': {
      if (now < turn.deadline) return state;
      // The confirm window ran out: the turn passes to the next in line.
      effects.push(
        {
          type: 'commit',
          writes: [
            { kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'timeout' },
          ],
        },
        { type: 'reserveCancelled', userId: turn.holder.userId, reason: 'timeout' },
      );
      return advance({ ...state, turn: { phase: 'idle' } }, now, effects);
    }
    case 'resetting':
      return now < turn.deadline ? state : drivenResetOver(state, turn, now, effects);
    case 'playing':
      return drivenClock(state, turn, now, effects);
    case 'away':
      return now < turn.graceDeadline ? state : { ...state, turn: drivenGraceLapsed(turn, now, effects) };
    case 'result':
      if (now < turn.deadline) return state;
      // A hold nobody answered in time lapses: the continue window runs again [R11-9].
      return turn.assist ? assistEnded(state, turn, 'lapsed', null, now, effects) : endTurn(state, turn, now, effects);
  }
}

// ---- staff assist [R11-9] ----------------------------------------------------------------------

/**
 * The holder asks for a staff assist after a miss, with at least the station's number of misses in
 * a row in this turn: the turn is held (the continue window stops) for at most five minutes.
 */
function askAssist(state: StationRoomState, turn: Result, now: number, effects: RoomEffect[]): Stepped {
  const misses = turn.holder.runMisses ?? 0;
  if (turn.result !== 'miss' || !mayAskAssist(assistMissesOf(state.station), misses))
    return { state, answer: refused('assistNotAvailable') };
  const deadline = now + STAFF_ASSIST_HOLD_MS;
  effects.push({
    type: 'commit',
    writes: [
      {
        kind: 'assistAsked',
        playId: turn.play.playId,
        userId: turn.holder.userId,
        reserveId: turn.holder.reserveId,
        misses,
        askedAt: now,
        deadline,
      },
    ],
  });
  const held: Result = { ...turn, deadline, assist: { askedAt: now }, assistOutcome: null };
  effects.push(playStateOf(state.station, held, now), { type: 'floorChanged' });
  return { state: { ...state, turn: held }, answer: PLAY };
}

/** The assist is answered (done, declined) or its hold lapsed: the count starts again and the continue window runs. */
function assistEnded(
  state: StationRoomState,
  turn: Result,
  outcome: 'done' | 'declined' | 'lapsed',
  operator: string | null,
  now: number,
  effects: RoomEffect[],
): StationRoomState {
  const continueDeadline = now + PLAY_TIMINGS.continueMs;
  // Done: the prize nearest the chute lies just outside it now (the next play is laid from this field).
  const field =
    outcome === 'done' && state.field ? { ...state.field, prizes: assistedField(state.field.prizes) } : state.field;
  effects.push({
    type: 'commit',
    writes: [
      { kind: 'assistEnded', playId: turn.play.playId, outcome, operator, at: now, continueDeadline },
      ...(field && field !== state.field ? [{ kind: 'field' as const, field }] : []),
    ],
  });
  const after: Result = {
    ...turn,
    holder: { ...turn.holder, runMisses: 0 },
    deadline: continueDeadline,
    assist: null,
    assistOutcome: outcome,
  };
  effects.push(playStateOf(state.station, after, now), { type: 'floorChanged' });
  return { ...state, field, turn: after };
}

// ---- ending ------------------------------------------------------------------------------------

/** The turn is over after a result: the play closes, the reservation ends, the line moves on. */
function endTurn(state: StationRoomState, turn: Result, now: number, effects: RoomEffect[]): StationRoomState {
  effects.push({
    type: 'commit',
    writes: [
      {
        kind: 'closePlay',
        playId: turn.play.playId,
        refunded: false,
        machine: turn.play.machine,
        inputs: turn.play.inputs,
      },
      { kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'played' },
    ],
  });
  effects.push({
    type: 'playState',
    view: endedPlayView(state.station, turn.holder, turn.play, turn.result, turn.wonPrizeName),
  });
  const after = endIfSoldOut({ ...state, turn: { phase: 'idle' } }, effects);
  return advance(after, now, effects);
}

/** A player gives up their place: waiting, or holding a turn not yet confirmed. */
function leave(
  state: StationRoomState,
  userId: number,
  settingId: number,
  now: number,
  effects: RoomEffect[],
): Stepped {
  const waiting = state.line.find((w) => w.userId === userId && w.settingId === settingId);
  if (waiting) {
    effects.push({
      type: 'commit',
      writes: [{ kind: 'endReservations', reserveIds: [waiting.reserveId], status: 'cancel', reason: 'user_cancel' }],
    });
    const line = state.line.filter((w) => w !== waiting);
    return { state: advance({ ...state, line }, now, effects), answer: { kind: 'left', reserveId: waiting.reserveId } };
  }
  const turn = state.turn;
  if (turn.phase === 'idle' || turn.holder.userId !== userId || turn.holder.settingId !== settingId)
    return { state, answer: refused('reservationNotFound') };
  if (turn.phase !== 'turnOffered') return { state, answer: refused('playingNow') };
  effects.push({
    type: 'commit',
    writes: [{ kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'user_cancel' }],
  });
  return {
    state: advance({ ...state, turn: { phase: 'idle' } }, now, effects),
    answer: { kind: 'left', reserveId: turn.holder.reserveId },
  };
}

/**
 * The answer an event's caller gets, once the event and every outcome it led to are taken: a
 * `play` answer names the caller's play on the machine (null when they hold none), a `view` the
 * play on the machine for anyone. Data only: it may travel from the instance running the room.
 */
export function stationReply(state: StationRoomState, event: RoomEvent, answer: RoomAnswer, now: number): RoomReply {
  if (answer.kind === 'view') return { kind: 'play', play: roomPlayView(state, now) };
  if (answer.kind !== 'play') return answer;
  const caller = 'userId' in event ? event.userId : null;
  return {
    kind: 'play',
    play: caller !== null && holderOf(state.turn)?.userId === caller ? roomPlayView(state, now) : null,
  };
}
