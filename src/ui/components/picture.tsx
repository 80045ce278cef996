import {
  hasPictureVariants,
  PICTURE_CONTENT_TYPES,
  pictureSrcSet,
  pictureVariantUrl,
  type PictureWidth,
} from '../../domain';
import type { LeadImage } from '../ssr/preload';

/**
 * How wide a kind of picture is shown (a `sizes` list, matching the layout in styles.css) and the
 * served widths offered for it: enough for a phone's dense screen, no larger than the picture is shown.
 */
export interface PictureLayout {
  readonly widths: readonly PictureWidth[];
  readonly sizes: string;
}

/** The layouts the pages use. */
export const PICTURE_LAYOUTS = {
  /** A wide banner across the page's column (carousel, new-user banner, festival, information). */
  banner: { widths: [400, 640, 800, 1280], sizes: '(min-width: 1200px) 1176px, 100vw' },
  /** The top page's carousel: the column's width, three quarters of it from 1024 px up (the side banners beside it). */
  carousel: { widths: [400, 640, 800, 1280], sizes: '(min-width: 1200px) 880px, (min-width: 1024px) 75vw, 100vw' },
  /** A side banner: three to a row below 1024 px, the hero's side column above. */
  side: { widths: [160, 320, 480, 640], sizes: '(min-width: 1200px) 294px, (min-width: 1024px) 25vw, 33vw' },
  /** A campaign banner of the top page's banner row (two to a screen from tablets up). */
  bannerRow: { widths: [320, 480, 640, 960], sizes: '(min-width: 1200px) 583px, (min-width: 600px) 50vw, 280px' },
  /** A kuji banner: one per row on phones, two from 900 px up. */
  kujiCard: { widths: [400, 640, 800, 1280], sizes: '(min-width: 1200px) 582px, (min-width: 900px) 50vw, 100vw' },
  /** A kuji's banner on its own page (at most 760 px wide). */
  kujiBox: { widths: [400, 640, 800, 1280], sizes: '(min-width: 784px) 760px, 100vw' },
  /** A prize's picture in its detail modal (200 px). */
  detail: { widths: [240, 480, 640], sizes: '200px' },
  /** A slide in the carousel's modal (the modal's width, at most 420 px). */
  modal: { widths: [400, 640, 800, 1280], sizes: '(min-width: 452px) 420px, 100vw' },
  /** A prize card's square picture: two to a row on phones, four from 700 px, five from 1100 px. */
  card: { widths: [160, 240, 320, 480], sizes: '(min-width: 1100px) 230px, (min-width: 700px) 25vw, 50vw' },
} as const satisfies Record<string, PictureLayout>;

/** A picture's `<source>` (or its preload): a format's candidates, for a media query if any. */
export interface PictureSource {
  readonly type?: string;
  readonly media?: string;
  readonly srcSet: string;
  /** The width shown, when the candidates are by width. */
  readonly sizes?: string;
}

/** The width of a layout's one-candidate addresses (the JPEG fallback, a preload's `href`): its middle one. */
const singleWidth = (layout: PictureLayout): PictureWidth => layout.widths[Math.floor(layout.widths.length / 2)]!;

/**
 * The sources of a stored picture shown in `layout`, best format first (AVIF, then WebP), and
 * the `<img>`'s JPEG fallback; a picture without variants (not one of the service's) is
 * itself. `media`: the sources are for that media query only.
 */
export function pictureSources(
  src: string,
  layout: PictureLayout,
  media?: string,
): { sources: readonly PictureSource[]; fallback: { src: string } } {
  if (!hasPictureVariants(src)) return { sources: media ? [{ media, srcSet: src }] : [], fallback: { src } };
  const modern = (['avif', 'webp'] as const).map((format) => ({
    type: PICTURE_CONTENT_TYPES[format],
    ...(media ? { media } : {}),
    srcSet: pictureSrcSet(src, layout.widths, format),
    sizes: layout.sizes,
  }));
  // A browser that shows neither AVIF nor WebP (none current) gets one JPEG, not a choice of
  // sizes: a third fewer candidates in every page. For a media query it is a source too (the
  // <img> is the other media's picture).
  const jpeg = pictureVariantUrl(src, singleWidth(layout), 'jpg');
  return {
    sources: media ? [...modern, { type: PICTURE_CONTENT_TYPES.jpg, media, srcSet: jpeg }] : modern,
    fallback: { src: jpeg },
  };
}

/**
 * The preload of a lead picture shown in `layout` (the server puts it in the page's head): its
 * best format's candidates, which a browser that can show that format picks from as the page's
 * `<picture>` will; a picture without variants is preloaded as it is.
 */
export function leadPicture(src: string, layout: PictureLayout, media?: string): LeadImage {
  const best = pictureSources(src, layout).sources[0];
  if (!best) return { href: src, ...(media ? { media } : {}) };
  return {
    href: pictureVariantUrl(src, singleWidth(layout), 'avif'),
    srcSet: best.srcSet,
    sizes: best.sizes,
    type: best.type,
    ...(media ? { media } : {}),
  };
}

export interface PictureProps {
  readonly src: string;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
  readonly layout: PictureLayout;
  readonly className?: string;
  readonly loading?: 'eager' | 'lazy';
  readonly fetchPriority?: 'high';
  /** Another picture for a media query (a carousel slide's wide picture from tablets up). */
  readonly alternate?: { readonly media: string; readonly src: string };
}

/**
 * A stored picture at the screen's size: AVIF or WebP where the browser shows them, JPEG
 * otherwise, each in the widths of its layout (issue 27). Any other picture is a plain <img>.
 */
export function Picture({
  src,
  alt,
  width,
  height,
  layout,
  className,
  loading,
  fetchPriority,
  alternate,
}: PictureProps) {
  const own = pictureSources(src, layout);
  const other = alternate ? pictureSources(alternate.src, layout, alternate.media).sources : [];
  const img = (
    <img
      className={className}
      src={own.fallback.src}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      fetchPriority={fetchPriority}
    />
  );
  if (own.sources.length === 0 && other.length === 0) return img;
  return (
    <picture>
      {[...other, ...own.sources].map((source) => (
        <source
          key={`${source.media ?? ''} ${source.type ?? ''}`}
          media={source.media}
          type={source.type}
          srcSet={source.srcSet}
          sizes={source.sizes}
        />
      ))}
      {img}
    </picture>
  );
}
