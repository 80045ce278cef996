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

  /** Moves to a later instant (never back), running what falls due on the way. */
  set(instant: Date): void {
    this.clock.set(instant.getTime());
  }
}
