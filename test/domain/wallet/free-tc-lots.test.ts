import { describe, expect, it } from 'vitest';
import {
  compareLotsForSpending,
  DAY_MS,
  freeLotStep,
  freeTcExpiresAt,
  freeTcLastDayLabel,
  fromJstParts,
  nextFreeLotEventAt,
  refundedLotEnd,
  takeFromLots,
  type FreeLot,
} from '../../../src/domain';

const lot = (lotId: number, remaining: number, expiresAtMs: number | null): FreeLot => ({
  lotId,
  remaining,
  expiresAtMs,
});
const NOW = fromJstParts(2026, 11, 25, 12);

describe('free TC lots [R11-7]', () => {
  it('[R11-7] a lot ends at 24:00 JST of its 90th day, the credit\u2019s own day being the first, whatever the hour', () => {
    const end = fromJstParts(2027, 2, 23); // 2027-02-22 24:00
    expect(freeTcExpiresAt(fromJstParts(2026, 11, 25, 0, 0, 1))).toBe(end);
    expect(freeTcExpiresAt(fromJstParts(2026, 11, 25, 23, 59, 59))).toBe(end);
    // 23:30 UTC on the 24th is already the 25th in Japan.
    expect(freeTcExpiresAt(Date.UTC(2026, 10, 24, 23, 30))).toBe(end);
    expect(freeTcExpiresAt(NOW, 1)).toBe(fromJstParts(2026, 11, 26));
    expect(freeTcLastDayLabel(end)).toBe('2027/02/22');
    expect(() => freeTcExpiresAt(NOW, 0)).toThrow(RangeError);
  });

  it('[R11-7] a spend takes the earliest-ending live lot first, lots without an end last, then paid TC; a lapsed lot is never taken', () => {
    const lots = [lot(1, 100, null), lot(2, 50, NOW + 30 * DAY_MS), lot(3, 70, NOW + 5 * DAY_MS), lot(4, 999, NOW)];
    expect(takeFromLots(lots, 100, NOW)).toEqual({
      takes: [
        { lotId: 3, amount: 70 },
        { lotId: 2, amount: 30 },
      ],
      free: 100,
      toll: 0,
    });
    expect(takeFromLots(lots, 300, NOW)).toEqual({
      takes: [
        { lotId: 3, amount: 70 },
        { lotId: 2, amount: 50 },
        { lotId: 1, amount: 100 },
      ],
      free: 220,
      toll: 80,
    });
    // Lots ending together: the older first.
    expect([lot(9, 1, NOW + DAY_MS), lot(8, 1, NOW + DAY_MS)].sort(compareLotsForSpending).map((l) => l.lotId)).toEqual(
      [8, 9],
    );
    expect(takeFromLots([lot(1, 10, NOW)], 5, NOW)).toEqual({ takes: [], free: 0, toll: 5 });
    expect(() => takeFromLots([], -1, NOW)).toThrow(RangeError);
  });

  it('[R11-7] a refund goes back into a live lot; a lapsed or expired one comes back as a new lot ending at 24:00 JST of the 7th day', () => {
    expect(refundedLotEnd({ expiresAtMs: NOW + DAY_MS, expired: false }, NOW)).toEqual({ into: 'same' });
    expect(refundedLotEnd({ expiresAtMs: null, expired: false }, NOW)).toEqual({ into: 'same' });
    const week = { into: 'new', expiresAtMs: fromJstParts(2026, 12, 2) };
    expect(refundedLotEnd({ expiresAtMs: NOW, expired: false }, NOW)).toEqual(week);
    expect(refundedLotEnd({ expiresAtMs: NOW - DAY_MS, expired: true }, NOW)).toEqual(week);
  });

  it('[R11-7] the notices come 7 days and 1 day before the end, the nearer one only when both are due, then the expiry', () => {
    const end = NOW + 10 * DAY_MS;
    expect(freeLotStep(end, end - 8 * DAY_MS, [])).toEqual({ kind: 'none' });
    expect(freeLotStep(end, end - 7 * DAY_MS, [])).toEqual({ kind: 'notice', daysBefore: 7 });
    expect(freeLotStep(end, end - 3 * DAY_MS, [7])).toEqual({ kind: 'none' });
    expect(freeLotStep(end, end - DAY_MS + 1, [7])).toEqual({ kind: 'notice', daysBefore: 1 });
    expect(freeLotStep(end, end - 1, [])).toEqual({ kind: 'notice', daysBefore: 1 });
    expect(freeLotStep(end, end - 1, [1])).toEqual({ kind: 'none' });
    expect(freeLotStep(end, end, [1])).toEqual({ kind: 'lapse' });
    expect(nextFreeLotEventAt(end, [])).toBe(end - 7 * DAY_MS);
    expect(nextFreeLotEventAt(end, [7])).toBe(end - DAY_MS);
    expect(nextFreeLotEventAt(end, [1])).toBe(end);
  });
});
