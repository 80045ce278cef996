import { createHash, randomBytes } from 'node:crypto';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';

/**
 * Where the leases live: per key, the open connections' leases (an id and when it lapses). Each
 * call is atomic (one SQL statement): concurrent takes on any number of instances see each other.
 */
export interface LeaseLogs {
  /**
   * Drops the key's leases lapsed at `now`, then adds lease `id` ending at `until` when fewer than
   * `max` remain (or always, with `force`: a renewal); answers whether it was added.
   */
  take(key: string, id: string, now: number, until: number, max: number, force: boolean): Promise<boolean>;
  /** Removes lease `id` of the key. */
  release(key: string, id: string): Promise<void>;
  /** Forgets the keys whose leases have all lapsed at `now`; answers how many. */
  removeExpired(now: number): Promise<number>;
}

/** One held place; `release` gives it back (once; later calls do nothing). */
export interface ConnectionLease {
  release(): void;
}

/** How a limit of open connections keeps its leases. */
export interface LeaseTimings {
  /** A lease lapses this long after its last renewal (an instance killed holds its places no longer). */
  readonly ttlMs: number;
  /** Held leases are renewed this often (well inside ttlMs). */
  readonly renewMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { ttlMs: 30_000, renewMs: 10_000 };

/** How often dead keys are swept (on the next take after this long). */
const SWEEP_EVERY_MS = 60_000;

/**
 * At most `max` connections open at once per key (a client address) across every instance on one
 * store: each open connection holds a lease in the store, taken atomically before the connection's
 * slow steps, renewed while it lives and released when it ends. A lease of an instance that died
 * without releasing lapses `ttlMs` after its last renewal, so a killed instance keeps a client's
 * places for at most that long. Keys are stored as the limit's name and a SHA-256 of the key.
 *
 * A store that fails on `take` throws (the caller refuses the connection: fail closed). A renewal
 * or a release that fails is logged: the lease lapses on its own.
 */
export class ConnectionLeases {
  /** This instance's leases: id → its stored key. */
  private readonly held = new Map<string, string>();
  private readonly pending = new Set<Promise<void>>();
  private readonly instance = randomBytes(6).toString('base64url');
  private renewal: ScheduledTask | null = null;
  private lastSweep: number;
  private closed = false;
  private readonly timings: LeaseTimings;

  constructor(
    private readonly name: string,
    private readonly max: number,
    private readonly logs: LeaseLogs,
    private readonly clock: Clock,
    private readonly onError: (message: string, error: unknown) => void,
    timings: Partial<LeaseTimings> = {},
  ) {
    this.timings = { ...DEFAULT_LEASE_TIMINGS, ...timings };
    this.lastSweep = clock.now().getTime();
  }

  /** Takes one of the key's places, or answers null when it has `max` open. Rejects when the store fails. */
  async take(key: string): Promise<ConnectionLease | null> {
    if (this.closed) return null;
    const now = this.clock.now().getTime();
    this.maybeSweep(now);
    const stored = `${this.name}:${createHash('sha256').update(key).digest('base64url')}`;
    const id = `${this.instance}/${randomBytes(9).toString('base64url')}`;
    const taken = await this.logs.take(stored, id, now, now + this.timings.ttlMs, this.max, false);
    if (!taken) return null;
    this.held.set(id, stored);
    this.renewal ??= repeatEvery(this.clock, this.timings.renewMs, () => this.renewAll());
    return { release: () => this.release(id) };
  }

  /** Leases this instance holds (tests). */
  get holding(): number {
    return this.held.size;
  }

  /** Answers once the renewals, releases and sweeps under way have landed. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Stops renewing; answers once the releases under way have landed. Takes nothing afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.renewal?.cancel();
    this.renewal = null;
    await this.settled();
  }

  private release(id: string): void {
    const stored = this.held.get(id);
    if (stored === undefined) return;
    this.held.delete(id);
    if (this.held.size === 0) {
      this.renewal?.cancel();
      this.renewal = null;
    }
    this.track(this.logs.release(stored, id), 'releasing a connection lease failed');
  }

  private renewAll(): void {
    const now = this.clock.now().getTime();
    for (const [id, stored] of this.held)
      this.track(
        this.logs.take(stored, id, now, now + this.timings.ttlMs, this.max, true).then(() => undefined),
        'renewing a connection lease failed',
      );
  }

  private maybeSweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.track(
      this.logs.removeExpired(now).then(() => undefined),
      'sweeping the connection leases failed',
    );
  }

  private track(work: Promise<void>, failure: string): void {
    const done = work.catch((error: unknown) => this.onError(failure, error)).finally(() => this.pending.delete(done));
    this.pending.add(done);
  }
}
