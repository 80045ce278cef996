import { performance } from 'node:perf_hooks';

/**
 * The agent's clock: a monotonic `now()` in milliseconds (the protocol's `at`/`t` fields: only
 * differences mean anything) and one-shot timers. Injected everywhere, so tests move time by hand
 * (ManualClock from src/testing has this shape) and no timer in the agent reads the wall clock.
 */
export interface AgentClock {
  now(): number;
  setTimeout(task: () => void, delayMs: number): AgentTimer;
}

export interface AgentTimer {
  cancel(): void;
}

/** The process's monotonic clock: a wall-clock step (NTP, DST) never fires a watchdog early. */
export const systemAgentClock: AgentClock = {
  now: () => performance.now(),
  setTimeout(task, delayMs) {
    const handle = setTimeout(task, Math.max(0, delayMs));
    return { cancel: () => clearTimeout(handle) };
  },
};
