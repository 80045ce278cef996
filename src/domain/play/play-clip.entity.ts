/**
 * A video of a play (issue 44, docs/clips.md) [R11-5]: both cameras from the start of the play to
 * its result plus 3 s, remuxed on the server. Its player may watch it, share it (anyone with its
 * page's address may then watch it) and keep it past the 30 days; operators see any play's clip.
 */
export const CLIP_STATUSES = ['recording', 'ready', 'failed', 'removed'] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];
export const CLIP_CAMERAS = ['front', 'side'] as const;
export type ClipCamera = (typeof CLIP_CAMERAS)[number];

/** What the play history (and the operators' play log) says of a play's clip. */
export interface PlayClipRef {
  readonly clip_id: string;
  readonly status: ClipStatus;
  readonly shared: 0 | 1;
  readonly kept: 0 | 1;
  /** When it will be removed; null while kept. */
  readonly expires_at: string | null;
}

/** The addresses of a clip's files by camera (only the cameras it has). */
export type ClipUrls = { readonly [C in ClipCamera]?: string };

/** A clip as its player (or an operator) sees it. */
export interface PlayClip extends PlayClipRef {
  readonly play_id: number;
  readonly station_id: number;
  readonly cameras: readonly ClipCamera[];
  readonly duration_ms: number;
  readonly bytes: number;
  readonly created_at: string;
  /** Addresses of its files (ready clips), valid for about an hour. */
  readonly urls: ClipUrls;
  /** Its public page's path while shared (`/clip/{clip_id}`), else null. */
  readonly share_path: string | null;
}

/** A shared clip as anyone sees it: the station and the prize, when, the result; nothing about the player. */
export interface PublicClip {
  readonly clip_id: string;
  readonly station_id: number;
  readonly station_name: string;
  readonly prize_name: string;
  readonly played_at: string;
  readonly result: 'win' | 'miss' | 'refunded' | null;
  readonly cameras: readonly ClipCamera[];
  readonly duration_ms: number;
  readonly urls: ClipUrls;
  /** The station's prize picture (absent from older servers). */
  readonly img_url?: string;
  /** The clip page's absolute address, as the service publishes it (absent from older servers). */
  readonly page_url?: string;
}
