import type { Clock, ScheduledTask } from '../../server/clock';
import { ManualClock } from '../../src/testing';

/**
 * The server's Clock under a test's control: onkure/testing's ManualClock (time stands still until
 * the test moves it forward; due timers run in order at their own instants), answering Dates.
 */
export class ManualServerClock implements Clock {
  private readonly clock: ManualClock;

  constructor(start: Date = new Date()) {
    this.clock = new ManualClock(start.getTime());
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  setTimeout(task: () => void, delayMs: number): ScheduledTask {
    return this.clock.setTimeout(task, delayMs);
  }

  /** Timers scheduled and neither run nor cancelled. */
  get pendingTimers(): number {
    return this.clock.pendingTimers;
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /**
   * Moves time forward by `ms`, one due timer at a time, awaiting `settle` after each: work a timer
   * queues (a station room's step) runs at that timer's instant, before the next timer falls due.
   */
  async advanceSettling(ms: number, settle: () => Promise<void>): Promise<void> {
    const until = this.clock.now() + ms;
    for (let at = this.clock.nextDueAt(); at !== null && at <= until; at = this.clock.nextDueAt()) {
      this.clock.set(at);
      await settle();
    }
    this.clock.set(until);
    await settle();
  }

  /** Moves to a later instant (never back), running what falls due on the way. */
  set(instant: Date): void {
    this.clock.set(instant.getTime());
  }
}
