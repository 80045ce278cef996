/** A scheduled callback; `cancel()` stops it if it has not run yet. */
export interface ScheduledTask {
  cancel(): void;
}

/**
 * The server's time: the current instant and timers. Every service takes it from the composition
 * root (`createServices`), so deadlines, windows and expiries can be driven by a test's manual clock.
 */
export interface Clock {
  now(): Date;
  /** Runs `task` once after `delayMs`. */
  setTimeout(task: () => void, delayMs: number): ScheduledTask;
}

/**
 * Runs `task` every `everyMs` on `clock` (each run arms the next), until the answer is cancelled.
 * A helper over `setTimeout` rather than a second method, so every Clock (and every test's fake)
 * stays two methods.
 */
export function repeatEvery(clock: Clock, everyMs: number, task: () => void): ScheduledTask {
  let current: ScheduledTask | null = null;
  let cancelled = false;
  const arm = () => {
    current = clock.setTimeout(() => {
      if (cancelled) return;
      arm();
      task();
    }, everyMs);
  };
  arm();
  return {
    cancel: () => {
      cancelled = true;
      current?.cancel();
    },
  };
}

/** The machine's clock and timers. */
/** The longest delay Node's timers take (a longer one fires after 1 ms, with a warning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout(task, delayMs) {
    // A deadline weeks away (a kuji's sale end) waits in steps of the longest delay Node takes.
    let handle: NodeJS.Timeout;
    const arm = (left: number) => {
      handle = setTimeout(
        () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : task()),
        Math.min(Math.max(0, left), MAX_TIMER_MS),
      );
      handle.unref?.();
    };
    arm(delayMs);
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * One timer for the earliest due instant of a set kept in the store (settlement expiries, prize
 * storage deadlines…): `nextDue` asks the store for the earliest instant, `run` handles everything
 * due and the timer is armed again at the next one. `poke()` after a write that may have brought
 * the earliest instant forward. A restart loses nothing: `start()` reads the store again.
 *
 * A failure (the store unreachable, a run that throws) is logged and tried again after a wait that
 * doubles from 1 s up to a minute, and starts again from 1 s after a success: neither a read that
 * failed once leaves the timer unarmed for ever, nor a run that keeps failing retries at once in a
 * loop against the store.
 */
export class DueTimer {
  private armed: { task: ScheduledTask; at: number } | null = null;
  private running = false;
  /** Failures in a row (reads or runs): the next try waits retryDelayMs(failures). */
  private failures = 0;

  constructor(
    private readonly clock: Clock,
    private readonly nextDue: () => Promise<Date | null>,
    private readonly run: () => Promise<void>,
    private readonly log: (message: string, error?: unknown) => void,
    private readonly what: string,
    /**
     * Look again at least this often (ms), due or not: writes made on another instance, or inside a
     * transaction not yet committed when it was poked, are found by the next look.
     */
    private readonly maxWaitMs: number | null = null,
  ) {}

  start(): void {
    this.running = true;
    void this.poke();
  }

  stop(): void {
    this.running = false;
    this.armed?.task.cancel();
    this.armed = null;
  }

  /** Re-reads the earliest due instant and arms the timer for it if it is sooner. */
  poke(): Promise<void> {
    return this.track(this.arm());
  }

  /** Resolves once no read or run started by this timer is still going (tests step a manual clock with it). */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.work;
      await seen;
    } while (seen !== this.work);
  }

  private work: Promise<void> = Promise.resolve();

  private track(p: Promise<void>): Promise<void> {
    this.work = Promise.all([this.work, p]).then(() => undefined);
    return p;
  }

  private async arm(): Promise<void> {
    if (!this.running) return;
    let next: Date | null;
    try {
      next = await this.nextDue();
    } catch (error) {
      this.failures += 1;
      this.log(`${this.what}: reading the next due time failed`, error);
      this.armAt(this.clock.now().getTime() + retryDelayMs(this.failures), () => void this.poke());
      return;
    }
    if (!this.running) return;
    const latest = this.maxWaitMs === null ? null : this.clock.now().getTime() + this.maxWaitMs;
    if (!next && latest === null) return;
    const at = Math.min(next?.getTime() ?? Infinity, latest ?? Infinity);
    this.armAt(
      at,
      () =>
        void this.track(
          this.run().then(
            () => {
              this.failures = 0;
              return this.poke();
            },
            (error: unknown) => {
              this.failures += 1;
              this.log(`${this.what} failed`, error);
              // What is due stays due: look again after the wait, not at once.
              if (this.running)
                this.armAt(this.clock.now().getTime() + retryDelayMs(this.failures), () => void this.poke());
            },
          ),
        ),
    );
  }

  /** Arms the timer for `at`, unless it is armed for that instant or sooner already. */
  private armAt(at: number, task: () => void): void {
    if (this.armed && this.armed.at <= at) return;
    this.armed?.task.cancel();
    const armed = this.clock.setTimeout(() => {
      this.armed = null;
      task();
    }, at - this.clock.now().getTime());
    this.armed = { task: armed, at };
  }
}

/** The wait before the next try after `failures` failures in a row: 1 s, 2 s, 4 s… up to a minute. */
export function retryDelayMs(failures: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, failures - 1), 60_000);
}
