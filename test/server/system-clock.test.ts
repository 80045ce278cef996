import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, systemClock } from '../../server/clock';

afterEach(() => {
  vi.useRealTimers();
});

describe("the server's system clock", () => {
  it("waits a deadline longer than Node's longest timer (a kuji sale ending in 60 days) in steps: it fires once, at its instant, and can be cancelled on the way", () => {
    vi.useFakeTimers();
    const task = vi.fn();
    const sixtyDays = 60 * 86_400_000;
    systemClock.setTimeout(task, sixtyDays);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(sixtyDays - MAX_TIMER_MS - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(sixtyDays);
    expect(task).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const timer = systemClock.setTimeout(cancelled, sixtyDays);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1_000);
    timer.cancel();
    vi.advanceTimersByTime(sixtyDays);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
