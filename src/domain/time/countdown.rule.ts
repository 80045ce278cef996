import { SECOND_MS } from '../constants';

/**
 * Whole seconds a countdown shows of a window the server counts (a station's confirm window, a play's
 * button and result windows, a kuji holder's window, an operator's view of a play): the server said
 * `msLeft` in an answer that arrived at local time `receivedAt`, and the time since then is counted on
 * the local clock, so the two clocks need not agree. Rounded up (0.2 s left still shows 1), never
 * below 0, never above the answer; null when the answer had no window.
 *
 * @example
 * countdownSeconds(info.reserve_time * SECOND_MS, receivedAt, clock.now());
 */
export function countdownSeconds(msLeft: number, receivedAt: number, nowMs: number): number;
export function countdownSeconds(msLeft: number | null, receivedAt: number, nowMs: number): number | null;
export function countdownSeconds(msLeft: number | null, receivedAt: number, nowMs: number): number | null {
  if (msLeft === null) return null;
  const elapsed = Math.max(0, nowMs - receivedAt);
  return Math.max(0, Math.ceil((msLeft - elapsed) / SECOND_MS));
}
