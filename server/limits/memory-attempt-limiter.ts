import type { Clock } from '../clock';

/**
 * Counts attempts per key in an exact sliding window, in this process's memory: for the crane's
 * control commands only (25 a second per player, the hot path of play). A player's controls reach
 * the one instance holding their socket, and a store write per button press would cost more than
 * the press (docs/security.md "Limits across instances"). The limits that guard a password or a
 * code count in the store instead (`AttemptLimits`, attempt-limiter.ts).
 *
 * `tryAcquire` checks and counts in one synchronous step, BEFORE the slow check it guards (a
 * password hash, a code lookup): with any number of concurrent requests at most `maxAttempts`
 * checks run per key and window. A success calls `reset`, which forgives the key's attempts.
 */
export class MemoryAttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly maxAttempts: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** True when the key has used up its attempts in the current window. */
  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.maxAttempts;
  }

  /**
   * Counts one attempt for the key and answers true, or answers false (counting nothing) when the
   * key has used up its attempts. Synchronous on purpose: no other request runs between check and count.
   */
  tryAcquire(key: string): boolean {
    const list = this.recent(key);
    if (list.length >= this.maxAttempts) return false;
    list.push(this.clock.now().getTime());
    this.attempts.set(key, list);
    if (this.attempts.size > 10_000) this.prune();
    return true;
  }

  /** Counts a failure after the fact (for callers that only count failed attempts). */
  recordFailure(key: string): void {
    const list = this.recent(key);
    list.push(this.clock.now().getTime());
    this.attempts.set(key, list);
    if (this.attempts.size > 10_000) this.prune();
  }

  reset(key: string): void {
    this.attempts.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.attempts.get(key) ?? []).filter((t) => t > since);
  }

  private prune(): void {
    for (const key of [...this.attempts.keys()]) if (this.recent(key).length === 0) this.attempts.delete(key);
  }
}
