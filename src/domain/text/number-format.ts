/**
 * Formats an integer with a comma every three digits (1234567 → '1,234,567'), as Japanese prices
 * are written. Done by hand so the result never depends on the runtime's Intl locale data.
 * Throws RangeError for a value that is not a safe integer.
 */
export function formatThousands(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`formatThousands needs a safe integer (got ${value})`);
  const digits = String(Math.abs(value));
  let out = '';
  for (let i = 0; i < digits.length; i += 1) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? `-${out}` : out;
}

/** Number of characters as a reader counts them (code points, so an emoji or 𠮷 is one). */
export function characterCount(text: string): number {
  return Array.from(text).length;
}
