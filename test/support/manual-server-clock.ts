import type { Clock, ScheduledTask } from '../../server/clock';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly task: () => void;
  cancelled: boolean;
}

/**
 * The server's Clock under a test's control: time stands still until the test moves it, and
 * moving it forward runs every timer that falls due, in order, at its own instant. `set` may also
 * move back (to replay a window from its start); timers then wait for the time to come again.
 */
export class ManualServerClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimeout(task: () => void, delayMs: number): ScheduledTask {
    const timer: Timer = { at: this.current + Math.max(0, delayMs), seq: this.seq++, task, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Timers scheduled and neither run nor cancelled. */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  advance(ms: number): void {
    this.set(new Date(this.current + ms));
  }

  set(instant: Date): void {
    const until = instant.getTime();
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.task();
    }
    this.current = until;
  }
}
