/**
 * The play loop's published numbers and rules (spec §4.3 leaves the loop open; docs/play.md is the
 * design). The server enforces them and the client shows them, so they live here once.
 */

/** Windows of one reservation's life, in milliseconds. */
export const PLAY_TIMINGS = {
  /** Your turn (playTransition): confirm within this, or the turn passes to the next in line. */
  confirmMs: 15_000,
  /** After confirm (and after a continue) the station resets the claw before play starts. */
  resetMs: 2_000,
  /** After a result the same player may continue within this. */
  continueMs: 10_000,
  /** A player who loses the connection mid-play may return to the same play within this. */
  graceMs: 150_000,
  /** Each button fires by itself when not pressed within this. */
  buttonLimitMs: 15_000,
} as const;

/**
 * A machine driven by its agent (docs/agent-protocol.md, "Timings"): the bounds the station room
 * keeps, nested inside the agent's own (a button held 20 s, no ping for 1 s) and around the app's
 * (a button held 15 s).
 */
export const MACHINE_TIMINGS = {
  /** A held button is let go by the server after this. */
  holdMs: 17_000,
  /** The machine must take a play's start within this after the reset window ends, else it is in fault. */
  startMs: 5_000,
  /** The claw must be home within this after the drop, else the machine is in fault. */
  cycleMs: 20_000,
  /** After the claw is home, the chute is watched this much longer before a miss is recorded. */
  settleMs: 1_500,
  /** A button that fires by itself moves the claw this long. */
  autoMoveMs: 600,
  /**
   * After a restart of the server, a play that was still resetting waits this long for its agent to
   * come back (an agent dials again at most 10 s apart) and name it or report the machine home, else
   * it is refunded once.
   */
  reattachMs: 15_000,
} as const;

/** At most this many control commands a second per player. */
export const CONTROL_COMMANDS_PER_SECOND = 25;

/** "Your turn is near": pushed when the place in line becomes this or less. */
export const TURN_NEAR_PLACE = 2;

/**
 * The assist gauge (our design, published in docs/play.md and on the play screen): every
 * consecutive miss of a player at a station fills one step; each ASSIST_MISSES_PER_LEVEL steps
 * raise the arm strength by ASSIST_STRENGTH_PER_LEVEL, up to ASSIST_MAX_LEVEL. A win empties it.
 */
export const ASSIST_MISSES_PER_LEVEL = 2;
export const ASSIST_MAX_LEVEL = 5;
export const ASSIST_STRENGTH_PER_LEVEL = 0.06;

export interface AssistGauge {
  /** Consecutive misses counted (capped where the gauge is full). */
  readonly misses: number;
  /** 0…ASSIST_MAX_LEVEL. */
  readonly level: number;
  /** Arm strength added at this level (0…1 scale). */
  readonly strengthBonus: number;
  /** Misses until the next level; 0 when full. */
  readonly missesToNextLevel: number;
  /** Fill of the gauge, 0…1, for display. */
  readonly fill: number;
}

const FULL = ASSIST_MISSES_PER_LEVEL * ASSIST_MAX_LEVEL;

/** The gauge after `misses` consecutive misses. */
export function assistGauge(misses: number): AssistGauge {
  const counted = Math.min(FULL, Math.max(0, Math.floor(Number.isFinite(misses) ? misses : 0)));
  const level = Math.floor(counted / ASSIST_MISSES_PER_LEVEL);
  return {
    misses: counted,
    level,
    strengthBonus: Math.round(level * ASSIST_STRENGTH_PER_LEVEL * 100) / 100,
    missesToNextLevel: level >= ASSIST_MAX_LEVEL ? 0 : ASSIST_MISSES_PER_LEVEL - (counted % ASSIST_MISSES_PER_LEVEL),
    fill: counted / FULL,
  };
}

/** The gauge after one more play: a win empties it, a miss fills one step. */
export function nextAssistMisses(misses: number, result: 'win' | 'miss'): number {
  return result === 'win' ? 0 : Math.min(FULL, misses + 1);
}

/** A play's arm strength: the station's base plus the gauge's bonus, at most 1. */
export function assistedArmStrength(base: number, gauge: AssistGauge): number {
  return Math.min(1, Math.round((base + gauge.strengthBonus) * 100) / 100);
}

/** How a play is paid: TC, one ticket (point-ticket stations) or nothing (practice). */
export type PlayCurrency = 'tc' | 'ticket' | 'free';

/** The currency and price of one play at a station of this designated type. */
export function playCharge(
  designatedType: 'normal' | 'practice' | 'point_ticket',
  playPrice: number,
): { currency: PlayCurrency; price: number } {
  if (designatedType === 'practice') return { currency: 'free', price: 0 };
  if (designatedType === 'point_ticket') return { currency: 'ticket', price: 1 };
  return { currency: 'tc', price: playPrice };
}

/** Whether a place in line counts as "your turn is near". */
export function isTurnNear(place: number): boolean {
  return place >= 1 && place <= TURN_NEAR_PLACE;
}

/**
 * The average length of one player's turn in seconds (reset, a play of two holds and the drop,
 * and a look at the result) that the estimated wait uses. Our measure from the simulation; the
 * estimate is shown as "目安" (a guide), never as a promise.
 */
export const AVERAGE_TURN_SECONDS = 40;

/** The estimated wait before the turn for a place in line (1 = next: 0 s). */
export function estimatedWaitSeconds(place: number, turnSeconds: number = AVERAGE_TURN_SECONDS): number {
  return place <= 1 ? 0 : (place - 1) * turnSeconds;
}

/**
 * Input-to-picture latency: the player's command was applied at machine tick `tick` at local time
 * `sentAt`; the claw moves from the next tick, so the first picture whose tick is later shows it.
 * Answers the milliseconds, or null while no such picture has arrived.
 */
export function inputLatencyMs(
  command: { readonly tick: number; readonly sentAt: number } | null,
  frame: { readonly tick: number; readonly receivedAt: number },
): number | null {
  if (!command || frame.tick <= command.tick) return null;
  return Math.max(0, frame.receivedAt - command.sentAt);
}
