import { Image } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '../../src/contract';
import { ImageVariants } from '../../server/catalogue/image-variants';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const get = (url: string) => t.server.app.inject({ method: 'GET', url });

/** The size a picture's bytes decode to. */
function decodedSize(bytes: Buffer): { width: number; height: number } {
  const image = new Image();
  image.src = bytes;
  return { width: image.width, height: image.height };
}

describe('stored pictures at a screen’s size (issue 27)', () => {
  it('serves a stored banner drawn at a served width as AVIF, WebP or JPEG, its height in proportion', async () => {
    const formats = [
      ['avif', 'image/avif', (b: Buffer) => b.subarray(4, 12).toString('latin1') === 'ftypavif'],
      [
        'webp',
        'image/webp',
        (b: Buffer) =>
          b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
      ],
      ['jpg', 'image/jpeg', (b: Buffer) => b[0] === 0xff && b[1] === 0xd8],
    ] as const;
    const original = await get('/api/images/banner-new-user.svg');
    expect(original.statusCode).toBe(200);
    for (const [fm, type, isFormat] of formats) {
      const res = await get(`/api/images/banner-new-user.svg?w=800&fm=${fm}`);
      expect(res.statusCode, fm).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(isFormat(res.rawPayload), fm).toBe(true);
      // The banner is 1280×400: at 800 wide it is 250 high; and far smaller than the JPEG for AVIF.
      if (fm !== 'avif') expect(decodedSize(res.rawPayload)).toEqual({ width: 800, height: 250 });
    }
    const avif = (await get('/api/images/banner-new-user.svg?w=800&fm=avif')).rawPayload.length;
    const jpeg = (await get('/api/images/banner-new-user.svg?w=800&fm=jpg')).rawPayload.length;
    expect(avif).toBeLessThan(jpeg / 2);
  });

  it('the stored picture itself is still served as it is, with its own content policy', async () => {
    const res = await get('/api/images/banner-new-user.svg');
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.body).toContain('<svg');
  });

  it('refuses a width outside the served set, an unknown format, or one without the other, in Japanese, drawing nothing', async () => {
    for (const query of [
      'w=801&fm=jpg',
      'w=100000&fm=avif',
      'w=800&fm=gif',
      'w=800',
      'fm=webp',
      'w=-1&fm=jpg',
      'w=800&fm=jpg&fm=webp',
    ]) {
      const res = await get(`/api/images/banner-new-user.svg?${query}`);
      expect(res.statusCode, query).toBe(400);
      const body = errorResponseSchema.parse(res.json());
      expect(body.error_info, query).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    for (const url of [
      '/api/images/no-such-picture.svg?w=800&fm=avif',
      '/api/images/..%2Fetc.svg?w=800&fm=jpg',
      '/api/images/banner-new-user.png?w=800&fm=jpg',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(errorResponseSchema.parse(res.json()).error_info).toBe('画像が見つかりません。');
    }
  });

  it('draws each variant once: requests at the same moment share one drawing, later ones the kept bytes', async () => {
    let reads = 0;
    const original = await get('/api/images/prize-st-0001.svg');
    const variants = new ImageVariants(async () => {
      reads += 1;
      return { content_type: 'image/svg+xml', body: original.rawPayload };
    });
    const together = await Promise.all(Array.from({ length: 5 }, () => variants.variant('prize-st-0001', 240, 'webp')));
    expect(reads).toBe(1);
    expect(new Set(together.map((b) => b!.toString('base64'))).size).toBe(1);
    expect(decodedSize(together[0]!)).toEqual({ width: 240, height: 240 });
    const later = await variants.variant('prize-st-0001', 240, 'webp');
    expect(reads).toBe(1);
    expect(later!.equals(together[0]!)).toBe(true);
    // Another size or format is another drawing.
    await variants.variant('prize-st-0001', 480, 'webp');
    await variants.variant('prize-st-0001', 240, 'jpg');
    expect(reads).toBe(3);
  });

  it('a picture that is not stored, or does not decode, has no variant (and is not kept)', async () => {
    let reads = 0;
    const variants = new ImageVariants(async (key) => {
      reads += 1;
      return key === 'broken' ? { content_type: 'image/svg+xml', body: new TextEncoder().encode('<svg') } : null;
    });
    expect(await variants.variant('missing', 240, 'avif')).toBeNull();
    expect(await variants.variant('broken', 240, 'avif')).toBeNull();
    expect(await variants.variant('broken', 240, 'avif')).toBeNull();
    expect(reads).toBe(3);
  });
});
