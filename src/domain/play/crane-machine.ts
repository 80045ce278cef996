/**
 * One simulated crane machine, as pure functions over plain data: the two-button control of a
 * Japanese online crane (hold → to move right, release; hold ↑ to move back; release drops the claw),
 * the claw's drop, close, lift, return and open over the chute, and where the prizes lie.
 *
 * Time is a whole number of ticks (CRANE.tickMs each). Every random decision draws from the seeded
 * generator kept in the state, so a play replays exactly from its seed, its starting layout and the
 * ticks its buttons were pressed and released (see `replayPlay`). Nothing here reads a clock.
 *
 * Coordinates: x runs right (0 at the left wall), z runs back (0 at the front glass), both
 * 0…CRANE.field; the claw's height h runs 0 (top) to 1 (floor). The chute is the front-left corner;
 * the claw starts and ends over it.
 */

import { MACHINE_TIMINGS, PLAY_TIMINGS } from './play-loop.rule';
import type { CraneButton, CraneCommand, CranePhase, MachineView } from './play.entity';

export type { CraneButton, CraneCommand, CranePhase } from './play.entity';

export const CRANE = {
  tickMs: 50,
  /** Width (x) and depth (z) of the play field. */
  field: 1000,
  /** Where the claw rests: over the chute. */
  home: { x: 80, z: 80 },
  /** The chute opening: a prize that falls with its centre in here is won. */
  chute: { x1: 170, z1: 170 },
  /** Claw travel while a button is held, units per second (5 s from wall to wall). */
  moveUnitsPerSecond: 200,
  /** Claw travel while returning to the chute, units per second. */
  returnUnitsPerSecond: 320,
  /** A button not pressed within this fires by itself for `autoMoveMs` (the published limit: PLAY_TIMINGS). */
  buttonLimitMs: PLAY_TIMINGS.buttonLimitMs,
  autoMoveMs: MACHINE_TIMINGS.autoMoveMs,
  dropMs: 1_400,
  closeMs: 600,
  liftMs: 1_200,
  openMs: 500,
  /** Half the claw's span: a prize centre within this of the claw centre can be grabbed. */
  clawReach: 70,
} as const;

const ticks = (ms: number): number => Math.round(ms / CRANE.tickMs);

export type PrizeShape = 'box' | 'plush' | 'capsule';

/** How well each shape stays in the arms once grabbed (multiplies the arm strength). */
export const SHAPE_HOLD: Readonly<Record<PrizeShape, number>> = { box: 0.75, plush: 1, capsule: 0.6 };

export interface CranePrize {
  readonly id: number;
  readonly x: number;
  readonly z: number;
  /** Footprint radius in field units. */
  readonly radius: number;
  readonly shape: PrizeShape;
  /** Colour hue 0-359 for the cameras. */
  readonly hue: number;
}

export interface CraneOutcome {
  readonly result: 'win' | 'miss';
  /** The prize the arms closed on, if any. */
  readonly grabbedPrizeId: number | null;
  /** The prize won, if any. */
  readonly wonPrizeId: number | null;
  /** Whether a grabbed prize slipped on the way back. */
  readonly slipped: boolean;
  /** Where the claw closed. */
  readonly closedAt: { readonly x: number; readonly z: number };
}

