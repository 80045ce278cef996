import { DAY_MS } from '../constants';
import { jstIsoDate, startOfJstDay } from '../time/jst';

/**
 * The daily free play [R11-8] (docs/fair-play.md "A daily free play"): the first visit of each
 * Japanese day grants one play, usable at the stations the operator makes ticket stations (the
 * ticket tab) until 24:00 JST that day. It is not a ticket in the ticket ledger: it belongs to its
 * day and is gone with it, so it needs no expiry job and can never be two.
 */

/** The Japanese calendar day a free play belongs to, 'YYYY-MM-DD'. */
export function dailyFreePlayDay(nowMs: number): string {
  return jstIsoDate(nowMs);
}

/** When the day's free play ends: 24:00 JST (the next day's 00:00). */
export function dailyFreePlayEndsAt(nowMs: number): number {
  return startOfJstDay(nowMs) + DAY_MS;
}
