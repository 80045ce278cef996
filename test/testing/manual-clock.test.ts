import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/testing';

describe('ManualClock', () => {
  it('moves only when told, running due timers in time order at their own instants', () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 200);
    expect(clock.now()).toBe(1_000);
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(151);
    expect(fired).toEqual(['a@1100', 'b@1200', 'c@1200']);
    expect(clock.now()).toBe(1_250);
  });

  it('runs a timer a task schedules when it falls within the same advance, and never a cancelled one', () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    const cancelled = clock.setTimeout(() => fired.push(-1), 10);
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 50);
    }, 20);
    cancelled.cancel();
    expect(clock.pendingTimers).toBe(1);
    clock.advance(100);
    expect(fired).toEqual([20, 70]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses to go backwards', () => {
    const clock = new ManualClock(500);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set(100)).toThrow(RangeError);
  });
});
