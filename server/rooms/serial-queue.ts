import type { Clock, ScheduledTask } from '../clock';

/**
 * Runs work one piece at a time, in the order it was queued: a room's events never interleave,
 * so a request arriving at the instant a deadline falls due is either before it or after it.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Runs `work` after everything queued before it; a failure reaches only this caller. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const run = this.tail.then(work, work).finally(() => (this.pending -= 1));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Whether nothing is queued or running now. */
  get empty(): boolean {
    return this.pending === 0;
  }

  /** Resolves once nothing is queued (work queued meanwhile is waited for too). */
  async idle(): Promise<void> {
    for (let before = this.tail; ; before = this.tail) {
      await before;
      if (before === this.tail) return;
    }
  }
}

/**
 * One timer for one instant: a room sets it to the next instant its state falls due (a deadline,
 * the machine's next tick) after each step; setting the same instant again keeps the timer.
 */
export class WakeTimer {
  private task: ScheduledTask | null = null;
  private at: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  set(at: number | null): void {
    if (at === this.at && (this.task !== null || at === null)) return;
    this.cancel();
    if (at === null) return;
    this.at = at;
    this.task = this.clock.setTimeout(() => {
      this.task = null;
      this.at = null;
      this.wake();
    }, at - this.clock.now().getTime());
  }

  cancel(): void {
    this.task?.cancel();
    this.task = null;
    this.at = null;
  }
}
