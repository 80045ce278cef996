import { describe, expect, it } from 'vitest';
import { DueTimer, retryDelayMs } from '../../server/clock';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * The timer behind the store's due work (the daily reconciliation, settlement expiries, clip
 * retention…): a failure is tried again after a wait that doubles, never at once in a loop, and a
 * read that failed does not leave the timer unarmed.
 */
function setUp(options: { failRuns?: number; failReads?: number; due?: number }) {
  const clock = new ManualServerClock(new Date('2026-11-30T00:00:00Z'));
  const start = clock.now().getTime();
  let due: number | null = start + (options.due ?? 0);
  let failRuns = options.failRuns ?? 0;
  let failReads = options.failReads ?? 0;
  const runs: number[] = [];
  const logged: string[] = [];
  const timer = new DueTimer(
    clock,
    async () => {
      if (failReads > 0) {
        failReads -= 1;
        throw new Error('store unreachable');
      }
      return due === null ? null : new Date(due);
    },
    async () => {
      runs.push(clock.now().getTime() - start);
      if (failRuns > 0) {
        failRuns -= 1;
        throw new Error('run failed');
      }
      due = null;
    },
    (message) => logged.push(message),
    'the test work',
  );
  const step = (ms: number) => clock.advanceSettling(ms, () => timer.settled());
  return { timer, runs, logged, step };
}

describe('DueTimer', () => {
  it('a run that keeps failing is tried again after 1 s, 2 s, 4 s…, not at once, and stops once it succeeds', async () => {
    const { timer, runs, logged, step } = setUp({ failRuns: 4 });
    timer.start();
    await timer.settled();
    await step(0);
    // Due now: it ran once and failed; nothing more at the same instant.
    expect(runs).toEqual([0]);
    await step(999);
    expect(runs).toEqual([0]);
    await step(60_000);
    expect(runs).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(logged.filter((m) => m === 'the test work failed')).toHaveLength(4);
    await step(600_000);
    expect(runs).toHaveLength(5);
    timer.stop();
  });

  it('a read of the next due time that fails is tried again, and the work runs once it reads', async () => {
    const { timer, runs, logged, step } = setUp({ failReads: 2, due: 5_000 });
    timer.start();
    await timer.settled();
    await step(0);
    expect(logged).toEqual(['the test work: reading the next due time failed']);
    await step(1_000);
    expect(logged).toHaveLength(2);
    // Read at 3 s (after 1 s, then 2 s), armed for its due instant.
    await step(10_000);
    expect(runs).toEqual([5_000]);
    timer.stop();
  });

  it('the wait doubles from 1 s and stays at a minute', () => {
    expect([1, 2, 3, 7, 8, 20].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 60_000, 60_000, 60_000]);
  });
});
