import { describe, expect, it } from 'vitest';
import { hasPictureVariants, isPictureWidth, PICTURE_WIDTHS, pictureSrcSet, pictureVariantUrl } from '../../src/domain';

describe('a stored picture at a screen’s size (issue 27)', () => {
  it('only the service’s stored pictures have variants', () => {
    for (const url of [
      '/api/images/banner-new-user.svg',
      'https://onkure.example/api/images/prize-st-0001.svg',
      '/images/kuji-1-banner.svg',
    ])
      expect(hasPictureVariants(url), url).toBe(true);
    for (const url of [
      'https://partner.example/banner.png',
      '/api/images/banner-new-user.svg?w=800&fm=jpg',
      '/api/images/Banner.svg',
      '/api/images/../x.svg',
      'data:image/svg+xml,<svg/>',
      '/api/stations/3/camera/front.jpg',
      '',
    ])
      expect(hasPictureVariants(url), url).toBe(false);
  });

  it('a variant is the picture’s address with its width and format; a srcset lists the widths', () => {
    expect(pictureVariantUrl('/api/images/a.svg', 800, 'avif')).toBe('/api/images/a.svg?w=800&fm=avif');
    expect(pictureSrcSet('/api/images/a.svg', [400, 800], 'webp')).toBe(
      '/api/images/a.svg?w=400&fm=webp 400w, /api/images/a.svg?w=800&fm=webp 800w',
    );
  });

  it('the served widths are a fixed, bounded set', () => {
    expect(PICTURE_WIDTHS.every(isPictureWidth)).toBe(true);
    for (const width of [0, 63, 801, 1281, 4096, Number.NaN]) expect(isPictureWidth(width), String(width)).toBe(false);
    expect(Math.max(...PICTURE_WIDTHS)).toBe(1280);
  });
});
