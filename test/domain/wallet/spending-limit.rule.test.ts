import { describe, expect, it } from 'vitest';
import {
  changeSpendingLimit,
  DAY_MS,
  monthlyPurchaseCap,
  NO_SPENDING_LIMIT,
  remainingThisMonth,
  settlementStep,
  spendingLimitAt,
} from '../../../src/domain';

const T = Date.UTC(2026, 10, 10, 3);

describe("the player's own spending limit [R10-3]", () => {
  it('[R10-3] a first limit and a lowering take effect at once and drop a pending raise', () => {
    const first = changeSpendingLimit(NO_SPENDING_LIMIT, 10_000, T);
    expect(first).toEqual({ limitYen: 10_000, pending: null });
    const raised = changeSpendingLimit(first, 30_000, T);
    expect(raised.pending).toEqual({ limitYen: 30_000, effectiveAtMs: T + DAY_MS });
    expect(changeSpendingLimit(raised, 5_000, T + 1000)).toEqual({ limitYen: 5_000, pending: null });
  });

  it('[R10-3] a raise or a removal waits 24 hours, then applies; asking again restarts the wait', () => {
    const raised = changeSpendingLimit({ limitYen: 10_000, pending: null }, 30_000, T);
    expect(spendingLimitAt(raised, T + DAY_MS - 1).limitYen).toBe(10_000);
    expect(spendingLimitAt(raised, T + DAY_MS)).toEqual({ limitYen: 30_000, pending: null });
    const removed = changeSpendingLimit({ limitYen: 10_000, pending: null }, null, T);
    expect(removed).toEqual({ limitYen: 10_000, pending: { limitYen: null, effectiveAtMs: T + DAY_MS } });
    expect(changeSpendingLimit(removed, null, T + 5000).pending?.effectiveAtMs).toBe(T + 5000 + DAY_MS);
    // Asking for the limit in force drops the pending change.
    expect(changeSpendingLimit(removed, 10_000, T + 1)).toEqual({ limitYen: 10_000, pending: null });
  });

  it("[R10-3] the lower of the player's limit and the minors' cap applies", () => {
    expect(monthlyPurchaseCap(null, null)).toBeNull();
    expect(monthlyPurchaseCap(3_000, null)).toBe(3_000);
    expect(monthlyPurchaseCap(null, 5_000)).toBe(5_000);
    expect(monthlyPurchaseCap(10_000, 5_000)).toBe(5_000);
    expect(monthlyPurchaseCap(2_000, 5_000)).toBe(2_000);
    expect(remainingThisMonth(5_000, 6_000)).toBe(0);
    expect(remainingThisMonth(null, 6_000)).toBeNull();
  });
});

describe('a provider callback applied to a settlement [R10-2]', () => {
  it('[R10-2] only a pending settlement moves, and only paid credits', () => {
    expect(settlementStep('pending', 'paid')).toEqual({ kind: 'complete' });
    expect(settlementStep('pending', 'declined')).toEqual({ kind: 'close', status: 'failed' });
    expect(settlementStep('pending', 'failed')).toEqual({ kind: 'close', status: 'failed' });
    expect(settlementStep('pending', 'cancelled')).toEqual({ kind: 'close', status: 'cancelled' });
    expect(settlementStep('completed', 'paid')).toEqual({ kind: 'repeat' });
    expect(settlementStep('failed', 'declined')).toEqual({ kind: 'repeat' });
    expect(settlementStep('cancelled', 'paid')).toEqual({ kind: 'conflict' });
    expect(settlementStep('completed', 'cancelled')).toEqual({ kind: 'conflict' });
  });
});
