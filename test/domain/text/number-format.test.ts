import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characterCount, formatThousands } from '../../../src/domain';

describe('formatThousands', () => {
  it('puts a comma every three digits', () => {
    expect(formatThousands(0)).toBe('0');
    expect(formatThousands(999)).toBe('999');
    expect(formatThousands(1000)).toBe('1,000');
    expect(formatThousands(100000)).toBe('100,000');
    expect(formatThousands(1234567)).toBe('1,234,567');
    expect(formatThousands(-1234)).toBe('-1,234');
  });

  it('removing the commas gives the number back, and groups after the first are 3 digits', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const s = formatThousands(n);
        expect(Number(s.replace(/,/g, ''))).toBe(n);
        const groups = s.replace('-', '').split(',');
        expect(groups[0]!.length).toBeGreaterThanOrEqual(1);
        expect(groups[0]!.length).toBeLessThanOrEqual(3);
        for (const g of groups.slice(1)) expect(g).toMatch(/^\d{3}$/);
      }),
    );
  });

  it('refuses fractions and non-finite values', () => {
    expect(() => formatThousands(1.5)).toThrow(RangeError);
    expect(() => formatThousands(Number.NaN)).toThrow(RangeError);
  });

  it('counts characters as code points', () => {
    expect(characterCount('𠮷野家')).toBe(3);
  });
});
