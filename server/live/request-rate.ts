import type { Clock } from '../clock';

/** The span a rate is averaged over. */
export const REQUEST_RATE_WINDOW_MS = 5_000;
const BUCKET_MS = 1_000;
const BUCKETS = REQUEST_RATE_WINDOW_MS / BUCKET_MS;

/**
 * Requests per second per key (a station camera's stills or HLS files) over the last
 * REQUEST_RATE_WINDOW_MS, on the injected clock: what the origin itself sees (the console's camera
 * view). Behind an HTTP cache this is the cache's misses, not its clients. A key not asked for over
 * a window is forgotten at the next count.
 */
export class RequestRate {
  private readonly buckets = new Map<string, { start: number; counts: number[] }>();

  constructor(private readonly clock: Clock) {}

  hit(key: string): void {
    const entry = this.current(key, true)!;
    entry.counts[entry.counts.length - 1]! += 1;
    if (this.buckets.size > 1_000) this.prune();
  }

  /** Requests a second over the last window (one decimal). */
  perSecond(key: string): number {
    const entry = this.current(key, false);
    if (!entry) return 0;
    const total = entry.counts.reduce((a, b) => a + b, 0);
    return Math.round((total * 10_000) / REQUEST_RATE_WINDOW_MS) / 10;
  }

  /** The key's buckets moved on to now (older ones dropped). */
  private current(key: string, create: boolean): { start: number; counts: number[] } | null {
    const now = Math.floor(this.clock.now().getTime() / BUCKET_MS) * BUCKET_MS;
    let entry = this.buckets.get(key);
    if (!entry) {
      if (!create) return null;
      entry = { start: now, counts: [0] };
      this.buckets.set(key, entry);
    }
    const last = entry.start + (entry.counts.length - 1) * BUCKET_MS;
    const steps = Math.min(BUCKETS, Math.max(0, Math.round((now - last) / BUCKET_MS)));
    for (let i = 0; i < steps; i += 1) entry.counts.push(0);
    if (now - last > REQUEST_RATE_WINDOW_MS) entry.counts = [0];
    while (entry.counts.length > BUCKETS) entry.counts.shift();
    entry.start = now - (entry.counts.length - 1) * BUCKET_MS;
    if (!create && entry.counts.every((c) => c === 0)) {
      this.buckets.delete(key);
      return null;
    }
    return entry;
  }

  private prune(): void {
    for (const key of [...this.buckets.keys()]) this.current(key, false);
  }
}
