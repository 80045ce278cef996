import { DOMAIN_MESSAGES } from '../messages';
import { CRANE, type CranePrize } from './crane-machine';

/**
 * Staff assist [R11-9] (docs/fair-play.md "Staff assist"): after a set number of misses in a row
 * on one station — within one turn: leaving the station (the turn ending) starts the count again —
 * a player may ask the staff to put the prize back within reach. The turn is held while the staff
 * answer, at most five minutes; the count starts again after any answer.
 */

/** The misses in a row a station asks for unless its operator set another number. */
export const STAFF_ASSIST_DEFAULT_MISSES = 10;
/** The most an operator may set (0 turns staff assist off at the station). */
export const STAFF_ASSIST_MAX_MISSES = 100;
/** How long a turn is held for an assist before the hold lapses. */
export const STAFF_ASSIST_HOLD_MS = 5 * 60 * 1000;

/** How an assist ended: done by the staff, declined, not answered in time, or the play ended first. */
export const STAFF_ASSIST_OUTCOMES = ['done', 'declined', 'lapsed', 'cancelled'] as const;
export type StaffAssistOutcome = (typeof STAFF_ASSIST_OUTCOMES)[number];
/** The operator's answers. */
export const STAFF_ASSIST_ANSWERS = ['done', 'declined'] as const;
export type StaffAssistAnswer = (typeof STAFF_ASSIST_ANSWERS)[number];
export type StaffAssistStatus = 'asked' | StaffAssistOutcome;

export const STAFF_ASSIST_OUTCOME_LABELS: Readonly<Record<StaffAssistOutcome, string>> =
  DOMAIN_MESSAGES.staffAssistOutcomes;

/** The player's misses in a row in their turn after a play. */
export const nextRunMisses = (misses: number, result: 'win' | 'miss'): number => (result === 'win' ? 0 : misses + 1);

/** Whether a player with `misses` in a row may ask, at a station asking for `needed` (0: never). */
export const mayAskAssist = (needed: number, misses: number): boolean => needed > 0 && misses >= needed;

/** What the player's screen shows of staff assist (null: the station offers none). */
export interface StaffAssistView {
  /** The misses in a row the station asks for. */
  readonly needed: number;
  /** The player's misses in a row in this turn. */
  readonly misses: number;
  /** counting: not yet; available: may ask now; asked: the turn is held for the staff. */
  readonly state: 'counting' | 'available' | 'asked';
  /** While asked: until the hold lapses. */
  readonly ms_left: number | null;
  /** How the last assist of this turn ended, shown once after it (null: none yet). */
  readonly outcome: StaffAssistOutcome | null;
}

/**
 * What a done assist does to the field the room keeps (on a simulated cabinet, the field its next
 * play is laid from; on a real one, the model of what the staff did by hand): the prize nearest
 * the chute is put just outside it, where the claw starts — the first free spot along the
 * diagonal, clear of the other prizes. A field with no prize is left as it is.
 */
export function assistedField(prizes: readonly CranePrize[]): CranePrize[] {
  if (prizes.length === 0) return [...prizes];
  const distance = (p: CranePrize) => Math.hypot(p.x, p.z);
  const nearest = prizes.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  const others = prizes.filter((p) => p !== nearest);
  const clear = (at: number) => others.every((p) => Math.hypot(p.x - at, p.z - at) > p.radius + nearest.radius);
  for (let at = CRANE.chute.x1 + nearest.radius; at < distance(nearest) / Math.SQRT2; at += 20) {
    if (clear(at)) return prizes.map((p) => (p === nearest ? { ...p, x: at, z: at } : p));
  }
  return [...prizes];
}
