/**
 * Counts failed attempts per key (login e-mail, verification code per user) in a sliding window,
 * in memory. Kept out of the store on purpose: a refused request changes nothing in the store.
 * A multi-instance deployment would move this to a shared store (e.g. Redis) with the same API.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly maxFailures: number, private readonly windowMs: number, private readonly now: () => Date) {}

  /** True when the key has used up its failures in the current window. */
  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.maxFailures;
  }

  recordFailure(key: string): void {
    const list = this.recent(key);
    list.push(this.now().getTime());
    this.failures.set(key, list);
    if (this.failures.size > 10_000) this.prune();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now().getTime() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) if (this.recent(key).length === 0) this.failures.delete(key);
  }
}
