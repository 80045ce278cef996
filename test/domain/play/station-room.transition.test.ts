import { describe, expect, it } from 'vitest';
import {
  MACHINE_TIMINGS,
  PLAY_TIMINGS,
  ROOM_EVENT_TYPES,
  ROOM_PHASES,
  stationReply,
  transition,
  type MachinePhase,
  type MachineReport,
  type RoomAnswer,
  type RoomEffect,
  type RoomEvent,
  type RoomEventType,
  type RoomPhase,
  type RoomWrite,
  type StationRoomState,
} from '../../../src/domain';
import {
  aRoom,
  aRun,
  aStation,
  HOLDER,
  IDLE_REPORT,
  PLAY_ID,
  READY,
  STARTED,
  STRANGER,
  T0,
  TURNS,
  WAITING,
} from './station-room.fixtures';

/** Before every deadline of the fixtures, and after all of them (for `clock`). */
const EARLY = T0 + 1000;
const LATE = T0 + PLAY_TIMINGS.graceMs + 60_000;

/** One representative event of each type, from the holder where an event has a caller. */
const EVENTS: Record<RoomEventType, RoomEvent> = {
  join: { type: 'join', userId: HOLDER.userId },
  joined: { type: 'joined', reserveId: 300, userId: 30, settingId: 7 },
  leave: { type: 'leave', userId: HOLDER.userId, settingId: HOLDER.settingId },
  confirm: { type: 'confirm', userId: HOLDER.userId },
  playStarted: {
    type: 'playStarted',
    started: {
      playId: PLAY_ID,
      userId: HOLDER.userId,
      currency: 'tc',
      price: 100,
      seed: 42,
      armStrength: 0.5,
      assistLevel: 0,
      gaugeMisses: 0,
      charged: { free: 100, toll: 0 },
    },
  },
  startRefused: { type: 'startRefused' },
  control: { type: 'control', userId: HOLDER.userId, playId: PLAY_ID, button: 'right', command: 'press' },
  continue: { type: 'continue', userId: HOLDER.userId, playId: PLAY_ID },
  finish: { type: 'finish', userId: HOLDER.userId, playId: PLAY_ID },
  askAssist: { type: 'askAssist', userId: HOLDER.userId, playId: PLAY_ID },
  answerAssist: { type: 'answerAssist', playId: PLAY_ID, answer: 'done', operator: 'floor' },
  look: { type: 'look', userId: HOLDER.userId },
  view: { type: 'view' },
  away: { type: 'away', userId: HOLDER.userId },
  back: { type: 'back', userId: HOLDER.userId },
  clock: { type: 'clock' },
  setStatus: { type: 'setStatus', status: 'malfunction' },
  restock: { type: 'restock', stock: 3 },
  prizeOut: { type: 'prizeOut' },
  changeSettings: {
    type: 'changeSettings',
    patch: { armStrength: 0.3, playPrice: 120 },
    reason: 'adjustment',
    operator: 'floor',
  },
  setArmStrength: { type: 'setArmStrength', armStrength: 0.8 },
  changePrize: { type: 'changePrize', prize: { prizeName: 'Cat plush', prizeShape: 'plush', stock: 4 } },
  endPlay: { type: 'endPlay', playId: PLAY_ID },
  removeFromLine: { type: 'removeFromLine', userId: HOLDER.userId },
  pause: { type: 'pause', paused: true },
  rig: { type: 'rig', seed: 7 },
  resumed: { type: 'resumed' },
  machineConnected: { type: 'machineConnected' },
  machineReport: {
    type: 'machineReport',
    report: { playId: null, phase: 'idle', sensor: 'clear', stopped: false, position: null, sim: null },
  },
  machineAck: { type: 'machineAck', command: { type: 'home' }, ok: true, reason: null, tick: null },
  machinePrize: { type: 'machinePrize', playId: PLAY_ID, prizeId: 1 },
  machineFault: { type: 'machineFault', code: 'motor' },
  machineGone: { type: 'machineGone', reason: 'silent' },
  emergencyStop: { type: 'emergencyStop' },
  resumeMachine: { type: 'resumeMachine' },
  homeMachine: { type: 'homeMachine' },
};

/**
 * Every (phase, event) pair: the phase after the step and the answer (a refusal by its reason).
 * The idle room's line is empty; every other room has a player waiting behind the holder, so a
 * turn that ends is handed on ('turnOffered' again, to the next player) — when the machine is
 * ready: a play that ends before its result leaves the claw with it (the machine's last report
 * names it), so the next turn waits for the machine to report itself idle ('idle'). A fault, the
 * agent gone or the emergency stop takes the station down: a play under way is refunded, an offered
 * turn goes back to the line. `resumeMachine` with no emergency stop, and `homeMachine` while a
 * play is started or held, do not fit ('machineBusy').
 */
