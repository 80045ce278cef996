import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  fromJstParts,
  hasReachedWeeklyVipLimit,
  isBlockedByExclusivePlay,
  isVipUser,
  nextJstWeekStart,
  purchasedTcInWindow,
  qualifiesForVipStations,
  toJstParts,
  vipGate,
  vipOutcome,
  vipPrizesWonThisWeek,
  type TcPurchase,
  type VipGateInput,
} from '../../../src/domain';

const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) });

describe('VIP users', () => {
  it('[R6-2] a VIP user has vip_level above normal', () => {
    expect(isVipUser(0)).toBe(false);
    expect(isVipUser(1)).toBe(true);
    expect(isVipUser(5)).toBe(true);
  });
});

describe('VIP-only stations', () => {
  it('[R6-3] needs at least 100,000 TC purchased in the past 30 days', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const at = (daysAgo: number, toll_tc: number): TcPurchase => ({ toll_tc, purchasedAtMs: now - daysAgo * DAY_MS });
    expect(qualifiesForVipStations([at(1, 100_000)], now)).toBe(true);
    expect(qualifiesForVipStations([at(1, 99_999)], now)).toBe(false);
    expect(qualifiesForVipStations([at(29, 60_000), at(0, 40_000)], now)).toBe(true);
    // Exactly 30 days ago has left the window; just inside it still counts.
    expect(qualifiesForVipStations([at(30, 100_000)], now)).toBe(false);
    expect(qualifiesForVipStations([{ toll_tc: 100_000, purchasedAtMs: now - 30 * DAY_MS + 1 }], now)).toBe(true);
    // Purchases after now are not counted.
    expect(qualifiesForVipStations([{ toll_tc: 100_000, purchasedAtMs: now + 1 }], now)).toBe(false);
  });

  it('[R6-3] the window is a rolling 30 × 24 h, the same across month and year boundaries', () => {
    const purchase = fc.record({
      toll_tc: fc.integer({ min: 0, max: 200_000 }),
      offset: fc.integer({ min: -40 * DAY_MS, max: 5 * DAY_MS }),
    });
    fc.assert(
      fc.property(instant, fc.array(purchase, { maxLength: 8 }), (now, raw) => {
        const purchases = raw.map((p) => ({ toll_tc: p.toll_tc, purchasedAtMs: now + p.offset }));
        const expected = raw.filter((p) => p.offset > -30 * DAY_MS && p.offset <= 0).reduce((n, p) => n + p.toll_tc, 0);
        expect(purchasedTcInWindow(purchases, now)).toBe(expected);
        expect(qualifiesForVipStations(purchases, now)).toBe(expected >= 100_000);
      }),
    );
    // Across the year end: a purchase on 5 Dec 2025 JST still counts on 3 Jan 2026 JST.
    const newYear = fromJstParts(2026, 1, 3, 10);
    expect(
      purchasedTcInWindow([{ toll_tc: 100_000, purchasedAtMs: fromJstParts(2025, 12, 5, 10, 0, 1) }], newYear),
    ).toBe(100_000);
    expect(purchasedTcInWindow([{ toll_tc: 100_000, purchasedAtMs: fromJstParts(2025, 12, 4, 10) }], newYear)).toBe(0);
    // Across a short month: 30 days before 1 March 2026 is 30 January.
    expect(
      purchasedTcInWindow(
        [{ toll_tc: 1, purchasedAtMs: fromJstParts(2026, 1, 30, 0, 0, 1) }],
        fromJstParts(2026, 3, 1),
      ),
    ).toBe(1);
  });
});

