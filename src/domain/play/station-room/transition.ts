import { command as craneCommand, machineView } from '../crane-machine';
import { PLAY_TIMINGS } from '../play-loop.rule';
import { isMaintenanceStatus } from '../../reservation/reservation.entity';
import { advance, endLine, lineSignature, stationRefusal } from './room-line';
import {
  backFromAway,
  chargeOf,
  checkpointOf,
  goneWhilePlaying,
  graceLapsed,
  initialField,
  machineStarts,
  machineTicks,
  newRun,
  playStateOf,
  stopPlay,
} from './room-play';
import { endedPlayView, holderOf } from './room-view';
import type {
  Holder,
  Playing,
  Result,
  RoomAnswer,
  RoomEffect,
  RoomEvent,
  RoomRefusal,
  RoomStep,
  RoomWrite,
  StartedPlay,
  StartResume,
  StationRoomState,
  Turn,
} from './room.types';

const OK: RoomAnswer = { kind: 'ok' };
const PLAY: RoomAnswer = { kind: 'play' };
const refused = (refusal: RoomRefusal): RoomAnswer => ({ kind: 'refused', refusal });

interface Partial {
  readonly state: StationRoomState;
  readonly answer: RoomAnswer;
}

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
  const { state: next, answer } = apply(state, event, now, effects);
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

