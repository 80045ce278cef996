import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  fromJstParts,
  HOUR_MS,
  JST_OFFSET_MS,
  nextJstWeekStart,
  parseServiceTime,
  startOfJstDay,
  startOfJstWeek,
  toJstParts,
  WEEK_START,
  weekStartText,
} from '../../../src/domain';

// Instants from 1990 to 2100, in ms.
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });

describe('JST arithmetic (UTC+9, no DST)', () => {
  it('reads wall-clock fields nine hours ahead of UTC', () => {
    // 2025-03-02 15:30:05 UTC is 2025-03-03 00:30:05 JST, a Monday.
    expect(toJstParts(Date.UTC(2025, 2, 2, 15, 30, 5))).toEqual({
      year: 2025,
      month: 3,
      day: 3,
      hour: 0,
      minute: 30,
      second: 5,
      weekday: 0,
    });
    expect(JST_OFFSET_MS).toBe(9 * HOUR_MS);
  });

  it('fromJstParts inverts toJstParts for every instant (whole seconds)', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const whole = t - (((t % 1000) + 1000) % 1000);
        const p = toJstParts(whole);
        expect(fromJstParts(p.year, p.month, p.day, p.hour, p.minute, p.second)).toBe(whole);
      }),
    );
  });

  it('[R6-4] the week starts on the Monday 00:00 JST at or before any instant', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const start = startOfJstWeek(t);
        const p = toJstParts(start);
        expect(p.weekday).toBe(0);
        expect([p.hour, p.minute, p.second]).toEqual([0, 0, 0]);
        expect(start).toBeLessThanOrEqual(t);
        expect(t - start).toBeLessThan(7 * DAY_MS);
        // Cross-check the weekday against the Date object's own Sunday-based count.
        expect(new Date(start + JST_OFFSET_MS).getUTCDay()).toBe(1);
      }),
    );
  });

  it('[R6-4] the reset falls exactly at Monday 00:00 JST (Sunday 15:00 UTC)', () => {
    const monday = fromJstParts(2026, 1, 5); // Monday 5 January 2026
    expect(new Date(monday).toISOString()).toBe('2026-01-04T15:00:00.000Z');
    expect(startOfJstWeek(monday - 1)).toBe(monday - 7 * DAY_MS);
    expect(startOfJstWeek(monday)).toBe(monday);
    expect(startOfJstWeek(monday + 7 * DAY_MS - 1)).toBe(monday);
  });

  it('[R6-4] [R10-6] the week start is WEEK_START: another weekday and hour move every week boundary with it', () => {
    expect(WEEK_START).toEqual({ weekday: 0, hour: 0 });
    const sunday5 = { weekday: 6, hour: 5 };
    fc.assert(
      fc.property(instant, (t) => {
        const start = startOfJstWeek(t, sunday5);
        const p = toJstParts(start);
        expect([p.weekday, p.hour, p.minute, p.second]).toEqual([6, 5, 0, 0]);
        expect(start).toBeLessThanOrEqual(t);
        expect(t - start).toBeLessThan(7 * DAY_MS);
        const next = nextJstWeekStart(t, sunday5);
        expect(next - start).toBe(7 * DAY_MS);
        expect(next).toBeGreaterThan(t);
      }),
    );
    // Sunday 4 January 2026, 04:59 JST is still the week that began on 28 December.
    expect(startOfJstWeek(fromJstParts(2026, 1, 4, 4, 59), sunday5)).toBe(fromJstParts(2025, 12, 28, 5));
    expect(startOfJstWeek(fromJstParts(2026, 1, 4, 5), sunday5)).toBe(fromJstParts(2026, 1, 4, 5));
  });

  it('[R6-4] [R10-6] the next week start after any instant is one week after the start of its week', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const next = nextJstWeekStart(t);
        expect(next).toBe(startOfJstWeek(t) + 7 * DAY_MS);
        expect(next).toBeGreaterThan(t);
        expect(toJstParts(next).weekday).toBe(0);
      }),
    );
  });

  it('[R6-4] [R10-6] the week start as players read it comes from WEEK_START', () => {
    expect(weekStartText()).toBe('毎週月曜0時');
    expect(weekStartText('long')).toBe('毎週月曜日0時');
    expect(weekStartText('short', { weekday: 6, hour: 5 })).toBe('毎週日曜5時');
    expect(weekStartText('long', { weekday: 2, hour: 12 })).toBe('毎週水曜日12時');
  });

  it('startOfJstDay is midnight in Japan', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const d = startOfJstDay(t);
        expect(toJstParts(d).hour).toBe(0);
        expect(toJstParts(d).day).toBe(toJstParts(t).day);
        expect(t - d).toBeLessThan(DAY_MS);
      }),
    );
  });

  it('parses service times: offset-less text is JST, ISO with offset as written, junk is null', () => {
    expect(parseServiceTime('2025-12-31 23:59:59')).toBe(Date.UTC(2025, 11, 31, 14, 59, 59));
    expect(parseServiceTime('2025/01/01 09:00')).toBe(Date.UTC(2025, 0, 1, 0, 0, 0));
    expect(parseServiceTime('2025-01-01')).toBe(Date.UTC(2024, 11, 31, 15));
    expect(parseServiceTime('2025-01-01T00:00:00Z')).toBe(Date.UTC(2025, 0, 1));
    expect(parseServiceTime('2025-01-01T09:00:00+09:00')).toBe(Date.UTC(2025, 0, 1));
    expect(parseServiceTime('2025-02-30 00:00:00')).toBeNull();
    expect(parseServiceTime('2025-13-01 00:00:00')).toBeNull();
    expect(parseServiceTime('yesterday')).toBeNull();
  });
});