const TABLE: Record<RoomPhase, Record<RoomEventType, string>> = {
  idle: {
    join: 'idle ok',
    joined: 'turnOffered ok',
    leave: 'idle reservationNotFound',
    confirm: 'idle notYourTurn',
    playStarted: 'idle ok',
    startRefused: 'idle ok',
    control: 'idle notYourPlay',
    continue: 'idle notYourPlay',
    finish: 'idle notYourPlay',
    askAssist: 'idle notYourPlay',
    answerAssist: 'idle noAssist',
    look: 'idle play',
    view: 'idle view',
    away: 'idle ok',
    back: 'idle ok',
    clock: 'idle ok',
    setStatus: 'idle operator',
    restock: 'idle operator',
    prizeOut: 'idle operator',
    changeSettings: 'idle operator',
    setArmStrength: 'idle operator',
    changePrize: 'idle operator',
    endPlay: 'idle noPlay',
    removeFromLine: 'idle reservationNotFound',
    pause: 'idle operator',
    rig: 'idle rigged',
    resumed: 'idle ok',
    machineConnected: 'idle ok',
    machineReport: 'idle ok',
    machineAck: 'idle ok',
    machinePrize: 'idle ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'idle machineBusy',
    homeMachine: 'idle operator',
  },
  turnOffered: {
    join: 'turnOffered alreadyInLine',
    joined: 'turnOffered ok',
    leave: 'turnOffered left',
    confirm: 'starting play',
    playStarted: 'turnOffered ok',
    startRefused: 'turnOffered ok',
    control: 'turnOffered notYourPlay',
    continue: 'turnOffered notYourPlay',
    finish: 'turnOffered notYourPlay',
    askAssist: 'turnOffered notYourPlay',
    answerAssist: 'turnOffered noAssist',
    look: 'turnOffered play',
    view: 'turnOffered view',
    away: 'turnOffered ok',
    back: 'turnOffered ok',
    clock: 'turnOffered ok',
    setStatus: 'idle operator',
    restock: 'turnOffered operator',
    prizeOut: 'turnOffered operator',
    changeSettings: 'turnOffered operator',
    setArmStrength: 'turnOffered operator',
    changePrize: 'idle operator',
    endPlay: 'turnOffered noPlay',
    removeFromLine: 'turnOffered operator',
    pause: 'turnOffered operator',
    rig: 'turnOffered rigged',
    resumed: 'turnOffered ok',
    machineConnected: 'turnOffered ok',
    machineReport: 'turnOffered ok',
    machineAck: 'turnOffered ok',
    machinePrize: 'turnOffered ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'turnOffered machineBusy',
    homeMachine: 'turnOffered operator',
  },
  starting: {
    join: 'starting alreadyInLine',
    joined: 'starting ok',
    leave: 'starting playingNow',
    confirm: 'starting notYourTurn',
    playStarted: 'resetting play',
    startRefused: 'turnOffered ok',
    control: 'starting notYourPlay',
    continue: 'starting notYourPlay',
    finish: 'starting notYourPlay',
    askAssist: 'starting notYourPlay',
    answerAssist: 'starting noAssist',
    look: 'starting play',
    view: 'starting view',
    away: 'starting ok',
    back: 'starting ok',
    clock: 'starting ok',
    setStatus: 'starting operator',
    restock: 'starting operator',
    prizeOut: 'starting operator',
    changeSettings: 'starting operator',
    setArmStrength: 'starting operator',
    changePrize: 'starting operator',
    endPlay: 'starting noPlay',
    removeFromLine: 'starting operator',
    pause: 'starting operator',
    rig: 'starting rigged',
    resumed: 'starting ok',
    machineConnected: 'starting ok',
    machineReport: 'starting ok',
    machineAck: 'starting ok',
    machinePrize: 'starting ok',
    machineFault: 'starting ok',
    machineGone: 'starting ok',
    emergencyStop: 'starting operator',
    resumeMachine: 'starting machineBusy',
    homeMachine: 'starting machineBusy',
  },
  resetting: {
    join: 'resetting alreadyInLine',
    joined: 'resetting ok',
    leave: 'resetting playingNow',
    confirm: 'resetting notYourTurn',
    playStarted: 'resetting play',
    startRefused: 'resetting ok',
    control: 'resetting buttonNotReady',
    continue: 'resetting continueClosed',
    finish: 'resetting playingNow',
    askAssist: 'resetting assistNotAvailable',
    answerAssist: 'resetting noAssist',
    look: 'resetting play',
    view: 'resetting view',
    away: 'resetting ok',
    back: 'resetting ok',
    clock: 'playing ok',
    setStatus: 'idle operator',
    restock: 'resetting operator',
    prizeOut: 'resetting operator',
    changeSettings: 'resetting operator',
    setArmStrength: 'resetting operator',
    changePrize: 'resetting operator',
    endPlay: 'idle operator',
    removeFromLine: 'idle operator',
    pause: 'resetting operator',
    rig: 'resetting rigged',
    resumed: 'resetting ok',
    machineConnected: 'resetting ok',
    machineReport: 'resetting ok',
    machineAck: 'resetting ok',
    machinePrize: 'resetting ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'resetting machineBusy',
    homeMachine: 'resetting machineBusy',
  },
  playing: {
    join: 'playing alreadyInLine',
    joined: 'playing ok',
    leave: 'playing playingNow',
    confirm: 'playing notYourTurn',
    playStarted: 'playing play',
    startRefused: 'playing ok',
    control: 'playing control',
    continue: 'playing continueClosed',
    finish: 'playing playingNow',
    askAssist: 'playing assistNotAvailable',
    answerAssist: 'playing noAssist',
    look: 'playing play',
    view: 'playing view',
    away: 'away ok',
    back: 'playing ok',
    clock: 'playing ok',
    setStatus: 'idle operator',
    restock: 'playing operator',
    prizeOut: 'playing operator',
    changeSettings: 'playing operator',
    setArmStrength: 'playing operator',
    changePrize: 'playing operator',
    endPlay: 'idle operator',
    removeFromLine: 'idle operator',
    pause: 'playing operator',
    rig: 'playing rigged',
    resumed: 'playing ok',
    machineConnected: 'playing ok',
    machineReport: 'playing ok',
    machineAck: 'playing ok',
    machinePrize: 'playing ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'playing machineBusy',
    homeMachine: 'playing machineBusy',
  },
  away: {
    join: 'away alreadyInLine',
    joined: 'away ok',
    leave: 'away playingNow',
    confirm: 'away notYourTurn',
    playStarted: 'away play',
    startRefused: 'away ok',
    control: 'playing control',
    continue: 'away continueClosed',
    finish: 'away playingNow',
    askAssist: 'away assistNotAvailable',
    answerAssist: 'away noAssist',
    look: 'playing play',
    view: 'away view',
    away: 'away ok',
    back: 'playing ok',
    clock: 'playing ok',
    setStatus: 'idle operator',
    restock: 'away operator',
    prizeOut: 'away operator',
    changeSettings: 'away operator',
    setArmStrength: 'away operator',
    changePrize: 'away operator',
    endPlay: 'idle operator',
    removeFromLine: 'idle operator',
    pause: 'away operator',
    rig: 'away rigged',
    resumed: 'away ok',
    machineConnected: 'away ok',
    machineReport: 'away ok',
    machineAck: 'away ok',
    machinePrize: 'away ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'away machineBusy',
    homeMachine: 'away machineBusy',
  },
  result: {
    join: 'result alreadyInLine',
    joined: 'result ok',
    leave: 'result playingNow',
    confirm: 'result notYourTurn',
    playStarted: 'result play',
    startRefused: 'result ok',
    control: 'result buttonNotReady',
    continue: 'starting play',
    finish: 'turnOffered ok',
    askAssist: 'result assistNotAvailable',
    answerAssist: 'result noAssist',
    look: 'result play',
    view: 'result view',
    away: 'result ok',
    back: 'result ok',
    clock: 'turnOffered ok',
    setStatus: 'idle operator',
    restock: 'result operator',
    prizeOut: 'result operator',
    changeSettings: 'result operator',
    setArmStrength: 'result operator',
    changePrize: 'result operator',
    endPlay: 'turnOffered operator',
    removeFromLine: 'turnOffered operator',
    pause: 'result operator',
    rig: 'result rigged',
    resumed: 'result ok',
    machineConnected: 'result ok',
    machineReport: 'result ok',
    machineAck: 'result ok',
    machinePrize: 'result ok',
    machineFault: 'idle ok',
    machineGone: 'idle ok',
    emergencyStop: 'idle operator',
    resumeMachine: 'result machineBusy',
    homeMachine: 'result machineBusy',
  },
};

