import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareLotsForSpending,
  DAY_MS,
  freeLotStep,
  freeTcExpiresAt,
  freeTcByEnd,
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

  it('[R11-7] the free TC held reads by end: lots ending together added up, the earliest first, TC without an end last', () => {
    const a = '2027-02-22T15:00:00.000Z';
    const b = '2027-01-10T15:00:00.000Z';
    expect(
      freeTcByEnd([
        { remaining: 100, expiresAt: a },
        { remaining: 5, expiresAt: null },
        { remaining: 40, expiresAt: b },
        { remaining: 60, expiresAt: a },
        { remaining: 0, expiresAt: b },
      ]),
    ).toEqual([
      { amount: 40, expiresAt: b },
      { amount: 160, expiresAt: a },
      { amount: 5, expiresAt: null },
    ]);
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

describe('free TC lots as a model wallet, 1,000 random sequences [R11-7]', () => {
  it('[R11-7] whatever credits, spends, refunds and days passing come, no lot is spent twice or after its end, refunds give back what was taken, and the balance is the sum of the entries', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('free' as const), amount: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ kind: fc.constant('toll' as const), amount: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ kind: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 500 }) }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 60 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), (ops) => {
        let now = NOW;
        let nextId = 1;
        const lots = new Map<number, { remaining: number; expiresAtMs: number | null; expired: boolean }>();
        let toll = 0;
        let entries = 0; // the sum of every entry written (credits +, spends and expiries −)
        const spends: { takes: { lotId: number; amount: number }[]; toll: number; refunded: boolean }[] = [];
        const live = (): FreeLot[] =>
          [...lots]
            .filter(([, l]) => !l.expired)
            .map(([lotId, l]) => ({ lotId, remaining: l.remaining, expiresAtMs: l.expiresAtMs }));
        const newLot = (amount: number, expiresAtMs: number | null) => {
          lots.set(nextId, { remaining: amount, expiresAtMs, expired: false });
          nextId += 1;
        };
        for (const o of ops) {
          if (o.kind === 'free') {
            newLot(o.amount, freeTcExpiresAt(now));
            entries += o.amount;
          } else if (o.kind === 'toll') {
            toll += o.amount;
            entries += o.amount;
          } else if (o.kind === 'spend') {
            const { takes, free, toll: paid } = takeFromLots(live(), o.amount, now);
            if (free + Math.min(paid, toll) < o.amount || paid > toll) continue; // refused: nothing written
            for (const t of takes) {
              const l = lots.get(t.lotId)!;
              expect(l.expiresAtMs === null || now < l.expiresAtMs).toBe(true);
              l.remaining -= t.amount;
              expect(l.remaining).toBeGreaterThanOrEqual(0);
            }
            toll -= paid;
            entries -= o.amount;
            spends.push({ takes: [...takes], toll: paid, refunded: false });
          } else if (o.kind === 'refund' && spends.length > 0) {
            const s = spends[o.pick % spends.length]!;
            if (s.refunded) continue; // a refund's key is used once
            s.refunded = true;
            for (const t of s.takes) {
              const l = lots.get(t.lotId)!;
              const end = refundedLotEnd({ expiresAtMs: l.expiresAtMs, expired: l.expired }, now);
              if (end.into === 'same') l.remaining += t.amount;
              else newLot(t.amount, end.expiresAtMs);
            }
            toll += s.toll;
            entries += s.toll + s.takes.reduce((n, t) => n + t.amount, 0);
          } else if (o.kind === 'wait') {
            now += o.days * DAY_MS;
            for (const l of lots.values())
              if (!l.expired && l.expiresAtMs !== null && l.expiresAtMs <= now) {
                entries -= l.remaining;
                l.remaining = 0;
                l.expired = true;
              }
          }
          const held = [...lots.values()].reduce((n, l) => n + l.remaining, 0);
          expect(held + toll).toBe(entries);
          expect([...lots.values()].every((l) => !l.expired || l.remaining === 0)).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
