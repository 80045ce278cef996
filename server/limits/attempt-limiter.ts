import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { LimitRule } from './window-limiter';

/**
 * Where the attempts live: per key, the times (epoch ms) of its recent attempts. Each call is
 * atomic (one SQL statement): concurrent attempts on any number of instances see each other.
 */
export interface AttemptLogs {
  /**
   * Keeps the key's attempts after `since` (the newest `max` of them), adds `at` when fewer than
   * `max` remain (or always, with `force`) and answers whether it was added. `expiresAt` is when
   * an attempt made at `at` leaves the window.
   */
  add(key: string, at: number, since: number, max: number, expiresAt: number, force: boolean): Promise<boolean>;
  /** Removes one attempt made at `at` (it turned out not to count). */
  remove(key: string, at: number): Promise<void>;
  /** The key's attempts after `since`. */
  count(key: string, since: number): Promise<number>;
  /** Forgets every attempt of the key. */
  clear(key: string): Promise<void>;
  /** Forgets the keys whose attempts have all left their window at `now`; answers how many. */
  removeExpired(now: number): Promise<number>;
}

/** The answer to one attempt. */
export interface Attempt {
  /** False when the key has used up its attempts: the caller refuses (429) and nothing was counted. */
  readonly allowed: boolean;
  /** Takes this attempt back, once (the call was refused by another limit after all). */
  giveBack(): Promise<void>;
}

/** How often the attempts of dead keys are swept (on the next attempt after this long). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The exact sliding-log limits of the attempts that guard a slow or revealing check (a password
 * hash, a code lookup), kept in the store so they hold for every instance on one database. Make one
 * per server and take a limiter per rule (`limit(rule)`); they share the sweep.
 */
export class AttemptLimits {
  private lastSweep: number;

  constructor(
    private readonly logs: AttemptLogs,
    private readonly clock: Clock,
    private readonly onError: (message: string, error: unknown) => void = () => undefined,
  ) {
    this.lastSweep = clock.now().getTime();
  }

  /** The limiter of one rule (at most `rule.max` attempts per key in any `rule.windowMs`). */
  limit(rule: LimitRule): AttemptLimiter {
    return new AttemptLimiter(rule, this.logs, this.clock, this.onError, (now) => this.maybeSweep(now));
  }

  /** Removes the attempts of dead keys now; answers how many keys. */
  sweep(): Promise<number> {
    this.lastSweep = this.clock.now().getTime();
    return this.logs.removeExpired(this.lastSweep);
  }

  private maybeSweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.logs.removeExpired(now).catch((error: unknown) => this.onError('sweeping the attempt logs failed', error));
  }
}

/**
 * Counts attempts per key (a login's e-mail and client, a user's code tries) in an exact sliding
 * window: an attempt made at t counts while now - windowMs < t, so a key is free again exactly
 * windowMs after its oldest counted attempt. Refused attempts are not counted.
 *
 * `tryAcquire` checks and counts in one atomic step of the store, BEFORE the slow check it guards:
 * with any number of concurrent requests on any number of instances at most `max` checks run per
 * key and window. A success calls `reset`, which forgives the key's attempts.
 *
 * Fails closed: when the store cannot count an attempt, `tryAcquire` throws a 503 refusal (the
 * check does not run). Keys are stored as the rule's name and a SHA-256 of the key.
 *
 * @example
 * if (!(await this.checks.tryAcquire(String(userId))).allowed)
 *   throw new AccountRefusal(429, SERVER_MESSAGES.passwordCheckLimit);
 */
export class AttemptLimiter {
  constructor(
    private readonly rule: LimitRule,
    private readonly logs: AttemptLogs,
    private readonly clock: Clock,
    private readonly onError: (message: string, error: unknown) => void,
    private readonly swept: (now: number) => void,
  ) {}

  /** Counts one attempt of the key and answers allowed, or refused (counting nothing) when it has used up its attempts. */
  async tryAcquire(key: string): Promise<Attempt> {
    const at = this.clock.now().getTime();
    this.swept(at);
    const stored = this.stored(key);
    const allowed = await this.counted(() =>
      this.logs.add(stored, at, at - this.rule.windowMs, this.rule.max, at + this.rule.windowMs, false),
    );
    let given = !allowed;
    return {
      allowed,
      giveBack: () => {
        if (given) return Promise.resolve();
        given = true;
        return this.quietly('giving an attempt back', () => this.logs.remove(stored, at));
      },
    };
  }

  /** Counts a failure after the fact, past the limit too (for callers that count only failures). */
  async recordFailure(key: string): Promise<void> {
    const at = this.clock.now().getTime();
    this.swept(at);
    await this.counted(() =>
      this.logs.add(this.stored(key), at, at - this.rule.windowMs, this.rule.max, at + this.rule.windowMs, true),
    );
  }

  /** True when the key has used up its attempts in the current window. */
  async isBlocked(key: string): Promise<boolean> {
    const at = this.clock.now().getTime();
    const count = await this.counted(() => this.logs.count(this.stored(key), at - this.rule.windowMs));
    return count >= this.rule.max;
  }

  /**
   * Forgives the key's attempts (a successful check). A store failure is logged, not thrown: the
   * check has passed, and the attempts left counted only make the limit stricter.
   */
  reset(key: string): Promise<void> {
    return this.quietly('resetting an attempt log', () => this.logs.clear(this.stored(key)));
  }

  private async counted<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      this.onError(`counting an attempt (${this.rule.name}) failed`, error);
      throw new Refusal(503, 503, SERVER_MESSAGES.limitUnavailable);
    }
  }

  private async quietly(what: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      this.onError(`${what} (${this.rule.name}) failed`, error);
    }
  }

  private stored(key: string): string {
    return `${this.rule.name}:${createHash('sha256').update(key).digest('base64url')}`;
  }
}