/** The writes that give back what the fixtures' running play took and close it as refunded. */
const refundAndCloseOfThePlay = (): RoomWrite[] => [
  {
    kind: 'refund',
    playId: PLAY_ID,
    userId: HOLDER.userId,
    currency: 'tc',
    price: 100,
    charged: { free: 60, toll: 40 },
  },
  { kind: 'closePlay', playId: PLAY_ID, refunded: true, machine: aRun().machine, inputs: [] },
];

const answerText = (a: RoomAnswer): string => (a.kind === 'refused' ? a.refusal : a.kind);
const writesOf = (effects: readonly RoomEffect[]): RoomWrite[] =>
  effects.flatMap((e) => (e.type === 'commit' ? e.writes : e.type === 'checkpoint' ? [e.write] : []));
/** The store writes of a step's one transaction (its checkpoints left out). */
const commitsOf = (effects: readonly RoomEffect[]): RoomWrite[] =>
  effects.flatMap((e) => (e.type === 'commit' ? e.writes : []));
const commandsOf = (effects: readonly RoomEffect[]) =>
  effects.flatMap((e) => (e.type === 'machineCommand' ? [e.command] : []));

/** The agent's report of the claw in `phase` on the fixtures' play. */
const report = (phase: MachinePhase, over: Partial<MachineReport> = {}): RoomEvent => ({
  type: 'machineReport',
  report: { ...IDLE_REPORT, playId: PLAY_ID, phase, ...over },
});
/** The agent's report of the claw home, no play on the machine and the chute clear. */
const HOME: RoomEvent = { type: 'machineReport', report: IDLE_REPORT };
/** The fixtures' play with its claw in `phase`, dropped at `droppedAt` (null: still waiting for a button). */
const runIn = (phase: 'waitBack' | 'dropping' | 'returning', droppedAt: number | null, tick = 0) =>
  aRun({ machine: { ...aRun().machine, phase, tick }, driven: { ...STARTED, buttonDeadline: null, droppedAt } });

describe('[R10-1] a station room as one pure state machine (every phase × every event)', () => {
  for (const phase of ROOM_PHASES) {
    for (const type of ROOM_EVENT_TYPES) {
      it(`${phase} × ${type} → ${TABLE[phase][type]}`, () => {
        const step = transition(aRoom(TURNS[phase]), EVENTS[type], type === 'clock' ? LATE : EARLY);
        expect(`${step.state.turn.phase} ${answerText(step.answer)}`).toBe(TABLE[phase][type]);
        // A step writes at most once: one transaction, before the world is told.
        expect(step.effects.filter((e) => e.type === 'commit').length).toBeLessThanOrEqual(1);
      });
    }
  }

  it('a clock that strikes before any deadline changes nothing', () => {
    // The room does not tick the machine: a play under way changes only at its button deadlines.
    for (const phase of ROOM_PHASES) {
      const room = aRoom(TURNS[phase]);
      expect(transition(room, { type: 'clock' }, EARLY)).toEqual({ state: room, effects: [], answer: { kind: 'ok' } });
    }
  });

  it("nobody but the holder moves a turn: a stranger's calls change nothing in any phase", () => {
    const stranger: RoomEvent[] = [
      { type: 'leave', userId: STRANGER, settingId: 7 },
      { type: 'confirm', userId: STRANGER },
      { type: 'control', userId: STRANGER, playId: PLAY_ID, button: 'right', command: 'press' },
      { type: 'continue', userId: STRANGER, playId: PLAY_ID },
      { type: 'finish', userId: STRANGER, playId: PLAY_ID },
      { type: 'look', userId: STRANGER },
      { type: 'away', userId: STRANGER },
      { type: 'back', userId: STRANGER },
    ];
    for (const phase of ROOM_PHASES) {
      for (const event of stranger) {
        const room = aRoom(TURNS[phase]);
        const step = transition(room, event, EARLY);
        expect(step.state, `${phase} × ${event.type}`).toBe(room);
        expect(step.effects, `${phase} × ${event.type}`).toEqual([]);
        expect(['ok', 'play', 'refused']).toContain(step.answer.kind);
      }
    }
  });

  it('a play id that is not the running one is refused (403), in every phase that holds a play', () => {
    for (const phase of ['resetting', 'playing', 'away', 'result'] as const) {
      for (const type of ['control', 'continue', 'finish'] as const) {
        const event = { ...EVENTS[type], playId: PLAY_ID + 1 } as RoomEvent;
        expect(transition(aRoom(TURNS[phase]), event, EARLY).answer).toEqual({
          kind: 'refused',
          refusal: 'notYourPlay',
        });
      }
    }
  });
});

