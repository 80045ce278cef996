import { z } from 'zod/mini';
import {
  CLIP_CAMERAS,
  CLIP_STATUSES,
  type PlayClip as DomainPlayClip,
  type PublicClip as DomainPublicClip,
} from '../domain';
import { errorResponseSchema } from './envelope';
import { flag01Schema, identitySchema, idSchema } from './user-identity.schema';

/**
 * A video of every play (issue 44, docs/clips.md) [R11-5]: the player's clip of a play, sharing and
 * keeping it, the public view of a shared clip; the files themselves are GETs
 * (`clips/{clip_id}/{front|side}.webm`).
 */
export const CLIP_ENDPOINTS = {
  /** The caller's clip of one of their plays (with addresses that open its files for a while). */
  get: 'v2/clip/get',
  share: 'v2/clip/share',
  keep: 'v2/clip/keep',
  /** GET `clips/{clip_id}`: a shared clip's public view (no sign-in). */
  view: 'clips',
  /** Operators: any play's clip. */
  operatorClip: 'operator/play_clip',
} as const;

/** 16 random bytes in base64url. */
export const clipIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/));

/** What the play history and the operators' play log say of a play's clip. */
export const playClipRefSchema = z.object({
  clip_id: clipIdSchema,
  status: z.enum(CLIP_STATUSES),
  shared: flag01Schema,
  kept: flag01Schema,
  /** When it will be removed; null while kept. */
  expires_at: z.nullable(z.string()),
});
export type PlayClipRef = z.infer<typeof playClipRefSchema>;

const cameraUrls = z.object({ front: z.optional(z.string()), side: z.optional(z.string()) });

/** A clip as its player (or an operator) sees it. */
export const playClipSchema = z.extend(playClipRefSchema, {
  play_id: idSchema,
  station_id: idSchema,
  cameras: z.array(z.enum(CLIP_CAMERAS)),
  duration_ms: z.int().check(z.gte(0)),
  bytes: z.int().check(z.gte(0)),
  created_at: z.string(),
  /** Addresses of its files (ready clips), valid for an hour. */
  urls: cameraUrls,
  /** The public page's path while shared (`/clip/{clip_id}`), else null. */
  share_path: z.nullable(z.string()),
});
export type PlayClip = z.infer<typeof playClipSchema>;
playClipSchema satisfies z.ZodMiniType<DomainPlayClip>;

export const clipGetRequestSchema = z.extend(identitySchema, { play_id: idSchema });
export const clipShareRequestSchema = z.extend(identitySchema, { clip_id: clipIdSchema, shared: flag01Schema });
export const clipKeepRequestSchema = z.extend(identitySchema, { clip_id: clipIdSchema, kept: flag01Schema });
export const clipResponseSchema = z.extend(errorResponseSchema, { clip: playClipSchema });

/** A shared clip as anyone sees it: the station and the prize, when, the result; nothing about the player. */
export const publicClipSchema = z.object({
  clip_id: clipIdSchema,
  station_id: idSchema,
  station_name: z.string(),
  prize_name: z.string(),
  played_at: z.string(),
  result: z.nullable(z.enum(['win', 'miss', 'refunded'])),
  cameras: z.array(z.enum(CLIP_CAMERAS)),
  duration_ms: z.int().check(z.gte(0)),
  urls: cameraUrls,
  /** The station's prize picture, for the page and its link preview. */
  img_url: z.optional(z.string()),
  /** The page's absolute address as the service publishes it (PUBLIC_URL): link previews need absolute addresses. */
  page_url: z.optional(z.string()),
});
publicClipSchema satisfies z.ZodMiniType<DomainPublicClip>;
export const publicClipResponseSchema = z.extend(errorResponseSchema, { clip: publicClipSchema });

export const operatorPlayClipSchema = z.strictObject({ play_id: idSchema });
export const operatorPlayClipResponseSchema = z.extend(errorResponseSchema, {
  clip: z.extend(playClipSchema, { user_id: idSchema }),
});
