import type { Clock } from '../clock';

/**
 * Counts attempts per key in an exact sliding window, in this process's memory: for the crane's
 * control commands only (25 a second per player, the hot path of play). A player's controls reach
 * the one instance holding their socket, and a store write per button press would cost more than
 * the press (docs/security.md "Limits across instances"). The limits that guard a password or a
 * code count in the store instead (`AttemptLimits`, attempt-limiter.ts).
 *
 * `tryAcquire` checks and counts in one synchronous step: with any number of concurrent commands
 * at most `maxAttempts` pass per key and window.
 */
export class MemoryAttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly maxAttempts: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

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

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.attempts.get(key) ?? []).filter((t) => t > since);
  }

  private prune(): void {
    for (const key of [...this.attempts.keys()]) if (this.recent(key).length === 0) this.attempts.delete(key);
  }
}