describe('weekly VIP prize limit', () => {
  it('[R6-4] counts only wins since Monday 00:00 Asia/Tokyo of the current week', () => {
    const monday = fromJstParts(2026, 3, 2); // Monday 2 March 2026, 00:00 JST
    expect(toJstParts(monday).weekday).toBe(0);
    const wins = [monday - 1, monday, monday + DAY_MS];
    expect(vipPrizesWonThisWeek(wins, monday + 2 * DAY_MS)).toBe(2);
    // A win on Sunday 23:59:59.999 JST no longer counts one millisecond later.
    expect(hasReachedWeeklyVipLimit([monday - 1], monday - 1)).toBe(true);
    expect(hasReachedWeeklyVipLimit([monday - 1], monday)).toBe(false);
  });

  it('[R6-4] around every Monday 00:00 JST, a win resets exactly at the boundary', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 7 * DAY_MS }), (t, sinceWin) => {
        const reset = nextJstWeekStart(t);
        const p = toJstParts(reset);
        expect([p.weekday, p.hour, p.minute, p.second]).toEqual([0, 0, 0, 0]);
        expect(reset).toBeGreaterThan(t);
        expect(reset - t).toBeLessThanOrEqual(7 * DAY_MS);
        // A win at t is counted until the reset, and not from the reset on.
        expect(hasReachedWeeklyVipLimit([t], reset - 1)).toBe(true);
        expect(hasReachedWeeklyVipLimit([t], reset)).toBe(false);
        expect(hasReachedWeeklyVipLimit([t], t + sinceWin)).toBe(t + sinceWin < reset);
      }),
    );
  });

  it('[R6-4] the limit is configurable', () => {
    const now = fromJstParts(2026, 3, 4, 12);
    expect(hasReachedWeeklyVipLimit([now - 1000], now, 2)).toBe(false);
    expect(hasReachedWeeklyVipLimit([now - 2000, now - 1000], now, 2)).toBe(true);
  });
});

describe('exclusive stations and the VIP gate', () => {
  it('[R6-5] an exclusive station in use blocks every other user', () => {
    expect(isBlockedByExclusivePlay({ type: 'exclusive' }, 9, 1)).toBe(true);
    expect(isBlockedByExclusivePlay({ type: 'exclusive' }, 1, 1)).toBe(false);
    expect(isBlockedByExclusivePlay({ type: 'exclusive' }, null, 1)).toBe(false);
    expect(isBlockedByExclusivePlay({ type: 'vip' }, 9, 1)).toBe(false);
  });

  const now = fromJstParts(2026, 3, 4, 12);
  const rich = [{ toll_tc: 150_000, purchasedAtMs: now - DAY_MS }];
  const base: VipGateInput = {
    station: { type: 'exclusive' },
    action: 'play',
    userId: 1,
    purchases: rich,
    vipWinsAtMs: [],
    occupiedByUserId: null,
    nowMs: now,
  };

  it('[R6-3] [R6-5] the gate answers 569, 570 or 571 in that order, 200 when allowed', () => {
    expect(vipGate(base)).toBe(200);
    expect(vipGate({ ...base, station: { type: 'normal' }, purchases: [] })).toBe(200);
    expect(vipGate({ ...base, purchases: [] })).toBe(569);
    expect(vipGate({ ...base, userId: null })).toBe(569);
    expect(vipGate({ ...base, vipWinsAtMs: [now - 1000], occupiedByUserId: 2 })).toBe(570);
    expect(vipGate({ ...base, occupiedByUserId: 2 })).toBe(571);
    expect(vipGate({ ...base, action: 'view', occupiedByUserId: 2, vipWinsAtMs: [now - 1000] })).toBe(200);
    expect(vipGate({ ...base, action: 'view', purchases: [] })).toBe(569);
  });

  it('[R8-2] 569 shows the VIP-only popup with the 100,000 TC / 30 days text; the button depends on login', () => {
    const inUser = vipOutcome(569, true);
    expect(inUser?.title).toBe('こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。');
    expect(inUser?.text).toContain('100,000TC');
    expect(inUser?.text).toContain('30日');
    expect(inUser?.button).toEqual({ label: 'VIP対象になる', action: 'becomeVip' });
    expect(vipOutcome(569, false)?.button).toEqual({ label: 'とじる', action: 'close' });
  });

  it("[R8-3] 570 says this week's VIP prize is already won and that counts reset on Monday", () => {
    const o = vipOutcome(570, true);
    expect(o?.title).toBe('今週のVIP景品を獲得済みです');
    expect(o?.text).toContain('月曜日');
    expect(o?.then).toBe('stay');
  });

  it('[R8-4] 571 says another user is playing the exclusive station and returns to the list', () => {
    const o = vipOutcome(571, true);
    expect(o?.title).toBe('他のお客様がVIP独占台をプレイ中です');
    expect(o?.then).toBe('returnToList');
    expect(vipOutcome(200, true)).toBeNull();
  });
});
