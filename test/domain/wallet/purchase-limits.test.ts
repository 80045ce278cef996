import { describe, expect, it } from 'vitest';
import {
  ageOn,
  carrierBillingAllows,
  fromJstParts,
  minorMonthlyLimit,
  PURCHASE_MESSAGES,
  startOfJstMonth,
} from '../../../src/domain';

// The purchase limits are the service's own (the spec names no rule for them); server and fakes share them.
describe('purchase limits', () => {
  it('age counts whole years on the Japanese calendar', () => {
    expect(ageOn('2010-04-02', fromJstParts(2026, 4, 1, 23, 59))).toBe(15);
    expect(ageOn('2010-04-02', fromJstParts(2026, 4, 2))).toBe(16);
  });

  it('minors have a monthly limit: under 16 5,000 yen, 16–19 10,000 yen, adults none', () => {
    const now = fromJstParts(2026, 4, 2);
    expect(minorMonthlyLimit('2011-01-01', now)).toBe(5_000);
    expect(minorMonthlyLimit('2010-04-02', now)).toBe(10_000);
    expect(minorMonthlyLimit('2006-04-02', now)).toBeNull();
    expect(PURCHASE_MESSAGES.minorMonthlyLimit(5_000, 1_200)).toBe(
      '未成年のお客様のご購入は月5,000円までです（今月のご購入: 1,200円）。',
    );
  });

  it('the month starts at 00:00 JST on the 1st', () => {
    expect(startOfJstMonth(fromJstParts(2026, 3, 1, 0, 0, 1))).toBe(fromJstParts(2026, 3, 1));
    expect(startOfJstMonth(fromJstParts(2026, 2, 28, 23, 59, 59))).toBe(fromJstParts(2026, 2, 1));
  });

  it('carrier billing pays for products up to 10,000 yen', () => {
    expect(carrierBillingAllows(10_000)).toBe(true);
    expect(carrierBillingAllows(10_001)).toBe(false);
    expect(PURCHASE_MESSAGES.carrierBillingOverCap).toBe('キャリア決済でご購入いただけるのは10,000円以下の商品です。');
  });
});
