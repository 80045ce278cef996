import { MARQUEE_MIN_DURATION_MS, MARQUEE_MS_PER_CHARACTER, NOTICE_TOAST_MS } from '../constants';
import { characterCount } from '../text/number-format';

/** Whether a toast shown at `shownAtMs` is still visible at `nowMs` (it goes after 3.5 s) [R2.5-6]. */
export function isToastVisible(shownAtMs: number, nowMs: number, durationMs: number = NOTICE_TOAST_MS): boolean {
  return nowMs >= shownAtMs && nowMs - shownAtMs < durationMs;
}

/**
 * How long the winner marquee takes to scroll a message: proportional to its length, so every
 * message moves at the same speed, never under the minimum [R9-5].
 */
export function marqueeDurationMs(message: string): number {
  return Math.max(MARQUEE_MIN_DURATION_MS, characterCount(message) * MARQUEE_MS_PER_CHARACTER);
}
