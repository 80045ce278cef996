import { DAY_MS } from '../constants';

/** A raised or removed spending limit takes effect this long after the player asks [R10-3]. */
export const SPENDING_LIMIT_RAISE_DELAY_MS = DAY_MS;
/** The limits a player may set (yen per Asia/Tokyo calendar month). */
export const SPENDING_LIMIT_MIN_YEN = 500;
export const SPENDING_LIMIT_MAX_YEN = 10_000_000;

/**
 * A player's own monthly spending limit [R10-3]: `limitYen` applies now (null: none set); a raise or
 * a removal asked for waits in `pending` until `effectiveAtMs`.
 */
export interface SpendingLimit {
  readonly limitYen: number | null;
  readonly pending: { readonly limitYen: number | null; readonly effectiveAtMs: number } | null;
}

export const NO_SPENDING_LIMIT: SpendingLimit = { limitYen: null, pending: null };

/** The limit as it stands at `nowMs`: a pending change that has come due has taken effect. */
export function spendingLimitAt(limit: SpendingLimit, nowMs: number): SpendingLimit {
  if (limit.pending === null || limit.pending.effectiveAtMs > nowMs) return limit;
  return { limitYen: limit.pending.limitYen, pending: null };
}

/** Whether `next` is stricter than `current` (a limit where there was none is stricter). */
export function isStricterLimit(current: number | null, next: number | null): boolean {
  return next !== null && (current === null || next < current);
}

/**
 * The player asks for `nextYen` (null: no limit) at `nowMs` [R10-3]. Lowering takes effect at once
 * and drops any pending raise; raising or removing waits 24 hours (asking again restarts the wait);
 * asking for the limit in force drops a pending change.
 */
export function changeSpendingLimit(limit: SpendingLimit, nextYen: number | null, nowMs: number): SpendingLimit {
  const current = spendingLimitAt(limit, nowMs);
  if (nextYen === current.limitYen) return { limitYen: current.limitYen, pending: null };
  if (isStricterLimit(current.limitYen, nextYen)) return { limitYen: nextYen, pending: null };
  return {
    limitYen: current.limitYen,
    pending: { limitYen: nextYen, effectiveAtMs: nowMs + SPENDING_LIMIT_RAISE_DELAY_MS },
  };
}

/** The monthly cap that applies: the lower of the player's own limit and the minors' cap [R10-3]. */
export function monthlyPurchaseCap(ownLimitYen: number | null, minorLimitYen: number | null): number | null {
  if (ownLimitYen === null) return minorLimitYen;
  if (minorLimitYen === null) return ownLimitYen;
  return Math.min(ownLimitYen, minorLimitYen);
}

/** Yen still purchasable this month under `capYen` after `spentYen` (null: no cap). */
export function remainingThisMonth(capYen: number | null, spentYen: number): number | null {
  return capYen === null ? null : Math.max(0, capYen - spentYen);
}