function apply(state: StationRoomState, event: RoomEvent, now: number, effects: RoomEffect[]): Partial {
  const turn = state.turn;
  const holder = holderOf(turn);
  const isHolder = (userId: number): boolean => holder?.userId === userId;
  switch (event.type) {
    // ---- the line: the same in every phase ------------------------------------------------------
    case 'join': {
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
    case 'look':
    case 'back': {
      const answer = event.type === 'look' ? PLAY : OK;
      if (turn.phase === 'idle' || turn.holder.userId !== event.userId) return { state, answer };
      return { state: { ...state, turn: arrived(state, turn, now, effects) }, answer };
    }
    case 'away': {
      if (turn.phase === 'idle' || turn.holder.userId !== event.userId || !turn.holder.present)
        return { state, answer: OK };
      if (turn.phase === 'playing')
        return { state: { ...state, turn: goneWhilePlaying(turn, now, effects, state.station) }, answer: OK };
      return { state: { ...state, turn: withHolder(turn, { ...turn.holder, present: false }) }, answer: OK };
    }
    case 'clock':
      return { state: timePassed(state, now, effects), answer: OK };

    // ---- the operator ---------------------------------------------------------------------------
    case 'setStatus': {
      const { state: after, refundedPlayId } = setStatus(state, event.status, now, effects);
      return { state: after, answer: { kind: 'operator', refundedPlayId } };
    }
    case 'restock': {
      let after: StationRoomState = { ...state, station: { ...state.station, stock: event.stock } };
      effects.push({ type: 'commit', writes: [{ kind: 'stock', stock: event.stock }] });
      after = event.stock === 0 ? endIfSoldOut(after, effects) : advance(after, now, effects);
      return { state: after, answer: { kind: 'operator', refundedPlayId: null } };
    }
    case 'setArmStrength': {
      effects.push({ type: 'commit', writes: [{ kind: 'armStrength', armStrength: event.armStrength }] });
      return {
        state: { ...state, station: { ...state.station, armStrength: event.armStrength } },
        answer: { kind: 'operator', refundedPlayId: null },
      };
    }
    case 'changePrize': {
      // 'change' ends the play (refunded when unfinished) and the line [R4.3-3]; then the new prize, then open.
      const stopped = setStatus(state, 'change', now, effects);
      const { prize } = event;
      effects.push({ type: 'commit', writes: [{ kind: 'prize', prize }] });
      const changed: StationRoomState = {
        ...stopped.state,
        field: null,
        station: {
          ...stopped.state.station,
          prizeName: prize.prizeName,
          prizeShape: prize.prizeShape,
          stock: prize.stock,
          armStrength: prize.armStrength ?? stopped.state.station.armStrength,
        },
      };
      const opened = setStatus(changed, 'open', now, effects);
      return { state: opened.state, answer: { kind: 'operator', refundedPlayId: stopped.refundedPlayId } };
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
    case 'resumed': {
      let after = state;
      if (turn.phase === 'playing' && !turn.holder.present)
        after = { ...state, turn: goneWhilePlaying(turn, now, effects, state.station) };
      return { state: advance(after, now, effects), answer: OK };
    }
  }
}

const playIdOf = (turn: Turn): number | null =>
  turn.phase === 'resetting' || turn.phase === 'playing' || turn.phase === 'away' || turn.phase === 'result'
    ? turn.play.playId
    : turn.phase === 'starting' && turn.resume.phase === 'result'
      ? turn.resume.play.playId
      : null;

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
  if (turn.phase === 'away') return backFromAway(turn, now, effects, state.station);
  return turn.holder.present ? turn : withHolder(turn, { ...turn.holder, present: true });
}

// ---- starting a play ---------------------------------------------------------------------------

/**
 * The holder takes the turn (confirm) or plays again (continue): the play is charged and written;
 * what the write answers comes back as `playStarted` or `startRefused`.
 */
function start(state: StationRoomState, from: StartResume, now: number, effects: RoomEffect[]): Partial {
  const refusal = stationRefusal(state.station, true);
  if (refusal) return { state, answer: refused(refusal) };
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

function playStarted(state: StationRoomState, started: StartedPlay, now: number, effects: RoomEffect[]): Partial {
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
): Partial {
  const turn = state.turn;
  const holder = holderOf(turn);
  if (!holder || holder.userId !== event.userId || playIdOf(turn) !== event.playId)
    return { state, answer: refused('notYourPlay') };
  if (turn.phase !== 'playing' && turn.phase !== 'away') return { state, answer: refused('buttonNotReady') };
  // A button from a player away from the play brings them back to it.
  const running: Playing =
    turn.phase === 'away'
      ? backFromAway(turn, now, effects, state.station)
      : turn.holder.present
        ? turn
        : { ...turn, holder: { ...turn.holder, present: true } };
  const moved = craneCommand(running.play.machine, event.button, event.command);
  if (!moved) return { state: { ...state, turn: running }, answer: refused('buttonNotReady') };
  const play = {
    ...running.play,
    machine: moved,
    inputs: [...running.play.inputs, { tick: running.play.machine.tick, button: event.button, command: event.command }],
    ticksSinceSave: 0,
  };
  const next: Playing = { ...running, play };
  effects.push({ type: 'checkpoint', write: checkpointOf(play, null) });
  effects.push(playStateOf(state.station, next, now));
  return {
    state: { ...state, turn: next },
    answer: { kind: 'control', tick: moved.tick, machine: machineView(moved) },
  };
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
      return now < turn.deadline ? state : { ...state, turn: machineStarts(turn, now, effects, state.station) };
    case 'playing':
      return now < turn.nextTickAt ? state : machineTicks(state, turn, now, effects);
    case 'away':
      return now < turn.graceDeadline ? state : { ...state, turn: graceLapsed(turn, now, effects) };
    case 'result':
      return now < turn.deadline ? state : endTurn(state, turn, now, effects);
  }
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

/** A station whose last prize is gone: nobody behind can play it; each place ends with 'change'. */
function endIfSoldOut(state: StationRoomState, effects: RoomEffect[]): StationRoomState {
  if (state.station.stock > 0 || state.station.designatedType === 'practice') return state;
  // A play under way finishes; a turn only offered ends with the line.
  const offered = state.turn.phase === 'turnOffered';
  const after = endLine(state, 'change', 'prize_change', effects, offered);
  return offered ? { ...after, turn: { phase: 'idle' } } : after;
}

/** A player gives up their place: waiting, or holding a turn not yet confirmed. */
function leave(
  state: StationRoomState,
  userId: number,
  settingId: number,
  now: number,
  effects: RoomEffect[],
): Partial {
  const waiting = state.line.find((w) => w.userId === userId && w.settingId === settingId);
  if (waiting) {
    effects.push({
      type: 'commit',
      writes: [{ kind: 'endReservations', reserveIds: [waiting.reserveId], status: 'cancel', reason: 'user_cancel' }],
    });
    const line = state.line.filter((w) => w !== waiting);
    return { state: advance({ ...state, line }, now, effects), answer: OK };
  }
  const turn = state.turn;
  if (turn.phase === 'idle' || turn.holder.userId !== userId || turn.holder.settingId !== settingId)
    return { state, answer: refused('reservationNotFound') };
  if (turn.phase !== 'turnOffered') return { state, answer: refused('playingNow') };
  effects.push({
    type: 'commit',
    writes: [{ kind: 'endReservations', reserveIds: [turn.holder.reserveId], status: 'cancel', reason: 'user_cancel' }],
  });
  return { state: advance({ ...state, turn: { phase: 'idle' } }, now, effects), answer: OK };
}

/**
 * The operator ends the turn on the machine: a play under way stops (refunded exactly once when
 * unfinished), an offered turn is withdrawn, a continue being charged is refunded when it lands;
 * the holder's place ends ('operator') and they are told; the line moves on. The status stays.
 */
function endHolder(state: StationRoomState, now: number, effects: RoomEffect[]): Partial {
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
  const after = advance({ ...state, turn: { phase: 'idle' } }, now, effects);
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
    };
  }
  effects.push({ type: 'stationStatus', status });
  if (status === 'open') after = advance(after, now, effects);
  return { state: after, refundedPlayId };
}
