import type { ClockPort, ScheduledTask } from '../../application';

/** The host's clock and timers (browser or Node). */
export class SystemClock implements ClockPort {
  now(): number {
    return Date.now();
  }

  setTimeout(task: () => void, delayMs: number): ScheduledTask {
    const handle = globalThis.setTimeout(task, Math.max(0, delayMs));
    return { cancel: () => globalThis.clearTimeout(handle) };
  }
}
