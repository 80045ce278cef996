import { MARQUEE_MIN_DURATION_MS, MARQUEE_MS_PER_CHARACTER } from '../constants';
import { characterCount } from '../text/number-format';

/**
 * How long the winner marquee takes to scroll a message: proportional to its length, so every
 * message moves at the same speed, never under the minimum [R9-5].
 */
export function marqueeDurationMs(message: string): number {
  return Math.max(MARQUEE_MIN_DURATION_MS, characterCount(message) * MARQUEE_MS_PER_CHARACTER);
}
