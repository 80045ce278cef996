import {
  MARQUEE_MIN_DURATION_MS, MARQUEE_MS_PER_CHARACTER, NOTICE_TOAST_MS, PAGE_ITEMS_COUNT, RESERVE_POLLING_TIME, SECOND_MS,
  SIDE_BANNER_CAROUSEL_COUNT,
} from '../constants';
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

/** The carousels the side banner shows: the first 3 [R9-2]. */
export function sideBannerCarousels<T>(carousels: readonly T[]): readonly T[] {
  return carousels.slice(0, SIDE_BANNER_CAROUSEL_COUNT);
}

/** One page of an item list; page numbers start at 1 [R9-3]. */
export function pageOfItems<T>(items: readonly T[], page: number, pageSize: number = PAGE_ITEMS_COUNT): readonly T[] {
  if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(pageSize) || pageSize < 1) return [];
  return items.slice((page - 1) * pageSize, page * pageSize);
}

/** The reserve polling interval in ms, from RESERVE_POLLING_TIME seconds unless configured [R9-3]. */
export function reservePollingIntervalMs(seconds: number = RESERVE_POLLING_TIME): number {
  return seconds * SECOND_MS;
}
