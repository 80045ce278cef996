import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countdownSeconds } from '../../../src/domain';

const msLeft = fc.integer({ min: 0, max: 600_000 });
const receivedAt = fc.integer({ min: 0, max: 2_000_000_000_000 });
const later = fc.integer({ min: 0, max: 700_000 });

describe('a countdown of a server window, from the answer and when it arrived', () => {
  it("shows the server's whole seconds when the answer arrives, rounded up, and counts on the local clock", () => {
    expect(countdownSeconds(12_000, 5_000, 5_000)).toBe(12);
    expect(countdownSeconds(11_200, 5_000, 5_000)).toBe(12);
    expect(countdownSeconds(12_000, 5_000, 5_999)).toBe(12);
    expect(countdownSeconds(12_000, 5_000, 6_000)).toBe(11);
    expect(countdownSeconds(12_000, 5_000, 16_800)).toBe(1);
    expect(countdownSeconds(12_000, 5_000, 17_000)).toBe(0);
    expect(countdownSeconds(12_000, 5_000, 90_000)).toBe(0);
  });

  it('has no count when the answer has no window', () => {
    expect(countdownSeconds(null, 5_000, 6_000)).toBeNull();
  });

  it('never goes up as time passes, never shows more than the answer, and reaches 0 exactly when the window ends', () => {
    fc.assert(
      fc.property(msLeft, receivedAt, later, later, (ms, at, a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        const first = countdownSeconds(ms, at, at + early);
        expect(countdownSeconds(ms, at, at + late)).toBeLessThanOrEqual(first);
        expect(first).toBeLessThanOrEqual(Math.ceil(ms / 1000));
        expect(countdownSeconds(ms, at, at + early) === 0).toBe(early >= ms);
      }),
    );
  });

  it('a local clock behind the answer does not add time', () => {
    fc.assert(
      fc.property(msLeft, receivedAt, later, (ms, at, behind) => {
        expect(countdownSeconds(ms, at, at - behind)).toBe(countdownSeconds(ms, at, at));
      }),
    );
  });
});
