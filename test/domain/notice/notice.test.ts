import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INFORMATION_PAGE_SIZE,
  MARQUEE_MS_PER_CHARACTER,
  marqueeDurationMs,
  NEW_ARRIVALS_LIMIT,
  NEWS_PAGE_SIZE,
  NOTICE_TOAST_MS,
  PAGE_ITEMS_COUNT,
  pageOfItems,
  RESERVE_POLLING_TIME,
  reservePollingIntervalMs,
  sideBannerCarousels,
} from '../../../src/domain';

describe('notices, lists and polling', () => {
  it('[R2.5-6] a notice toast lasts 3.5 seconds (the toasts themselves: test/application, noticeToast on the clock)', () => {
    expect(NOTICE_TOAST_MS).toBe(3500);
  });

  it('[R9-2] news and information fetch 100 per page, new arrivals 50, the side banner shows the first 3 carousels', () => {
    expect([NEWS_PAGE_SIZE, INFORMATION_PAGE_SIZE, NEW_ARRIVALS_LIMIT]).toEqual([100, 100, 50]);
    expect(sideBannerCarousels(['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'b', 'c']);
    expect(sideBannerCarousels(['a'])).toEqual(['a']);
  });

  it('[R9-3] PAGE_ITEMS_COUNT and RESERVE_POLLING_TIME are named defaults that callers can override', () => {
    const items = Array.from({ length: 95 }, (_, i) => i);
    expect(pageOfItems(items, 1)).toHaveLength(PAGE_ITEMS_COUNT);
    expect(pageOfItems(items, 2)[0]).toBe(PAGE_ITEMS_COUNT);
    expect(pageOfItems(items, 2, 50)).toEqual(items.slice(50, 95));
    expect(pageOfItems(items, 0)).toEqual([]);
    expect(reservePollingIntervalMs()).toBe(RESERVE_POLLING_TIME * 1000);
    expect(reservePollingIntervalMs(5)).toBe(5000);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (list, size) => {
        const pages = Array.from({ length: Math.ceil(list.length / size) }, (_, i) => pageOfItems(list, i + 1, size));
        expect(pages.flat()).toEqual(list);
      }),
    );
  });

  it('[R9-5] the winner marquee speed derives from the message length', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const [short, long] = Array.from(a).length <= Array.from(b).length ? [a, b] : [b, a];
        expect(marqueeDurationMs(long)).toBeGreaterThanOrEqual(marqueeDurationMs(short));
      }),
    );
    const long = 'おめでとうございます！'.repeat(10);
    expect(marqueeDurationMs(long)).toBe(Array.from(long).length * MARQUEE_MS_PER_CHARACTER);
    expect(marqueeDurationMs(long + long)).toBe(2 * marqueeDurationMs(long));
  });
});
