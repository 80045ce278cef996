import { createHash } from 'node:crypto';
import type { Clock } from '../clock';

/** A limit: at most `max` attempts per key in any `windowMs` (approximately: see WindowLimiter). */
export interface LimitRule {
  /** Names the limit; keys of different limits never meet (`present:user`, `http:/api/auth/login`). */
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
}

/** The answer to one attempt. */
export interface LimitHit {
  /** False when the attempt is over the limit: the caller refuses it (429). */
  readonly allowed: boolean;
  /** The attempts the key has made in the sliding window, this one included. */
  readonly count: number;
  /** When the current fixed window ends (an honest Retry-After for a refused attempt). */
  readonly retryAfterMs: number;
  /** Takes this attempt back (it turned out not to count: a right present code). */
  giveBack(): Promise<void>;
}

/**
 * Where the counts live: one counter per key and fixed window. `increment` is atomic (one SQL
 * statement, or one synchronous step in memory): concurrent attempts get distinct counts.
 */
export interface LimitCounts {
  /** Adds 1 to the key's counter of `windowStart`; answers it and the previous window's count. */
  increment(
    key: string,
    windowStart: number,
    previousStart: number,
    expiresAt: number,
  ): Promise<{ count: number; previous: number }>;
  /** Takes 1 from the key's counter of `windowStart` (never below 0). */
  decrement(key: string, windowStart: number): Promise<void>;
  /** Forgets every window of the key. */
  remove(key: string): Promise<void>;
  /** Forgets the counters dead at `now`; answers how many. */
  removeExpired(now: number): Promise<number>;
}

/** How often a limiter sweeps dead counters (on the next attempt after this long). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counts attempts per key in a sliding window approximated by two fixed windows (the previous
 * window's count weighted by how much of it still lies in the sliding window, rounded up, plus the
 * current window's count), so a burst across a window's edge cannot pass twice the limit.
 *
 * Each attempt is counted BEFORE the work it guards (a code lookup, a password hash), in one atomic
 * step of its `LimitCounts`: with any number of concurrent attempts on any number of instances
 * sharing the counts, at most `max` are allowed per key and window. Refused attempts are counted
 * too (a client that keeps hammering stays refused until it pauses), as @fastify/rate-limit's own
 * store does. Keys are stored as the limit's name and a SHA-256 of the key (no address or e-mail
 * in the counts). Dead counters are swept on the first attempt a minute (by the injected clock).
 *
 * @example
 * const hit = await limiter.hit(PRESENT_CODES_PER_USER, String(userId));
 * if (!hit.allowed) throw new AccountRefusal(429, SERVER_MESSAGES.presentCodeTryLimit);
 */
export class WindowLimiter {
  private lastSweep: number;

  constructor(
    private readonly counts: LimitCounts,
    private readonly clock: Clock,
    private readonly onError: (message: string, error: unknown) => void = () => undefined,
  ) {
    this.lastSweep = clock.now().getTime();
  }

  /** Counts one attempt of `key` under `rule` and says whether it is allowed. */
  async hit(rule: LimitRule, key: string): Promise<LimitHit> {
    const now = this.clock.now().getTime();
    this.maybeSweep(now);
    const stored = storedKey(rule, key);
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    const { count, previous } = await this.counts.increment(
      stored,
      windowStart,
      windowStart - rule.windowMs,
      windowStart + 2 * rule.windowMs,
    );
    const weight = 1 - (now - windowStart) / rule.windowMs;
    const estimate = Math.ceil(previous * weight) + count;
    return {
      allowed: estimate <= rule.max,
      count: estimate,
      retryAfterMs: windowStart + rule.windowMs - now,
      giveBack: () => this.counts.decrement(stored, windowStart),
    };
  }

  /** Forgets the key's attempts (a successful login forgives its failures). */
  async reset(rule: LimitRule, key: string): Promise<void> {
    await this.counts.remove(storedKey(rule, key));
  }

  /** Removes the dead counters now; answers how many. */
  sweep(): Promise<number> {
    this.lastSweep = this.clock.now().getTime();
    return this.counts.removeExpired(this.lastSweep);
  }

  private maybeSweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.counts.removeExpired(now).catch((error: unknown) => this.onError('sweeping the limit counts failed', error));
  }
}

function storedKey(rule: LimitRule, key: string): string {
  return `${rule.name}:${createHash('sha256').update(key).digest('base64url')}`;
}
