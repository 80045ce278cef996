import { DAY_MS } from '../constants';
import { formatJstDateTime, startOfJstDay, toJstParts } from '../time/jst';
import { deadlineStep, nextDeadlineEventAt, type DeadlineStep } from '../time/deadline-notice.rule';

/**
 * Free TC in lots that expire [R11-7] (docs/fair-play.md "Free TC that expires").
 *
 * Free TC (purchase bonuses, present codes, grants) is credited as a lot with an expiry; paid TC
 * never expires. A spend takes the earliest-expiring free lot first, then paid TC; a refund gives
 * back exactly the lots its spend took. These are the pure rules; the server's ledger applies them
 * under the player's wallet lock.
 */

/** Free TC lapses at 24:00 Asia/Tokyo of this day, the credit's own day counting as the first. */
export const FREE_TC_EXPIRY_DAYS = 90;
/** A refund whose lot has already lapsed comes back as a new lot valid this many days (same count). */
export const REFUNDED_LOT_DAYS = 7;
/** The player is told this many days before free TC lapses (then the nearer one). */
export const FREE_TC_NOTICE_DAYS = [7, 1] as const;

/**
 * The end of a free lot's life: 24:00 JST (the next day's 00:00) of the `days`-th day, the day of
 * the credit being day 1 — GiGO's "day 90 at 24:00". So TC credited at 23:59 and at 00:01 of one
 * day lapse together, and a player reads one date.
 */
export function freeTcExpiresAt(creditedAtMs: number, days: number = FREE_TC_EXPIRY_DAYS): number {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`a lot lives at least one day (got ${days})`);
  return startOfJstDay(creditedAtMs) + days * DAY_MS;
}

/** A free lot as the rules see it. `expiresAtMs` null: credited before lots existed, never lapses. */
export interface FreeLot {
  readonly lotId: number;
  readonly remaining: number;
  readonly expiresAtMs: number | null;
}

/** Whether a lot can still be spent at `nowMs` (its end is exclusive: at 24:00 it has lapsed). */
export function isLotLive(lot: Pick<FreeLot, 'expiresAtMs'>, nowMs: number): boolean {
  return lot.expiresAtMs === null || nowMs < lot.expiresAtMs;
}

/** Spending order: the earliest end first, lots that never lapse last, then the oldest lot. */
export function compareLotsForSpending(a: FreeLot, b: FreeLot): number {
  const ea = a.expiresAtMs ?? Number.POSITIVE_INFINITY;
  const eb = b.expiresAtMs ?? Number.POSITIVE_INFINITY;
  return ea === eb ? a.lotId - b.lotId : ea < eb ? -1 : 1;
}

export interface LotTake {
  readonly lotId: number;
  readonly amount: number;
}

/**
 * What a spend of `amount` TC takes [R11-7]: the live free lots, earliest-expiring first, then the
 * rest (`toll`) from paid TC. Lapsed lots are never taken. The caller checks that the balance
 * covers `toll`.
 */
export function takeFromLots(
  lots: readonly FreeLot[],
  amount: number,
  nowMs: number,
): { readonly takes: readonly LotTake[]; readonly free: number; readonly toll: number } {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`a spend is a whole amount (got ${amount})`);
  const takes: LotTake[] = [];
  let left = amount;
  for (const lot of [...lots].filter((l) => l.remaining > 0 && isLotLive(l, nowMs)).sort(compareLotsForSpending)) {
    if (left === 0) break;
    const take = Math.min(lot.remaining, left);
    takes.push({ lotId: lot.lotId, amount: take });
    left -= take;
  }
  return { takes, free: amount - left, toll: left };
}

/**
 * Where a refund puts back what a spend took from a lot [R11-7]: into the same lot while it is
 * live (it keeps its end), else into a new lot valid REFUNDED_LOT_DAYS — the lapsed lot has
 * expired once and stays expired, and the player still gets a week to use what was returned.
 */
export function refundedLotEnd(
  lot: Pick<FreeLot, 'expiresAtMs'> & { readonly expired: boolean },
  nowMs: number,
): { readonly into: 'same' } | { readonly into: 'new'; readonly expiresAtMs: number | null } {
  if (!lot.expired && isLotLive(lot, nowMs)) return { into: 'same' };
  return { into: 'new', expiresAtMs: freeTcExpiresAt(nowMs, REFUNDED_LOT_DAYS) };
}

/** What a lot's end asks now: the 7-day or 1-day notice not yet given, or its expiry [R11-7]. */
export function freeLotStep(
  expiresAtMs: number,
  nowMs: number,
  noticesGiven: readonly number[],
): DeadlineStep<(typeof FREE_TC_NOTICE_DAYS)[number]> {
  return deadlineStep(expiresAtMs, nowMs, noticesGiven, FREE_TC_NOTICE_DAYS);
}

/** The next instant a lot's end asks something (a notice or the expiry) [R11-7]. */
export function nextFreeLotEventAt(expiresAtMs: number, noticesGiven: readonly number[]): number {
  return nextDeadlineEventAt(expiresAtMs, noticesGiven, FREE_TC_NOTICE_DAYS);
}

/**
 * The last day a lot can be spent, as a Japanese calendar date: its end is 24:00 of that day (the
 * next day's 00:00), which players read as "that day until 24:00".
 */
export function freeTcLastDay(expiresAtMs: number): {
  readonly year: number;
  readonly month: number;
  readonly day: number;
} {
  const { year, month, day } = toJstParts(expiresAtMs - 1);
  return { year, month, day };
}

/** 'YYYY/MM/DD' of a lot's last day (histories, notices) [R11-7]. */
export function freeTcLastDayLabel(expiresAtMs: number): string {
  return formatJstDateTime(expiresAtMs - 1).slice(0, 10);
}

/**
 * The free TC held, by end [R11-7]: lots ending at the same instant added up (a purchase's bonus and
 * a grant of one day end together), the earliest end first and TC without an end last — what a
 * player reads, lot by lot being the ledger's business.
 */
export function freeTcByEnd(
  lots: readonly { readonly remaining: number; readonly expiresAt: string | null }[],
): { readonly amount: number; readonly expiresAt: string | null }[] {
  const byEnd = new Map<string | null, number>();
  for (const l of lots) if (l.remaining > 0) byEnd.set(l.expiresAt, (byEnd.get(l.expiresAt) ?? 0) + l.remaining);
  const at = (end: string | null) => (end === null ? Number.POSITIVE_INFINITY : Date.parse(end));
  return [...byEnd]
    .map(([expiresAt, amount]) => ({ amount, expiresAt }))
    .sort((a, b) => at(a.expiresAt) - at(b.expiresAt));
}
