import type { LimitCounts } from './window-limiter';

/** Counters beyond which a sweep runs at once (a flood of new keys cannot grow the map without bound). */
const SWEEP_ABOVE = 50_000;

/**
 * The limits' counters in this process's memory: for a limit that need not hold across instances
 * and is hit too often for a store write each (the camera stills). Each step is synchronous, so
 * concurrent attempts get distinct counts.
 */
export class MemoryLimitCounts implements LimitCounts {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  increment(
    key: string,
    windowStart: number,
    previousStart: number,
    expiresAt: number,
  ): Promise<{ count: number; previous: number }> {
    if (this.counters.size > SWEEP_ABOVE) this.sweepNow(windowStart);
    const id = `${key}@${windowStart}`;
    const counter = this.counters.get(id) ?? { count: 0, expiresAt };
    counter.count += 1;
    this.counters.set(id, counter);
    const previous = this.counters.get(`${key}@${previousStart}`)?.count ?? 0;
    return Promise.resolve({ count: counter.count, previous });
  }

  decrement(key: string, windowStart: number): Promise<void> {
    const counter = this.counters.get(`${key}@${windowStart}`);
    if (counter && counter.count > 0) counter.count -= 1;
    return Promise.resolve();
  }

  remove(key: string): Promise<void> {
    for (const id of [...this.counters.keys()]) if (id.startsWith(`${key}@`)) this.counters.delete(id);
    return Promise.resolve();
  }

  removeExpired(now: number): Promise<number> {
    return Promise.resolve(this.sweepNow(now));
  }

  /** Counters held (tests). */
  get size(): number {
    return this.counters.size;
  }

  private sweepNow(now: number): number {
    let removed = 0;
    for (const [id, counter] of this.counters)
      if (counter.expiresAt <= now) {
        this.counters.delete(id);
        removed += 1;
      }
    return removed;
  }
}
