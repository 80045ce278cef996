import { SECOND_MS, STILL_IMAGE_BACKGROUND_RATE, STILL_IMAGE_REFRESH_MS } from '../constants';

/**
 * How often the still images refresh [R9-8]. In the foreground: every 90 ms (the working rate of
 * about 10 frames a second). In the background (page hidden): rate 2, one frame every 500 ms.
 * The spec names both rates but not their use; this is ours.
 */
export function stillImageRefreshMs(foreground: boolean): number {
  return foreground ? STILL_IMAGE_REFRESH_MS : SECOND_MS / STILL_IMAGE_BACKGROUND_RATE;
}

/** A still-image address with the time-based cache-busting query ('t'), keeping any existing query. */
export function stillImageUrl(base: string, nowMs: number): string {
  return `${base}${base.includes('?') ? '&' : '?'}t=${Math.floor(nowMs)}`;
}
