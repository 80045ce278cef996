import { toJstParts } from '../time/jst';

/** The first step the purchase modal shows. */
export type PurchaseEntry = 'login' | 'age' | 'top';

/**
 * Opening the purchase modal: a guest is sent to log in [R2.5-4]; a user with no registered birth
 * date sees the age step first [R2.5-5]; everyone else the product list ('top').
 */
export function purchaseModalEntry(input: {
  readonly signedIn: boolean;
  readonly registeredBirth: boolean;
}): PurchaseEntry {
  if (!input.signedIn) return 'login';
  return input.registeredBirth ? 'top' : 'age';
}

/** Something the product may refuse a guest. */
export type GuardedAction = 'buy' | 'seeVirtualCrane' | 'playPractice' | 'viewStation';

/**
 * Guests cannot buy, cannot see the virtual crane, and may look at practice stations but not play
 * them (playing asks them to log in) [R6-1].
 */
export const GUEST_REFUSED_ACTIONS: readonly GuardedAction[] = ['buy', 'seeVirtualCrane', 'playPractice'];

/** Whether a visitor may do `action` [R6-1]: signed-in users may do everything listed. */
export function isActionAllowed(action: GuardedAction, signedIn: boolean): boolean {
  return signedIn || !GUEST_REFUSED_ACTIONS.includes(action);
}

/** Carrier billing caps one purchase at this price (yen); dearer products are not offered with it. */
export const CARRIER_BILLING_MAX_PRICE = 10_000;

/** Whether carrier billing may pay for a product of this price (yen). */
export function carrierBillingAllows(price: number): boolean {
  return price <= CARRIER_BILLING_MAX_PRICE;
}

/**
 * Monthly purchase limits for minors (yen, per calendar month in Asia/Tokyo), as Japanese
 * storefronts commonly apply: under 16 → 5,000; 16–19 → 10,000; adults unlimited.
 */
export const MINOR_MONTHLY_LIMITS = [
  { under: 16, yen: 5_000 },
  { under: 20, yen: 10_000 },
] as const;

/** Age in whole years at `nowMs` of someone born on `birth` (YYYY-MM-DD), on the Japanese calendar. */
export function ageOn(birth: string, nowMs: number): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const { year: ty, month: tm, day: td } = toJstParts(nowMs);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/**
 * The monthly purchase limit (yen) of someone born on `birth` at `nowMs`, or null for an adult
 * (see MINOR_MONTHLY_LIMITS). What counts is spent since `startOfJstMonth(nowMs)`.
 */
export function minorMonthlyLimit(birth: string, nowMs: number): number | null {
  const age = ageOn(birth, nowMs);
  return MINOR_MONTHLY_LIMITS.find((l) => age < l.under)?.yen ?? null;
}