describe('[R10-1] the turn, step by step', () => {
  it('a place is taken through the store (addToLine); the station refuses first: maintenance 531, a prize change, sold out', () => {
    expect(transition(aRoom(TURNS.idle), { type: 'join', userId: 5 }, EARLY).effects).toEqual([
      { type: 'addToLine', userId: 5 },
    ]);
    const refusal = (station: Partial<StationRoomState['station']>) =>
      transition(aRoom(TURNS.idle, { station: aStation(station) }), { type: 'join', userId: 5 }, EARLY).answer;
    expect(refusal({ status: 'maintenance' })).toEqual({ kind: 'refused', refusal: 'stationMaintenance' });
    expect(refusal({ status: 'change' })).toEqual({ kind: 'refused', refusal: 'prizeChanging' });
    expect(refusal({ stock: 0 })).toEqual({ kind: 'refused', refusal: 'soldOut' });
    expect(transition(aRoom(TURNS.playing), { type: 'join', userId: WAITING.userId }, EARLY).answer).toEqual({
      kind: 'refused',
      refusal: 'alreadyInLine',
    });
  });

  it('the first in line at an idle station has the turn at once, with a confirm window and "your turn"', () => {
    const step = transition(aRoom(TURNS.idle), EVENTS.joined, EARLY);
    expect(step.state.turn).toEqual({
      phase: 'turnOffered',
      holder: { reserveId: 300, userId: 30, settingId: 7, present: true },
      deadline: EARLY + PLAY_TIMINGS.confirmMs,
    });
    expect(step.effects).toEqual([
      { type: 'commit', writes: [{ kind: 'offerTurn', reserveId: 300, deadline: EARLY + PLAY_TIMINGS.confirmMs }] },
      { type: 'turnNow', userId: 30 },
      { type: 'lineChanged' },
    ]);
  });

  it('places near the turn are told once ("your turn is near" at place 2 or less)', () => {
    const room = aRoom(TURNS.playing, { line: [] });
    const first = transition(room, { type: 'joined', reserveId: 301, userId: 31, settingId: 7 }, EARLY);
    expect(first.effects).toContainEqual({ type: 'turnNear', userId: 31, place: 2 });
    const second = transition(first.state, { type: 'joined', reserveId: 302, userId: 32, settingId: 7 }, EARLY);
    expect(second.effects.filter((e) => e.type === 'turnNear')).toEqual([]);
  });

  it('confirm charges through startPlay (price, the field, the reset window); its outcome sends the machine the start and starts the reset', () => {
    const room = aRoom(TURNS.turnOffered, { field: null });
    const confirmed = transition(room, EVENTS.confirm, EARLY);
    const start = confirmed.effects.find((e) => e.type === 'startPlay');
    expect(start).toMatchObject({
      type: 'startPlay',
      reserveId: HOLDER.reserveId,
      userId: HOLDER.userId,
      currency: 'tc',
      price: 100,
      practice: false,
      resetDeadline: EARLY + PLAY_TIMINGS.resetMs,
      closesPlayId: null,
    });
    // The first play lays the field, and the field is saved with the play.
    expect(confirmed.state.field).not.toBeNull();
    expect(start).toMatchObject({ layout: confirmed.state.field!.prizes, field: confirmed.state.field });
    const started = transition(confirmed.state, EVENTS.playStarted, EARLY + 30);
    expect(started.state.turn).toMatchObject({
      phase: 'resetting',
      deadline: EARLY + PLAY_TIMINGS.resetMs,
      play: { driven: { startAcked: false } },
    });
    // The machine takes the play's credit, with the field and the seed it was charged with (the
    // simulated cabinet plays them), before the player is shown the reset.
    expect(started.effects.map((e) => e.type)).toEqual(['machineCommand', 'playState', 'lineChanged']);
    expect(commandsOf(started.effects)).toEqual([
      { type: 'start', playId: PLAY_ID, armStrength: 0.5, sim: { seed: 42, layout: confirmed.state.field!.prizes } },
    ]);
  });

  it('a refused start (too little TC) keeps the turn and its window; nothing is written', () => {
    const confirmed = transition(aRoom(TURNS.turnOffered), EVENTS.confirm, EARLY);
    const refused = transition(confirmed.state, EVENTS.startRefused, EARLY + 30);
    expect(refused.state.turn).toEqual(TURNS.turnOffered);
    expect(refused.effects).toEqual([]);
  });

  it('practice plays are free and point-ticket plays cost one ticket', () => {
    const charge = (designatedType: 'practice' | 'point_ticket') =>
      transition(aRoom(TURNS.turnOffered, { station: aStation({ designatedType }) }), EVENTS.confirm, EARLY).effects[0];
    expect(charge('practice')).toMatchObject({ currency: 'free', price: 0, practice: true });
    expect(charge('point_ticket')).toMatchObject({ currency: 'ticket', price: 1, practice: false });
  });

  it('the confirm window lapses: the reservation ends (timeout), the player is told, the next in line has the turn', () => {
    const step = transition(aRoom(TURNS.turnOffered), { type: 'clock' }, T0 + PLAY_TIMINGS.confirmMs);
    expect(writesOf(step.effects)).toEqual([
      { kind: 'endReservations', reserveIds: [HOLDER.reserveId], status: 'cancel', reason: 'timeout' },
      { kind: 'offerTurn', reserveId: WAITING.reserveId, deadline: T0 + 2 * PLAY_TIMINGS.confirmMs },
    ]);
    expect(step.effects).toContainEqual({ type: 'reserveCancelled', userId: HOLDER.userId, reason: 'timeout' });
    expect(step.effects).toContainEqual({ type: 'turnNow', userId: WAITING.userId });
    expect(step.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
  });

  it('the reset ends once the machine took the start: the buttons wake with a whole limit; a start not taken holds them within its bound, then the play is refunded', () => {
    const end = T0 + PLAY_TIMINGS.resetMs;
    const taken = transition(aRoom(TURNS.resetting), { type: 'clock' }, end);
    expect(taken.state.turn).toMatchObject({
      phase: 'playing',
      play: { machine: { phase: 'ready' }, driven: { buttonDeadline: end + PLAY_TIMINGS.buttonLimitMs } },
    });
    expect(writesOf(taken.effects).map((w) => w.kind)).toEqual(['playRunning']);
    // Not taken yet (the machine still reports itself idle): the buttons wait for its ack.
    const play = aRun({ driven: { ...STARTED, startAcked: false, buttonDeadline: null } });
    const unacked = aRoom({ ...TURNS.resetting, play }, { machine: READY });
    expect(transition(unacked, { type: 'clock' }, end)).toEqual({
      state: unacked,
      effects: [],
      answer: { kind: 'ok' },
    });
    const start = {
      type: 'start',
      playId: PLAY_ID,
      armStrength: 0.5,
      sim: { seed: 42, layout: play.machine.prizes },
    } as const;
    const acked = transition(
      unacked,
      { type: 'machineAck', command: start, ok: true, reason: null, tick: 0 },
      end + 800,
    );
    expect(acked.state.turn).toMatchObject({
      phase: 'playing',
      play: { driven: { startAcked: true, buttonDeadline: end + 800 + PLAY_TIMINGS.buttonLimitMs } },
    });
    // Never taken: past its bound the machine is at fault and the play is refunded, once.
    const late = transition(unacked, { type: 'clock' }, end + MACHINE_TIMINGS.startMs);
    expect(late.state).toMatchObject({ turn: { phase: 'idle' }, line: [WAITING], machine: { fault: 'start_timeout' } });
    expect(writesOf(late.effects).filter((w) => w.kind === 'refund')).toHaveLength(1);
  });

  it('the reset ends with the player gone: the claw waits for them in the grace window, its button limit stopped', () => {
    const gone = aRoom({ ...TURNS.resetting, holder: { ...HOLDER, present: false } });
    const away = transition(gone, { type: 'clock' }, T0 + PLAY_TIMINGS.resetMs);
    expect(away.state.turn).toMatchObject({
      phase: 'away',
      graceDeadline: T0 + PLAY_TIMINGS.resetMs + PLAY_TIMINGS.graceMs,
      play: { driven: { buttonDeadline: null } },
    });
  });

  it('a held button lets go when the player goes away; the claw waits in the grace window; back, the player plays on from there', () => {
    const held = transition(aRoom(TURNS.playing), EVENTS.control, EARLY);
    expect(commandsOf(held.effects)).toEqual([{ type: 'press', playId: PLAY_ID, button: 'right' }]);
    const away = transition(held.state, EVENTS.away, EARLY + 2000);
    expect(commandsOf(away.effects)).toEqual([{ type: 'release', playId: PLAY_ID, button: 'right' }]);
    expect(away.state.turn).toMatchObject({
      phase: 'away',
      graceDeadline: EARLY + 2000 + PLAY_TIMINGS.graceMs,
      play: { machine: { phase: 'waitBack' }, driven: { buttonDeadline: null } },
    });
    expect(
      away.state.turn.phase === 'away' && away.state.turn.play.inputs.map((i) => `${i.command} ${i.button}`),
    ).toEqual(['press right', 'release right']);
    // The machine reports where the claw stopped; the grace window runs on.
    const stopped = transition(
      away.state,
      report('waitBack', { position: { x: 300, z: 80, h: 0, grip: 0 } }),
      EARLY + 2100,
    );
    expect(stopped.state.turn).toMatchObject({ phase: 'away', play: { machine: { phase: 'waitBack', x: 300 } } });
    const back = transition(stopped.state, EVENTS.back, EARLY + 5000);
    expect(back.state.turn).toMatchObject({
      phase: 'playing',
      play: {
        machine: { phase: 'waitBack', x: 300 },
        driven: { buttonDeadline: EARLY + 5000 + PLAY_TIMINGS.buttonLimitMs },
      },
    });
    const down = transition(back.state, { ...EVENTS.control, button: 'back' } as RoomEvent, EARLY + 6000);
    expect(down.answer).toMatchObject({ kind: 'control', machine: { phase: 'movingBack' } });
    expect(commandsOf(down.effects)).toEqual([{ type: 'press', playId: PLAY_ID, button: 'back' }]);
  });

  it('a claw already dropping finishes by itself when the player goes away, to its result', () => {
    const room = aRoom({ ...TURNS.playing, play: runIn('dropping', EARLY - 500) });
    const step = transition(room, EVENTS.away, EARLY);
    expect(step.state.turn).toMatchObject({ phase: 'playing', holder: { present: false } });
    expect(commandsOf(step.effects)).toEqual([]);
    const home = transition(step.state, HOME, EARLY + 4000);
    const result = transition(home.state, { type: 'clock' }, EARLY + 4000 + MACHINE_TIMINGS.settleMs);
    expect(result.state.turn).toMatchObject({ phase: 'result', result: 'miss' });
  });

  it('the grace window lapses: the claw drops where it is and the drop tick is kept for the replay', () => {
    const lapsed = T0 + PLAY_TIMINGS.graceMs;
    const step = transition(aRoom({ ...TURNS.away, play: runIn('waitBack', null, 120) }), { type: 'clock' }, lapsed);
    expect(commandsOf(step.effects)).toEqual([{ type: 'drop', playId: PLAY_ID }]);
    expect(step.state.turn).toMatchObject({
      phase: 'playing',
      play: { machine: { phase: 'dropping' }, dropAtTick: 120, driven: { droppedAt: lapsed } },
    });
    expect(writesOf(step.effects)).toEqual([expect.objectContaining({ kind: 'checkpoint', dropAtTick: 120 })]);
    // The machine brings the claw home; the result keeps the drop tick in the play's log.
    const home = transition(step.state, HOME, lapsed + 5000);
    const result = transition(home.state, { type: 'clock' }, lapsed + 5000 + MACHINE_TIMINGS.settleMs);
    expect(commitsOf(result.effects)).toContainEqual(
      expect.objectContaining({ kind: 'recordResult', result: 'miss', dropAtTick: 120 }),
    );
  });

  it('the room does not tick the machine: the play’s tick is the one the machine reports, and a button’s tick in the log the one the machine took it at', () => {
    const prizes = aRun().machine.prizes.slice(1);
    const reported = transition(aRoom(TURNS.playing), report('ready', { sim: { tick: 37, prizes } }), EARLY);
    expect(reported.state.turn).toMatchObject({ phase: 'playing', play: { machine: { tick: 37, prizes } } });
    const pressed = transition(reported.state, EVENTS.control, EARLY + 100);
    expect(pressed.answer).toMatchObject({ kind: 'control', tick: 37 });
    // The simulated cabinet's ack names the tick the press took effect at: the play replays exactly.
    const press = { type: 'press', playId: PLAY_ID, button: 'right' } as const;
    const acked = transition(
      pressed.state,
      { type: 'machineAck', command: press, ok: true, reason: null, tick: 39 },
      EARLY + 150,
    );
    expect(acked.state.turn.phase === 'playing' && acked.state.turn.play.inputs).toEqual([
      { tick: 39, button: 'right', command: 'press' },
    ]);
  });

  it('a win is the prize the chute sensor saw: the result, the prize, the stock, the gauge and the field left are one write, and the winner is announced', () => {
    const left = aRun().machine.prizes.slice(1);
    const play = { ...runIn('returning', EARLY - 3000), gaugeMisses: 3 };
    const room = aRoom({ ...TURNS.playing, play }, { station: aStation({ stock: 2 }) });
    // The prize falls before the claw is home: the result waits for it.
    const fell = transition(room, { type: 'machinePrize', playId: PLAY_ID, prizeId: 1 }, EARLY);
    expect(fell.state.turn).toMatchObject({ phase: 'playing', play: { driven: { prizeSeen: true, wonPrizeId: 1 } } });
    expect(fell.effects).toEqual([]);
    const home = transition(
      fell.state,
      { ...HOME, report: { ...IDLE_REPORT, sim: { tick: 300, prizes: left } } },
      EARLY + 500,
    );
    expect(home.state.turn).toMatchObject({ phase: 'result', result: 'win', wonPrizeName: 'Bear plush' });
    expect(home.effects.filter((e) => e.type === 'commit')).toHaveLength(1);
    const [record, stock, field] = commitsOf(home.effects);
    expect(record).toMatchObject({
      kind: 'recordResult',
      result: 'win',
      prizeWon: { productName: 'Bear plush' },
      gaugeMisses: 0,
      vipWin: false,
      machine: { outcome: { result: 'win', wonPrizeId: 1 } },
    });
    expect(stock).toEqual({ kind: 'stock', stock: 1 });
    // The prizes left lie where the machine reports them; none is added while they cover the stock.
    expect(field).toMatchObject({ kind: 'field', field: { prizes: left } });
    expect(home.effects).toContainEqual({ type: 'winner', userId: HOLDER.userId, prizeName: 'Bear plush' });
  });

  it('after the last prize is won the turn ends and everyone behind is told the prize changed', () => {
    const room = aRoom(
      { ...TURNS.result, result: 'win', wonPrizeName: 'Bear plush' },
      { station: aStation({ stock: 0 }) },
    );
    const step = transition(room, EVENTS.finish, EARLY);
    expect(step.state).toMatchObject({ line: [], turn: { phase: 'idle' } });
    expect(writesOf(step.effects)).toContainEqual({
      kind: 'endReservations',
      reserveIds: [WAITING.reserveId],
      status: 'change',
      reason: 'prize_change',
    });
  });

  it('continue closes the finished play and charges a new one in the same write', () => {
    const step = transition(aRoom(TURNS.result), EVENTS.continue, EARLY);
    expect(step.effects[0]).toMatchObject({ type: 'startPlay', closesPlayId: PLAY_ID });
    expect(transition(aRoom(TURNS.result), EVENTS.continue, T0 + PLAY_TIMINGS.continueMs).answer).toEqual({
      kind: 'refused',
      refusal: 'continueClosed',
    });
  });

  it('a fault mid-play refunds exactly what the play took, ends it as refunded and ends every place (maintenance)', () => {
    const step = transition(aRoom(TURNS.playing), EVENTS.setStatus, EARLY);
    expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: PLAY_ID });
    expect(writesOf(step.effects)).toEqual([
      { kind: 'stationStatus', status: 'malfunction' },
      ...refundAndCloseOfThePlay(),
      {
        kind: 'endReservations',
        reserveIds: [HOLDER.reserveId, WAITING.reserveId],
        status: 'cancel',
        reason: 'maintenance',
      },
    ]);
    // The world hears of it only after the one write.
    const types = step.effects.map((e) => e.type);
    expect(types[0]).toBe('commit');
    expect(types.filter((t) => t === 'reserveCancelled')).toHaveLength(2);
  });

  it('a finished play is not refunded when the station goes down during its continue window', () => {
    const step = transition(aRoom(TURNS.result), EVENTS.setStatus, EARLY);
    expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: null });
    expect(writesOf(step.effects).some((w) => w.kind === 'refund')).toBe(false);
  });

  /** What a start's charge (100 free TC) is given back as when its play will not run. */
  const refundOfTheStartingCharge = () => ({
    kind: 'refund',
    playId: PLAY_ID,
    userId: HOLDER.userId,
    currency: 'tc',
    price: 100,
    charged: { free: 100, toll: 0 },
  });

  it('a start in flight when the station goes down is refunded the moment it lands', () => {
    const down = transition(aRoom(TURNS.starting), EVENTS.setStatus, EARLY);
    expect(down.state.turn).toMatchObject({ phase: 'starting', aborted: true });
    const landed = transition(down.state, EVENTS.playStarted, EARLY + 10);
    expect(landed.state.turn.phase).toBe('idle');
    expect(writesOf(landed.effects)).toContainEqual(refundOfTheStartingCharge());
  });

  it('a charge the room does not wait for is given back at once (never kept for a play that will not run)', () => {
    const step = transition(aRoom(TURNS.idle), EVENTS.playStarted, EARLY);
    expect(writesOf(step.effects)).toEqual([
      refundOfTheStartingCharge(),
      { kind: 'closePlay', playId: PLAY_ID, refunded: true, machine: null, inputs: [] },
    ]);
  });

  it('a prize change between runs ends the line with "change", lays no field, and opens again (during a run it waits: station-settings.test.ts)', () => {
    const step = transition(aRoom(TURNS.idle, { line: [WAITING] }), EVENTS.changePrize, EARLY);
    expect(step.state).toMatchObject({
      field: null,
      line: [],
      turn: { phase: 'idle' },
      station: { status: 'open', prizeName: 'Cat plush', stock: 4, armStrength: 0.5 },
    });
    expect(writesOf(step.effects).map((w) => w.kind)).toEqual([
      'pendingSettings',
      'stationStatus',
      'endReservations',
      'prize',
      'settingsChanged',
      'stationStatus',
    ]);
    expect(
      step.effects.filter((e) => e.type === 'stationStatus').map((e) => e.type === 'stationStatus' && e.status),
    ).toEqual(['change', 'open']);
  });

  it('[R10-9] the operator ends a play: refunded exactly once, the holder told (operator), the next in line has the turn once the machine is home; the status stays', () => {
    const step = transition(aRoom(TURNS.playing), EVENTS.endPlay, EARLY);
    expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: PLAY_ID });
    expect(writesOf(step.effects)).toEqual([
      ...refundAndCloseOfThePlay(),
      { kind: 'endReservations', reserveIds: [HOLDER.reserveId], status: 'cancel', reason: 'operator' },
    ]);
    expect(step.effects).toContainEqual({ type: 'reserveCancelled', userId: HOLDER.userId, reason: 'operator' });
    expect(step.state.station.status).toBe('open');
    // The claw still holds the ended play: no turn yet. The machine's next report names the play,
    // which the room drops, so the machine finishes its cycle and comes home by itself.
    expect(step.state).toMatchObject({ turn: { phase: 'idle' }, line: [WAITING] });
    const named = transition(step.state, report('ready'), EARLY + 2000);
    expect(commandsOf(named.effects)).toEqual([{ type: 'drop', playId: PLAY_ID }]);
    expect(named.state.turn.phase).toBe('idle');
    const home = transition(named.state, HOME, EARLY + 8000);
    expect(writesOf(home.effects)).toEqual([
      { kind: 'offerTurn', reserveId: WAITING.reserveId, deadline: EARLY + 8000 + PLAY_TIMINGS.confirmMs },
    ]);
    expect(home.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
    // Ending it again (a second operator) finds no such play: the next player's turn is left alone.
    const again = transition(home.state, EVENTS.endPlay, EARLY + 8001);
    expect(again).toEqual({ state: home.state, effects: [], answer: { kind: 'refused', refusal: 'noPlay' } });
    // A finished play (continue window) is closed without a refund.
    const finished = transition(aRoom(TURNS.result), EVENTS.endPlay, EARLY);
    expect(finished.answer).toEqual({ kind: 'operator', refundedPlayId: null });
    expect(writesOf(finished.effects).some((w) => w.kind === 'refund')).toBe(false);
    // A continue being charged is refunded the moment it lands.
    const continuing = transition(aRoom(TURNS.result), EVENTS.continue, EARLY);
    const ended = transition(continuing.state, EVENTS.endPlay, EARLY + 5);
    expect(ended.state.turn).toMatchObject({ phase: 'starting', aborted: true });
    const landed = transition(
      ended.state,
      {
        ...EVENTS.playStarted,
        started: { ...(EVENTS.playStarted as { started: object }).started, playId: PLAY_ID + 1 },
      } as RoomEvent,
      EARLY + 10,
    );
    expect(writesOf(landed.effects)).toContainEqual({ ...refundOfTheStartingCharge(), playId: PLAY_ID + 1 });
  });

  // Before the machine answers the start it was sent, its last report (sent before the start
  // reached it) still says idle: a turn offered then would go to a machine about to take the ended
  // play's start, and the next start would be refused and refunded.
  it('the operator ends a play whose start the machine has not answered yet: no turn until that start is answered', () => {
    const play = aRun({ driven: { ...STARTED, startAcked: false, buttonDeadline: null } });
    const step = transition(aRoom({ ...TURNS.resetting, play }, { machine: READY }), EVENTS.endPlay, EARLY);
    expect(step.state.turn.phase).toBe('idle');
    expect(step.state.machine.endedStart).toBe(PLAY_ID);
    const start = { type: 'start', playId: PLAY_ID, armStrength: 0.5, sim: { seed: 42, layout: [] } } as const;
    // Taken: the machine reported the play before its ack; the room drops it, and the turn waits for the claw home.
    const named = transition(step.state, report('ready', { playId: PLAY_ID }), EARLY + 10);
    expect(commandsOf(named.effects)).toEqual([{ type: 'drop', playId: PLAY_ID }]);
    const taken = transition(
      named.state,
      { type: 'machineAck', command: start, ok: true, reason: null, tick: 0 },
      EARLY + 20,
    );
    expect(taken.state).toMatchObject({ turn: { phase: 'idle' }, machine: { endedStart: null } });
    const home = transition(taken.state, HOME, EARLY + 5_000);
    expect(home.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
    // Refused (it never ran): the machine is as it last said, and the turn goes out at once.
    const refusedStart = transition(
      step.state,
      { type: 'machineAck', command: start, ok: false, reason: 'not_ready', tick: null },
      EARLY + 20,
    );
    expect(refusedStart.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
    // An agent gone owes no answer: back and idle, the machine takes the turn.
    const gone = transition(step.state, { type: 'machineGone', reason: 'silent' }, EARLY + 20);
    const again = transition(transition(gone.state, { type: 'machineConnected' }, EARLY + 30).state, HOME, EARLY + 40);
    expect(again.state.turn).toMatchObject({ phase: 'turnOffered', holder: { userId: WAITING.userId } });
  });

  it('[R10-9] the operator takes a waiting player out of the line: their place ends (operator), they are told, the rest move up', () => {
    const step = transition(aRoom(TURNS.playing), { type: 'removeFromLine', userId: WAITING.userId }, EARLY);
    expect(step.answer).toEqual({ kind: 'operator', refundedPlayId: null });
    expect(writesOf(step.effects)).toEqual([
      { kind: 'endReservations', reserveIds: [WAITING.reserveId], status: 'cancel', reason: 'operator' },
    ]);
    expect(step.effects).toContainEqual({ type: 'reserveCancelled', userId: WAITING.userId, reason: 'operator' });
    expect(step.effects).toContainEqual({ type: 'lineChanged' });
    expect(step.state.line).toEqual([]);
    expect(step.state.turn.phase).toBe('playing');
    expect(transition(aRoom(TURNS.playing), { type: 'removeFromLine', userId: STRANGER }, EARLY).answer).toEqual({
      kind: 'refused',
      refusal: 'reservationNotFound',
    });
  });

  it('[R10-9] a paused station keeps its line but offers no turn and starts no continue; resuming hands the turn on', () => {
    const paused = transition(aRoom(TURNS.result), EVENTS.pause, EARLY);
    expect(writesOf(paused.effects)).toEqual([{ kind: 'paused', paused: true }]);
    expect(transition(paused.state, EVENTS.continue, EARLY + 1).answer).toEqual({
      kind: 'refused',
      refusal: 'stationPaused',
    });
    // The play's turn ends; the player waiting keeps their place but is not offered the turn.
    const ended = transition(paused.state, EVENTS.finish, EARLY + 2);
    expect(ended.state).toMatchObject({ turn: { phase: 'idle' }, line: [{ userId: WAITING.userId }] });
    const resumed = transition(ended.state, { type: 'pause', paused: false }, EARLY + 3);
    expect(writesOf(resumed.effects)).toEqual([
      { kind: 'paused', paused: false },
      { kind: 'offerTurn', reserveId: WAITING.reserveId, deadline: EARLY + 3 + PLAY_TIMINGS.confirmMs },
    ]);
    expect(resumed.effects).toContainEqual({ type: 'turnNow', userId: WAITING.userId });
    // Pausing a paused station writes nothing.
    expect(transition(paused.state, EVENTS.pause, EARLY + 4).effects).toEqual([]);
  });

  it('restocking to 0 ends the waiting line and an offered turn; a play under way finishes', () => {
    const offered = transition(aRoom(TURNS.turnOffered), { type: 'restock', stock: 0 }, EARLY);
    expect(offered.state).toMatchObject({ line: [], turn: { phase: 'idle' } });
    const playing = transition(aRoom(TURNS.playing), { type: 'restock', stock: 0 }, EARLY);
    expect(playing.state).toMatchObject({ line: [], turn: { phase: 'playing' } });
  });
});