export interface CraneState {
  readonly tick: number;
  readonly phase: CranePhase;
  /** Tick at which the current phase began. */
  readonly phaseTick: number;
  readonly x: number;
  readonly z: number;
  /** 0 = top, 1 = floor. */
  readonly h: number;
  /** 0 = open, 1 = closed. */
  readonly grip: number;
  readonly prizes: readonly CranePrize[];
  /** Arm strength 0…1 for this play (station base plus assist). */
  readonly armStrength: number;
  /** mulberry32 state. */
  readonly rng: number;
  /** The tick a waiting button fires by itself; null when no button waits. */
  readonly buttonDeadlineTick: number | null;
  /** While a button fired by itself: the tick its move ends. */
  readonly autoStopTick: number | null;
  /** Buttons that fired by themselves. */
  readonly autoFired: readonly CraneButton[];
  /** The prize in the arms and the tick it slips (null: it holds to the chute). */
  readonly carrying: { readonly prizeId: number; readonly slipTick: number | null } | null;
  readonly grabbedPrizeId: number | null;
  readonly slipped: boolean;
  readonly closedAt: { readonly x: number; readonly z: number } | null;
  readonly outcome: CraneOutcome | null;
  /**
   * No button fires by itself: whoever drives the machine keeps the button limit and presses for
   * the player (the station room does, through the machine's agent). Absent: the machine keeps it.
   */
  readonly manualButtons?: true;
}

