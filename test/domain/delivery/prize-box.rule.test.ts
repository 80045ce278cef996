import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargeOfPrizes,
  DAY_MS,
  deliveryTicketWeek,
  fromJstParts,
  groupPrizes,
  isDeliverable,
  lapseOutcome,
  nextJstWeekStart,
  nextStorageEventAt,
  orderMadeShortfalls,
  PRIZE_DELIVERY_STATUSES,
  storageDaysLeft,
  storageStep,
  weeklyTicketDue,
} from '../../../src/domain';
import { aWonPrize } from '../../../src/testing';

describe('the prize box lists', () => {
  it('[R4.5-1] before is not requested, after is requested or on its way, invalid is expired, cancelled or returned', () => {
    const prizes = PRIZE_DELIVERY_STATUSES.map((delivery_status, i) =>
      aWonPrize({ play_history_id: i + 1, delivery_status }),
    );
    const g = groupPrizes(prizes);
    expect(g.before.map((p) => p.delivery_status)).toEqual(['not_requested']);
    expect(g.after.map((p) => p.delivery_status)).toEqual(['requested', 'preparing', 'shipped', 'delivered']);
    expect(g.invalid.map((p) => p.delivery_status)).toEqual(['cancelled', 'returned', 'expired']);
  });

  it('[R4.5-1] a digital prize is in after from the start and never deliverable', () => {
    const digital = aWonPrize({ prize_type: 'digital', keep_until: null });
    expect(groupPrizes([digital]).after).toEqual([digital]);
    expect(isDeliverable(digital)).toBe(false);
    expect(isDeliverable(aWonPrize({ prize_type: 'direct' }))).toBe(true);
    expect(isDeliverable(aWonPrize({ delivery_status: 'expired' }))).toBe(false);
  });
});

describe('the charge of chosen prizes', () => {
  const crane = aWonPrize({ prize_kind: 'crane' });
  const kuji = (n: number) => aWonPrize({ prize_kind: 'kuji', prize_count: n });
  const orderMade = aWonPrize({ prize_kind: 'order_made' });

  it('[R9-1] kuji prizes are counted by prize_count across lines: ⌈n/15⌉ × 8000 at 0, 1, 15, 16, 30, 31', () => {
    for (const [n, fee] of [
      [1, 8000],
      [15, 8000],
      [16, 16000],
      [30, 16000],
      [31, 24000],
    ] as const)
      expect(chargeOfPrizes([kuji(n)], false).feeTc).toBe(fee);
    expect(chargeOfPrizes([], false).feeTc).toBe(0);
    expect(chargeOfPrizes([kuji(10), kuji(6)], false).feeTc).toBe(16000);
    expect(chargeOfPrizes([crane, orderMade, kuji(3)], false).feeTc).toBe(24000);
  });

  it('[R5-3] a ticket waives the whole charge only when a normal crane prize is among them', () => {
    expect(chargeOfPrizes([crane, kuji(20)], true)).toEqual({ baseFeeTc: 24000, feeTc: 0, waived: true });
    expect(chargeOfPrizes([kuji(20)], true)).toEqual({ baseFeeTc: 16000, feeTc: 16000, waived: false });
    expect(chargeOfPrizes([crane], false).waived).toBe(false);
  });
});

describe('the order-made check', () => {
  it('[R5-4] an item is flagged when its unsent list is longer than the count chosen now', () => {
    const unsent = [1, 2, 3].map((id) =>
      aWonPrize({ play_history_id: id, prize_kind: 'order_made', product_name: '似顔絵アクリル' }),
    );
    const other = aWonPrize({ play_history_id: 9, prize_kind: 'order_made', product_name: '名入れマグ' });
    expect(orderMadeShortfalls([...unsent, other], new Set([1]))).toEqual([
      { product_name: '似顔絵アクリル', unsent: 3, chosen: 1 },
    ]);
    expect(orderMadeShortfalls([...unsent, other], new Set([1, 2, 3]))).toEqual([]);
    // Crane prizes are never checked.
    expect(
      orderMadeShortfalls([aWonPrize({ play_history_id: 5 }), aWonPrize({ play_history_id: 6 })], new Set([5])),
    ).toEqual([]);
  });
});

