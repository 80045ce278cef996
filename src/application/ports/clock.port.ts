/** A scheduled callback; `cancel()` stops it if it has not run yet. */
export interface ScheduledTask {
  cancel(): void;
}

/**
 * Time for use-cases: the current instant and timers. The browser's clock in the app; `ManualClock`
 * (onkure/testing) in tests, which moves only when the test says so. Domain rules never read it —
 * use-cases pass the time in.
 */
export interface ClockPort {
  /** The current instant, epoch milliseconds. */
  now(): number;
  /** Runs `task` once after `delayMs` (0 or more). */
  setTimeout(task: () => void, delayMs: number): ScheduledTask;
}
