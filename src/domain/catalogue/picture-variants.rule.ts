/**
 * How the service's stored pictures (prizes, banners, kuji; docs/api/contents.md "GET /images/{key}.svg") are served at a
 * screen's size (issue 27). A stored picture's address is `…/images/{key}.svg`; the same address
 * with `?w={width}&fm={format}` is that picture drawn `width` pixels wide in a raster format, so a
 * phone downloads and decodes a small AVIF or WebP instead of laying out and painting an SVG on its
 * main thread. Any other address (a partner's picture, a data: URL) has no variants.
 */

/** The widths served (device pixels): a fixed set, so the variants there can be are bounded. */
export const PICTURE_WIDTHS = [64, 128, 160, 240, 320, 400, 480, 640, 800, 960, 1280] as const;
export type PictureWidth = (typeof PICTURE_WIDTHS)[number];

/** The raster formats served, best first: a browser takes the first it can show, JPEG being the fallback. */
export const PICTURE_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

/** The content type of each format. */
export const PICTURE_CONTENT_TYPES: Readonly<Record<PictureFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

/** `…/images/{key}.svg`, optionally on another origin; the key as the server stores it. */
const STORED_PICTURE = /^(?:https?:\/\/[^/?#]+)?(?:\/[A-Za-z0-9._~-]+)*\/images\/[a-z0-9-]{1,80}\.svg$/;

/** Whether `url` is one of the service's stored pictures (it has raster variants). */
export function hasPictureVariants(url: string): boolean {
  return STORED_PICTURE.test(url);
}

/** The address of `url` drawn `width` pixels wide in `format`. */
export function pictureVariantUrl(url: string, width: PictureWidth, format: PictureFormat): string {
  return `${url}?w=${width}&fm=${format}`;
}

/** A `srcset` of `url` in `format` at `widths`. */
export function pictureSrcSet(url: string, widths: readonly PictureWidth[], format: PictureFormat): string {
  return widths.map((w) => `${pictureVariantUrl(url, w, format)} ${w}w`).join(', ');
}

/** Whether `width` is a served width (a request's `w`). */
export function isPictureWidth(width: number): width is PictureWidth {
  return (PICTURE_WIDTHS as readonly number[]).includes(width);
}
