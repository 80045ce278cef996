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
export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout(task, delayMs) {
    const handle = setTimeout(task, Math.max(0, delayMs));
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};