describe('the storage period', () => {
  const end = Date.UTC(2026, 11, 25);

  it('[R10-5] the 7-day notice, then the 1-day notice, then the lapse; each once', () => {
    expect(storageStep(end, end - 8 * DAY_MS, [])).toEqual({ kind: 'none' });
    expect(storageStep(end, end - 7 * DAY_MS, [])).toEqual({ kind: 'notice', daysBefore: 7 });
    expect(storageStep(end, end - 3 * DAY_MS, [7])).toEqual({ kind: 'none' });
    expect(storageStep(end, end - DAY_MS, [7])).toEqual({ kind: 'notice', daysBefore: 1 });
    expect(storageStep(end, end - 1, [1])).toEqual({ kind: 'none' });
    expect(storageStep(end, end, [1])).toEqual({ kind: 'lapse' });
    // Down over both moments: only the nearest notice is given.
    expect(storageStep(end, end - 10 * 3600_000, [])).toEqual({ kind: 'notice', daysBefore: 1 });
    expect(nextStorageEventAt(end, [])).toBe(end - 7 * DAY_MS);
    expect(nextStorageEventAt(end, [7])).toBe(end - DAY_MS);
    expect(nextStorageEventAt(end, [1])).toBe(end);
    expect(storageDaysLeft(end, end - 6.5 * DAY_MS)).toBe(7);
    expect(storageDaysLeft(end, end + 1)).toBe(0);
  });

  it('[R10-5] a lapse is requested with a complete main address and a ticket or enough TC, else invalid', () => {
    const charge = (feeTc: number) => ({ baseFeeTc: 8000, feeTc, waived: feeTc === 0 });
    expect(lapseOutcome({ mainAddressComplete: true, charge: charge(0), tcBalance: 0 })).toBe('request');
    expect(lapseOutcome({ mainAddressComplete: true, charge: charge(8000), tcBalance: 8000 })).toBe('request');
    expect(lapseOutcome({ mainAddressComplete: true, charge: charge(8000), tcBalance: 7999 })).toBe('expire');
    expect(lapseOutcome({ mainAddressComplete: false, charge: charge(0), tcBalance: 99999 })).toBe('expire');
  });
});

describe('the weekly free-delivery ticket', () => {
  it('[R10-6] the week starts Monday 00:00 Asia/Tokyo (Sunday 15:00 UTC)', () => {
    const monday = fromJstParts(2026, 11, 23);
    expect(new Date(monday).toISOString()).toBe('2026-11-22T15:00:00.000Z');
    expect(deliveryTicketWeek(monday)).toBe(monday);
    expect(deliveryTicketWeek(monday - 1)).toBe(monday - 7 * DAY_MS);
    expect(deliveryTicketWeek(fromJstParts(2026, 11, 29, 23, 59))).toBe(monday);
    expect(nextJstWeekStart(monday)).toBe(monday + 7 * DAY_MS);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (t) => {
        const w = deliveryTicketWeek(t);
        expect(w).toBeLessThanOrEqual(t);
        expect(t - w).toBeLessThan(7 * DAY_MS);
        expect(new Date(w + 9 * 3600_000).getUTCDay()).toBe(1);
      }),
    );
  });

  it('[R10-6] granted once a week, only when none was held at the start of the week', () => {
    expect(weeklyTicketDue({ grantedThisWeek: false, heldAtWeekStart: false })).toBe(true);
    expect(weeklyTicketDue({ grantedThisWeek: true, heldAtWeekStart: false })).toBe(false);
    expect(weeklyTicketDue({ grantedThisWeek: false, heldAtWeekStart: true })).toBe(false);
  });
});
