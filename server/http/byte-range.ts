/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): one range of bytes, the
 * whole file (no header, one that does not parse, another unit, or several ranges: answering the
 * whole file is always allowed), or nothing it can satisfy (416 with `Content-Range: bytes *\/size`).
 */
export type ByteRange =
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

export function byteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return { kind: 'whole' };
  const match = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}
