import type { ClockPort, ScheduledTask } from '../application';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly task: () => void;
  cancelled: boolean;
}

/**
 * A ClockPort that moves only when the test moves it: `advance(ms)` runs every timer that falls due,
 * in time order (timers a task schedules run too if they fall within the advance), and `now()` reads
 * the instant the test set. No real time passes.
 *
 * @example
 * const clock = new ManualClock(Date.parse('2026-11-23T10:00:00+09:00'));
 * clock.setTimeout(() => fired.push(clock.now()), 1000);
 * clock.advance(999); // nothing yet
 * clock.advance(1);   // fired at 10:00:01
 */
export class ManualClock implements ClockPort {
  private current: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(task: () => void, delayMs: number): ScheduledTask {
    const timer: Timer = { id: this.nextId++, at: this.current + Math.max(0, delayMs), task, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Timers scheduled and not yet run or cancelled. */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** The instant the earliest pending timer falls due, or null when none is pending. */
  nextDueAt(): number | null {
    const pending = this.timers.filter((t) => !t.cancelled);
    return pending.length === 0 ? null : Math.min(...pending.map((t) => t.at));
  }

  /** Moves time forward by `ms`, running each timer that falls due at its own instant. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance: ${ms} is not a duration`);
    const until = this.current + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => !t.cancelled && t.at <= until)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.task();
    }
    this.current = until;
    this.timers = this.timers.filter((t) => !t.cancelled);
  }

  /** Jumps to an instant (not backwards), running what falls due on the way. */
  set(instantMs: number): void {
    this.advance(instantMs - this.current);
  }
}
