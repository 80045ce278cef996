import { DAY_MS } from '../constants';

/** What a deadline asks of something now: a notice some days before, the end itself, or nothing. */
export type DeadlineStep<D extends number = number> =
  { readonly kind: 'notice'; readonly daysBefore: D } | { readonly kind: 'lapse' } | { readonly kind: 'none' };

/**
 * The step due before a deadline with notices `noticeDays` days before it (a prize's storage
 * [R10-5], a free TC lot's end [R11-7]): at the end, the lapse; before it, the nearest notice not
 * yet given. A notice whose moment passed while the server was down is still given, but only the
 * nearest one (a player is not told "7 days" on the last day).
 */
export function deadlineStep<D extends number>(
  deadlineMs: number,
  nowMs: number,
  noticesGiven: readonly number[],
  noticeDays: readonly D[],
): DeadlineStep<D> {
  if (nowMs >= deadlineMs) return { kind: 'lapse' };
  const due = noticeDays.filter((d) => nowMs >= deadlineMs - d * DAY_MS);
  if (due.length === 0) return { kind: 'none' };
  const nearest = due.reduce((a, b) => (b < a ? b : a));
  if (noticesGiven.some((d) => d <= nearest)) return { kind: 'none' };
  return { kind: 'notice', daysBefore: nearest };
}

/** The next instant a deadline asks something (a notice not yet given, or the end). */
export function nextDeadlineEventAt(
  deadlineMs: number,
  noticesGiven: readonly number[],
  noticeDays: readonly number[],
): number {
  const given = noticesGiven.length > 0 ? Math.min(...noticesGiven) : Infinity;
  const pending = noticeDays.filter((d) => d < given).map((d) => deadlineMs - d * DAY_MS);
  return Math.min(deadlineMs, ...pending);
}