describe('[R10-8] what a caller hears, as data (it may travel from the instance running the room)', () => {
  it('a place at a station of another shop is not found; a place given up at another shop is not found either', () => {
    expect(transition(aRoom(TURNS.idle), { type: 'join', userId: 5, shopId: 2 }, EARLY)).toMatchObject({
      effects: [],
      answer: { kind: 'refused', refusal: 'stationNotFound' },
    });
    expect(transition(aRoom(TURNS.idle), { type: 'join', userId: 5, shopId: 1 }, EARLY).effects).toEqual([
      { type: 'addToLine', userId: 5 },
    ]);
    const elsewhere = { type: 'leave', userId: WAITING.userId, settingId: WAITING.settingId, shopId: 2 } as const;
    expect(transition(aRoom(TURNS.playing), elsewhere, EARLY)).toMatchObject({
      effects: [],
      answer: { kind: 'refused', refusal: 'reservationNotFound' },
    });
  });

  it('a place given up answers the reservation it ended: waiting, or an offered turn', () => {
    const waiting = { type: 'leave', userId: WAITING.userId, settingId: WAITING.settingId, shopId: 1 } as const;
    expect(transition(aRoom(TURNS.playing), waiting, EARLY).answer).toEqual({
      kind: 'left',
      reserveId: WAITING.reserveId,
    });
    expect(transition(aRoom(TURNS.turnOffered), EVENTS.leave, EARLY).answer).toEqual({
      kind: 'left',
      reserveId: HOLDER.reserveId,
    });
  });

  it('a play answer names the caller’s play only when they hold the turn; a view names the play for anyone', () => {
    const room = aRoom(TURNS.playing);
    const mine = stationReply(room, EVENTS.look, { kind: 'play' }, EARLY);
    expect(mine).toMatchObject({ kind: 'play', play: { play_id: PLAY_ID, phase: 'playing' } });
    expect(stationReply(room, { type: 'look', userId: STRANGER }, { kind: 'play' }, EARLY)).toEqual({
      kind: 'play',
      play: null,
    });
    expect(stationReply(room, { type: 'view' }, { kind: 'view' }, EARLY)).toEqual(mine);
    expect(stationReply(aRoom(TURNS.idle), { type: 'view' }, { kind: 'view' }, EARLY)).toEqual({
      kind: 'play',
      play: null,
    });
    // Every other answer is already data.
    const control = { kind: 'operator', refundedPlayId: 3 } as const;
    expect(stationReply(room, EVENTS.endPlay, control, EARLY)).toBe(control);
  });

  it('the development rig changes nothing in the room: it names the seed of the next play and the prizes on the field', () => {
    const room = aRoom(TURNS.idle);
    const rigged = transition(room, { type: 'rig', seed: 77 }, EARLY);
    expect(rigged.state).toBe(room);
    expect(rigged.effects).toEqual([{ type: 'rigSeed', seed: 77 }]);
    expect(rigged.answer).toEqual({ kind: 'rigged', prizes: room.field!.prizes });
  });
});
