import {
  crane,
  PLAY_TIMINGS,
  type DrivenPlay,
  type Holder,
  type MachineLink,
  type MachineReport,
  type PlayRun,
  type RoomStation,
  type StationRoomState,
  type Turn,
  type Waiting,
} from '../../../src/domain';

/** The instant the fixtures' deadlines count from. */
export const T0 = Date.parse('2026-11-24T12:00:00+09:00');

export const aStation = (over: Partial<RoomStation> = {}): RoomStation => ({
  stationId: 1,
  shopId: 1,
  status: 'open',
  stationType: 'normal',
  designatedType: 'normal',
  stock: 5,
  playPrice: 100,
  armStrength: 0.5,
  prizeName: 'Bear plush',
  prizeShape: 'plush',
  paused: false,
  ...over,
});

/** The player holding the turn in every fixture, and one waiting behind. */
export const HOLDER: Holder = { reserveId: 100, userId: 10, settingId: 7, present: true };
export const WAITING: Waiting = { reserveId: 200, userId: 20, settingId: 7, nearNotified: true };
export const STRANGER = 99;
export const PLAY_ID = 500;

/** The machine's report when its claw is home with the chute clear and no play on it. */
export const IDLE_REPORT: MachineReport = {
  playId: null,
  phase: 'idle',
  sensor: 'clear',
  stopped: false,
  position: null,
  sim: null,
};
/** A station's machine whose agent is connected and reports it ready for a play. */
export const READY: MachineLink = { connected: true, report: IDLE_REPORT, fault: null, emergencyStopped: false };

/** A play the machine took the start of, its buttons waiting on the player. */
export const STARTED: DrivenPlay = {
  startAcked: true,
  buttonDeadline: T0 + PLAY_TIMINGS.buttonLimitMs,
  autoStopAt: null,
  holdUntil: null,
  droppedAt: null,
  homeAt: null,
  prizeSeen: false,
  wonPrizeId: null,
};

export const aRun = (over: Partial<PlayRun> = {}): PlayRun => ({
  playId: PLAY_ID,
  currency: 'tc',
  price: 100,
  charged: { free: 60, toll: 40 },
  armStrength: 0.5,
  assistLevel: 0,
  gaugeMisses: 0,
  machine: crane.startPlay(crane.layPrizes(7919, 3, 1, 'plush'), 0.5, 42, true),
  inputs: [],
  dropAtTick: null,
  ticksSinceSave: 0,
  driven: STARTED,
  ...over,
});

/** One representative turn of each phase (a play, where there is one, is PLAY_ID of HOLDER). */
export const TURNS = {
  idle: { phase: 'idle' },
  turnOffered: { phase: 'turnOffered', holder: HOLDER, deadline: T0 + PLAY_TIMINGS.confirmMs },
  starting: {
    phase: 'starting',
    holder: HOLDER,
    resetDeadline: T0 + PLAY_TIMINGS.resetMs,
    resume: { phase: 'turnOffered', holder: HOLDER, deadline: T0 + PLAY_TIMINGS.confirmMs },
    aborted: false,
  },
  resetting: {
    phase: 'resetting',
    holder: HOLDER,
    play: aRun({ driven: { ...STARTED, buttonDeadline: null } }),
    deadline: T0 + PLAY_TIMINGS.resetMs,
  },
  playing: { phase: 'playing', holder: HOLDER, play: aRun(), nextTickAt: T0 + 50 },
  away: {
    phase: 'away',
    holder: { ...HOLDER, present: false },
    play: aRun(),
    graceDeadline: T0 + PLAY_TIMINGS.graceMs,
  },
  result: {
    phase: 'result',
    holder: HOLDER,
    play: aRun(),
    result: 'miss',
    wonPrizeName: null,
    deadline: T0 + PLAY_TIMINGS.continueMs,
  },
} as const satisfies Record<Turn['phase'], Turn>;

/**
 * A room in `turn` on a machine that is ready (its report names the play of the turn, if any);
 * everyone but the idle room has WAITING in line behind the holder.
 */
export function aRoom(turn: Turn, over: Partial<StationRoomState> = {}): StationRoomState {
  const play = 'play' in turn && turn.phase !== 'result' ? turn.play : null;
  const machine: MachineLink = play
    ? { ...READY, report: { ...IDLE_REPORT, playId: play.playId, phase: 'ready' } }
    : READY;
  return {
    station: aStation(),
    field: { prizes: crane.layPrizes(7919, 3, 1, 'plush'), nextPrizeId: 4 },
    line: turn.phase === 'idle' ? [] : [WAITING],
    turn,
    machine,
    ...over,
  };
}
