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

/** The machine's clock and timers. */
export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout(task, delayMs) {
    const handle = setTimeout(task, Math.max(0, delayMs));
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};
