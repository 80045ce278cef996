import { describe, expect, it } from 'vitest';
import { newClipId, newViewSecret, VIEW_KEY_TTL_MS, viewKey, viewKeyValid } from '../../server/clips/clip-keys';
import { vp8KeyframeSize } from '../../server/clips/camera-recorder';
import { byteRange } from '../../server/http/byte-range';

/** The pieces of a clip's access that need no server (docs/clips.md "Who sees what"). */
describe('[R11-5] clip ids and view keys', () => {
  const now = Date.parse('2026-12-01T03:00:01Z');

  it('[R11-5] ids are 22 base64url characters (128 random bits), every one different', () => {
    const ids = new Set(Array.from({ length: 1000 }, newClipId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("[R11-5] a key opens its clip until its expiry, about an hour ahead; another clip's, another secret's, an altered or a far-future one does not", () => {
    const id = newClipId();
    const secret = newViewSecret();
    const { e, k } = viewKey(id, secret, now);
    expect(e * 1000 - now).toBeGreaterThanOrEqual(VIEW_KEY_TTL_MS);
    expect(e * 1000 - now).toBeLessThanOrEqual(VIEW_KEY_TTL_MS + 10 * 60_000);
    // The same address for a while (rounded to 10 minutes).
    expect(viewKey(id, secret, now + 60_000)).toEqual({ e, k });
    expect(viewKeyValid(id, secret, now, String(e), k)).toBe(true);
    expect(viewKeyValid(id, secret, e * 1000 - 1, String(e), k)).toBe(true);
    expect(viewKeyValid(id, secret, e * 1000, String(e), k)).toBe(false);
    expect(viewKeyValid(newClipId(), secret, now, String(e), k)).toBe(false);
    expect(viewKeyValid(id, newViewSecret(), now, String(e), k)).toBe(false);
    expect(viewKeyValid(id, secret, now, String(e + 600), k)).toBe(false);
    const far = viewKey(id, secret, now + 24 * 3600_000);
    expect(viewKeyValid(id, secret, now, String(far.e), far.k)).toBe(false);
    for (const [badE, badK] of [
      [undefined, k],
      [String(e), undefined],
      [['1'], k],
      ['-1', k],
      [`${e}.0`, k],
      [String(e), `${k}=`],
      [String(e), 'x'.repeat(22)],
    ])
      expect(viewKeyValid(id, secret, now, badE, badK)).toBe(false);
  });
});

describe('[R11-5] byte ranges of a clip file', () => {
  const size = 1000;
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-99', { kind: 'part', start: 0, end: 99 }],
    ['bytes=990-', { kind: 'part', start: 990, end: 999 }],
    ['bytes=990-5000', { kind: 'part', start: 990, end: 999 }],
    ['bytes=-10', { kind: 'part', start: 990, end: 999 }],
    ['bytes=-5000', { kind: 'part', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=5000-6000', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999999-', { kind: 'unsatisfiable' }],
    ['bytes=10-5', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
    ['bytes=0-1,5-9', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=abc', { kind: 'whole' }],
  ] as const)('%s', (header, expected) => {
    expect(byteRange(header, size)).toEqual(expected);
  });

  it('an empty file has nothing to give a range', () => {
    expect(byteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe("the picture size of a VP8 keyframe (the recording's IVF header)", () => {
  it('reads 14-bit width and height after the start code; a delta frame or garbage has none', () => {
    const key = Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0x68, 0x01, 0, 0]);
    expect(vp8KeyframeSize(key)).toEqual({ width: 640, height: 360 });
    expect(vp8KeyframeSize(Buffer.from([0x11, ...key.subarray(1)]))).toBeNull();
    expect(vp8KeyframeSize(Buffer.from([0x10, 0, 0, 1, 2, 3, 4, 5, 6, 7]))).toBeNull();
    expect(vp8KeyframeSize(Buffer.alloc(4))).toBeNull();
  });
});
