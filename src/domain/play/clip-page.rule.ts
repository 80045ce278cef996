import { hasPictureVariants, pictureVariantUrl } from '../catalogue/picture-variants.rule';
import { DOMAIN_MESSAGES } from '../messages';
import type { ClipCamera, PlayClip, PlayClipRef, PublicClip } from './play-clip.entity';

/** A clip id: 16 random bytes in base64url (the server's; anything else is no clip). */
export const CLIP_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Whether `text` could be a clip id (a route's validation: anything else is the 404 page). */
export const isClipId = (text: string): boolean => CLIP_ID_PATTERN.test(text);

/** The public page of a clip. */
export const clipPagePath = (clipId: string): string => `/clip/${clipId}`;

/** The camera a clip opens on: the front one when it has it. */
export const firstClipCamera = (cameras: readonly ClipCamera[]): ClipCamera | null =>
  cameras.includes('front') ? 'front' : (cameras[0] ?? null);

/** Whole days until a clip is removed (rounded up; 0 once due), or null while kept. */
export function clipDaysLeft(clip: Pick<PlayClipRef, 'expires_at'>, now: number): number | null {
  if (clip.expires_at === null) return null;
  const due = Date.parse(clip.expires_at);
  if (Number.isNaN(due)) return null;
  return Math.max(0, Math.ceil((due - now) / 86_400_000));
}

/** What a player may do with a clip now. */
export type ClipOffer = 'watch' | 'wait' | 'gone';

/** A ready clip can be watched; one still recording is waited for; failed or removed ones are gone. */
export function clipOffer(clip: Pick<PlayClipRef, 'status'>): ClipOffer {
  return clip.status === 'ready' ? 'watch' : clip.status === 'recording' ? 'wait' : 'gone';
}

/** The shared page's absolute address: the service's own when it says it, else from `origin`. */
export function clipShareUrl(clip: Pick<PlayClip, 'share_path'>, origin: string): string | null {
  return clip.share_path === null ? null : new URL(clip.share_path, origin).href;
}

/** One tag in a page's head: `<meta property=…>` (Open Graph) or `<meta name=…>` (description, Twitter). */
export interface HeadMeta {
  readonly attribute: 'property' | 'name';
  readonly key: string;
  readonly content: string;
}

/** A page's title and the tags a link preview (OGP, Twitter cards) reads. */
export interface PageHead {
  readonly title: string;
  readonly meta: readonly HeadMeta[];
}

/**
 * The clip page's head [R11-5]: the title and the link preview name the prize and the station,
 * with the prize's picture and the video; nothing about the player. Addresses are absolute (link
 * previews need them), resolved against the page's own published address.
 */
export function clipPageHead(clip: PublicClip): PageHead {
  const m = DOMAIN_MESSAGES;
  const won = clip.result === 'win';
  const siteName = m.titleTag;
  const title = `${m.clipTitle(clip.prize_name, won)}${m.titleSeparator}${siteName}`;
  const seconds = Math.max(1, Math.round(clip.duration_ms / 1000));
  const description = m.clipDescription(clip.station_name, clip.prize_name, won, seconds);
  const base = clip.page_url ?? null;
  const absolute = (path: string | undefined): string | null => {
    if (!path) return null;
    try {
      return base ? new URL(path, base).href : /^https?:\/\//.test(path) ? path : null;
    } catch {
      return null;
    }
  };
  // Link previews want a raster picture: the catalogue's JPEG at 1280 wide where it has one.
  const picture =
    clip.img_url && hasPictureVariants(clip.img_url) ? pictureVariantUrl(clip.img_url, 1280, 'jpg') : clip.img_url;
  const image = absolute(picture);
  const camera = firstClipCamera(clip.cameras);
  const video = camera ? absolute(clip.urls[camera]) : null;
  const meta: HeadMeta[] = [
    { attribute: 'name', key: 'description', content: description },
    { attribute: 'property', key: 'og:site_name', content: siteName },
    { attribute: 'property', key: 'og:type', content: 'video.other' },
    { attribute: 'property', key: 'og:title', content: title },
    { attribute: 'property', key: 'og:description', content: description },
    { attribute: 'property', key: 'og:locale', content: 'ja_JP' },
  ];
  if (base) meta.push({ attribute: 'property', key: 'og:url', content: base });
  if (image) meta.push({ attribute: 'property', key: 'og:image', content: image });
  if (video) {
    meta.push({ attribute: 'property', key: 'og:video', content: video });
    meta.push({ attribute: 'property', key: 'og:video:type', content: 'video/webm' });
  }
  meta.push({ attribute: 'name', key: 'twitter:card', content: image ? 'summary_large_image' : 'summary' });
  return { title, meta };
}
