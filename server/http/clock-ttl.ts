import type { Perf } from 'lru-cache';
import type { Clock } from '../clock';

/**
 * lru-cache options that run its time-to-live on the server's Clock instead of `performance.now()`,
 * so a test's manual clock expires entries. `ttlResolution: 0` reads the clock on every check: the
 * default keeps one reading for a real millisecond, which a manual clock can move past.
 */
export function clockTtl(clock: Clock): { perf: Perf; ttlResolution: 0 } {
  return { perf: { now: () => clock.now().getTime() }, ttlResolution: 0 };
}

/**
 * `set` options under which an entry is stale from the instant `until` (ms since the epoch) on:
 * lru-cache counts an entry stale once `now - start > ttl`, which on whole milliseconds is
 * `now >= start + ttl + 1`.
 */
export function staleFrom(until: number): { ttl: number; start: number } {
  return { ttl: 1, start: until - 2 };
}