/** A seeded 32-bit generator (mulberry32): the next value in [0, 1) and the next state. */
export function nextRandom(rng: number): { value: number; rng: number } {
  const next = (rng + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, rng: next };
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round1 = (v: number): number => Math.round(v * 10) / 10;
const inChute = (x: number, z: number): boolean => x <= CRANE.chute.x1 && z <= CRANE.chute.z1;

/**
 * A new play: the claw at home, button ① waiting with its time limit — or, with `manualButtons`,
 * waiting without one (the driver of the machine keeps the limit).
 */
export function startPlay(
  prizes: readonly CranePrize[],
  armStrength: number,
  seed: number,
  manualButtons = false,
): CraneState {
  return {
    ...(manualButtons ? { manualButtons: true as const } : {}),
    tick: 0,
    phase: 'ready',
    phaseTick: 0,
    x: CRANE.home.x,
    z: CRANE.home.z,
    h: 0,
    grip: 0,
    prizes,
    armStrength: clamp(armStrength, 0, 1),
    rng: seed | 0,
    buttonDeadlineTick: manualButtons ? null : ticks(CRANE.buttonLimitMs),
    autoStopTick: null,
    autoFired: [],
    carrying: null,
    grabbedPrizeId: null,
    slipped: false,
    closedAt: null,
    outcome: null,
  };
}

const enter = (s: CraneState, phase: CranePhase, extra: Partial<CraneState> = {}): CraneState => ({
  ...s,
  phase,
  phaseTick: s.tick,
  ...extra,
});

/**
 * A button press or release at the state's current tick. Returns null when the machine refuses it
 * (wrong button for the phase, a button already used, a release of a button not held): each button
 * works once, ① before ②.
 */
export function command(s: CraneState, button: CraneButton, cmd: CraneCommand): CraneState | null {
  if (s.autoStopTick !== null) return null; // a button firing by itself cannot be taken over
  if (button === 'right') {
    if (cmd === 'press' && s.phase === 'ready') return enter(s, 'movingRight', { buttonDeadlineTick: null });
    if (cmd === 'release' && s.phase === 'movingRight')
      return enter(s, 'waitBack', { buttonDeadlineTick: buttonDeadline(s) });
    return null;
  }
  if (cmd === 'press' && s.phase === 'waitBack') return enter(s, 'movingBack', { buttonDeadlineTick: null });
  if (cmd === 'release' && s.phase === 'movingBack') return enter(s, 'dropping');
  return null;
}

/**
 * Ends the play where the claw is: a waiting or held button lets go and the claw drops (a lapsed
 * grace window). From dropping on, the play simply runs on.
 */
export function dropNow(s: CraneState): CraneState {
  if (s.phase === 'ready' || s.phase === 'movingRight' || s.phase === 'waitBack' || s.phase === 'movingBack') {
    return enter(s, 'dropping', { buttonDeadlineTick: null, autoStopTick: null });
  }
  return s;
}

/** When a button that starts waiting now fires by itself (never, with manual buttons). */
const buttonDeadline = (s: CraneState): number | null => (s.manualButtons ? null : s.tick + ticks(CRANE.buttonLimitMs));

const perTick = (unitsPerSecond: number): number => (unitsPerSecond * CRANE.tickMs) / 1000;

/** The prize nearest to the claw centre and its distance. */
function nearestPrize(s: CraneState): { prize: CranePrize; distance: number } | null {
  let best: { prize: CranePrize; distance: number } | null = null;
  for (const prize of s.prizes) {
    const distance = Math.hypot(prize.x - s.x, prize.z - s.z);
    if (!best || distance < best.distance) best = { prize, distance };
  }
  return best;
}

/**
 * The claw has closed: decide grab and slip from where it closed, the arm strength and the seeded
 * draws. Alignment a = 1 − distance / (reach + prize radius) (0 outside). Grab chance a^0.7; once
 * grabbed it holds to the chute with chance armStrength × shape hold × (0.6 + 0.4a), else it slips
 * at a drawn tick of the lift and return. A prize touched but not grabbed is pushed away from the
 * claw centre.
 */
function closeClaw(s: CraneState): CraneState {
  const closedAt = { x: s.x, z: s.z };
  const near = nearestPrize(s);
  if (!near) return enter(s, 'lifting', { closedAt });
  const span = CRANE.clawReach + near.prize.radius;
  const alignment = Math.max(0, 1 - near.distance / span);
  let rng = s.rng;
  const draw = (): number => {
    const r = nextRandom(rng);
    rng = r.rng;
    return r.value;
  };
  const grabRoll = draw();
  if (alignment > 0 && grabRoll < alignment ** 0.7) {
    const holdChance = clamp(s.armStrength * SHAPE_HOLD[near.prize.shape] * (0.6 + 0.4 * alignment), 0, 0.98);
    const holdRoll = draw();
    const slipRoll = draw();
    const returnTicks = Math.ceil(
      Math.hypot(s.x - CRANE.home.x, s.z - CRANE.home.z) / perTick(CRANE.returnUnitsPerSecond),
    );
    const travel = ticks(CRANE.liftMs) + returnTicks;
    const slipTick = holdRoll < holdChance ? null : s.tick + 1 + Math.floor(slipRoll * travel);
    return enter(s, 'lifting', {
      rng,
      closedAt,
      grabbedPrizeId: near.prize.id,
      carrying: { prizeId: near.prize.id, slipTick },
    });
  }
  // Not grabbed: a prize the arms touched moves away from the claw centre.
  const touched = near.distance < span * 1.25;
  if (!touched) return enter(s, 'lifting', { rng, closedAt });
  const jitter = (draw() - 0.5) * 0.6;
  const angle = Math.atan2(near.prize.z - s.z, near.prize.x - s.x) + jitter;
  const push = (span * 1.25 - near.distance) * 0.5;
  const moved = {
    ...near.prize,
    x: round1(clamp(near.prize.x + Math.cos(angle) * push, 0, CRANE.field)),
    z: round1(clamp(near.prize.z + Math.sin(angle) * push, 0, CRANE.field)),
  };
  return enter(s, 'lifting', { rng, closedAt, prizes: s.prizes.map((p) => (p.id === moved.id ? moved : p)) });
}

/** The carried prize falls where the claw is: into the chute (won) or onto the field. */
function fall(s: CraneState): CraneState {
  if (!s.carrying) return s;
  const id = s.carrying.prizeId;
  if (inChute(s.x, s.z)) {
    return { ...s, carrying: null, prizes: s.prizes.filter((p) => p.id !== id), outcome: finish(s, id) };
  }
  return {
    ...s,
    carrying: null,
    slipped: true,
    prizes: s.prizes.map((p) =>
      p.id === id ? { ...p, x: round1(clamp(s.x, 0, CRANE.field)), z: round1(clamp(s.z, 0, CRANE.field)) } : p,
    ),
  };
}

const finish = (s: CraneState, wonPrizeId: number | null): CraneOutcome => ({
  result: wonPrizeId === null ? 'miss' : 'win',
  grabbedPrizeId: s.grabbedPrizeId,
  wonPrizeId,
  slipped: s.slipped,
  closedAt: s.closedAt ?? { x: s.x, z: s.z },
});

/** Moves the claw toward a target by at most `step`; true when it arrived. */
function toward(
  x: number,
  z: number,
  tx: number,
  tz: number,
  step: number,
): { x: number; z: number; arrived: boolean } {
  const d = Math.hypot(tx - x, tz - z);
  if (d <= step) return { x: tx, z: tz, arrived: true };
  return { x: round1(x + ((tx - x) / d) * step), z: round1(z + ((tz - z) / d) * step), arrived: false };
}

const slipsNow = (s: CraneState): boolean =>
  s.carrying !== null && s.carrying.slipTick !== null && s.tick >= s.carrying.slipTick;

/** One tick of the machine. */
export function tick(prev: CraneState): CraneState {
  let s: CraneState = { ...prev, tick: prev.tick + 1 };
  const inPhase = s.tick - s.phaseTick;
  const move = perTick(CRANE.moveUnitsPerSecond);
  switch (s.phase) {
    case 'ready':
      if (s.buttonDeadlineTick !== null && s.tick >= s.buttonDeadlineTick) {
        s = enter(s, 'movingRight', {
          buttonDeadlineTick: null,
          autoStopTick: s.tick + ticks(CRANE.autoMoveMs),
          autoFired: [...s.autoFired, 'right'],
        });
      }
      return s;
    case 'waitBack':
      if (s.buttonDeadlineTick !== null && s.tick >= s.buttonDeadlineTick) {
        s = enter(s, 'movingBack', {
          buttonDeadlineTick: null,
          autoStopTick: s.tick + ticks(CRANE.autoMoveMs),
          autoFired: [...s.autoFired, 'back'],
        });
      }
      return s;
    case 'movingRight': {
      const x = Math.min(CRANE.field, round1(s.x + move));
      s = { ...s, x };
      // The wall or the end of a move that fired by itself releases the button.
      if (x >= CRANE.field || (s.autoStopTick !== null && s.tick >= s.autoStopTick)) {
        return enter(s, 'waitBack', { autoStopTick: null, buttonDeadlineTick: buttonDeadline(s) });
      }
      return s;
    }
    case 'movingBack': {
      const z = Math.min(CRANE.field, round1(s.z + move));
      s = { ...s, z };
      if (z >= CRANE.field || (s.autoStopTick !== null && s.tick >= s.autoStopTick))
        return enter(s, 'dropping', { autoStopTick: null });
      return s;
    }
    case 'dropping': {
      const h = Math.min(1, inPhase / ticks(CRANE.dropMs));
      s = { ...s, h };
      return h >= 1 ? enter(s, 'closing') : s;
    }
    case 'closing': {
      const grip = Math.min(1, inPhase / ticks(CRANE.closeMs));
      s = { ...s, grip };
      return grip >= 1 ? closeClaw(s) : s;
    }
    case 'lifting': {
      const h = Math.max(0, 1 - inPhase / ticks(CRANE.liftMs));
      s = { ...s, h };
      if (slipsNow(s)) s = fall(s);
      return h <= 0 ? enter(s, 'returning') : s;
    }
    case 'returning': {
      const step = toward(s.x, s.z, CRANE.home.x, CRANE.home.z, perTick(CRANE.returnUnitsPerSecond));
      s = { ...s, x: step.x, z: step.z };
      if (slipsNow(s)) s = fall(s);
      return step.arrived ? enter(s, 'opening') : s;
    }
    case 'opening': {
      const grip = Math.max(0, 1 - inPhase / ticks(CRANE.openMs));
      s = { ...s, grip };
      if (grip > 0) return s;
      s = fall(s);
      return enter(s, 'done', { outcome: s.outcome ?? finish(s, null) });
    }
    case 'done':
      return prev;
  }
}

/**
 * Lets go of a button the player holds (a lost connection, a restart): the claw stops where it is,
 * as a release would. A button that fired by itself, or no button held, changes nothing.
 */
export function letGo(s: CraneState): { state: CraneState; input: CraneInput | null } {
  if (s.autoStopTick !== null) return { state: s, input: null };
  const held: CraneButton | null = s.phase === 'movingRight' ? 'right' : s.phase === 'movingBack' ? 'back' : null;
  const next = held ? command(s, held, 'release') : null;
  return next ? { state: next, input: { tick: s.tick, button: held!, command: 'release' } } : { state: s, input: null };
}

/** Whether the claw waits for a button (the player's move): a play can pause here, never once it drops. */
export function awaitsButton(s: CraneState): boolean {
  return s.phase === 'ready' || s.phase === 'waitBack';
}

/** The machine as viewers see it, with the button the player may use and its time left. */
export function machineView(s: CraneState): MachineView {
  const auto = s.autoStopTick !== null;
  const button =
    s.phase === 'ready' || (s.phase === 'movingRight' && !auto)
      ? 'right'
      : s.phase === 'waitBack' || (s.phase === 'movingBack' && !auto)
        ? 'back'
        : null;
  const left = buttonTicksLeft(s);
  return {
    tick: s.tick,
    phase: s.phase,
    x: s.x,
    z: s.z,
    h: s.h,
    grip: s.grip,
    button,
    button_ms_left: left === null ? null : left * CRANE.tickMs,
  };
}

/** Ticks from now until the current phase ends by itself (for countdowns); null while held. */
export function buttonTicksLeft(s: CraneState): number | null {
  return s.buttonDeadlineTick === null ? null : Math.max(0, s.buttonDeadlineTick - s.tick);
}

/** One recorded input of a play. */
export interface CraneInput {
  readonly tick: number;
  readonly button: CraneButton;
  readonly command: CraneCommand;
}

/**
 * Replays a play from its published settings: starting layout, arm strength, seed and inputs.
 * Anyone holding a play's log can check its outcome this way.
 */
export function replayPlay(
  prizes: readonly CranePrize[],
  armStrength: number,
  seed: number,
  inputs: readonly CraneInput[],
  dropAtTick: number | null = null,
  manualButtons = false,
): CraneState {
  let s = startPlay(prizes, armStrength, seed, manualButtons);
  const queue = [...inputs].sort((a, b) => a.tick - b.tick);
  let i = 0;
  for (let guard = 0; guard < 100_000 && s.phase !== 'done'; guard += 1) {
    while (i < queue.length && queue[i]!.tick <= s.tick) {
      s = command(s, queue[i]!.button, queue[i]!.command) ?? s;
      i += 1;
    }
    if (dropAtTick !== null && s.tick >= dropAtTick) s = dropNow(s);
    s = tick(s);
  }
  return s;
}

/**
 * A fresh field of `count` prizes for a station, placed from a seed: away from the chute and the
 * walls and from each other. Ids start at `firstId`.
 */
export function layPrizes(seed: number, count: number, firstId = 1, shape: PrizeShape = 'plush'): CranePrize[] {
  let rng = seed | 0;
  const draw = (): number => {
    const r = nextRandom(rng);
    rng = r.rng;
    return r.value;
  };
  const prizes: CranePrize[] = [];
  for (let n = 0; n < count; n += 1) {
    const radius = 55 + Math.round(draw() * 25);
    let x = 0;
    let z = 0;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      x = Math.round(250 + draw() * 650);
      z = Math.round(250 + draw() * 650);
      if (prizes.every((p) => Math.hypot(p.x - x, p.z - z) > p.radius + radius)) break;
    }
    prizes.push({ id: firstId + n, x, z, radius, shape, hue: Math.round(draw() * 359) });
  }
  return prizes;
}
