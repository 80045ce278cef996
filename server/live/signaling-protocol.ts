import { z } from 'zod/mini';

/** Deadlines and intervals of one signaling connection. */
export interface SignalingTimings {
  /** The client must send connect within this after the socket opens. */
  readonly connectMs: number;
  /** The client must answer the offer within this. */
  readonly answerMs: number;
  /** The server pings this often; no pong for two pings ends the connection. */
  readonly pingMs: number;
  /** ICE gathering of the offer waits at most this. */
  readonly gatherMs: number;
}

export const DEFAULT_SIGNALING_TIMINGS: SignalingTimings = {
  connectMs: 5_000,
  answerMs: 10_000,
  pingMs: 5_000,
  gatherMs: 3_000,
};

/** Close codes: 1000 is the normal end the SDK expects; 4xxx say what was wrong. */
export const SIGNALING_CLOSE = {
  normal: 1000,
  badMessage: 4400,
  forbidden: 4403,
  unknownChannel: 4404,
  timeout: 4408,
  limit: 4429,
  unavailable: 4503,
} as const;

/** The largest signaling message (an SDP is a few KB). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Trickled candidates one connection may send (a browser sends a handful). */
export const MAX_CANDIDATES = 50;

/** A station camera's channel id, as station info gives it: station-{id}-{front|side}. */
export const CHANNEL_ID = /^station-([1-9]\d{0,8})-(front|side)$/;

export const connectMessage = z.looseObject({
  type: z.literal('connect'),
  role: z.string().check(z.maxLength(16)),
  channel_id: z.string().check(z.maxLength(255)),
  audio: z.optional(z.union([z.boolean(), z.looseObject({})])),
  video: z.optional(
    z.union([z.boolean(), z.looseObject({ codec_type: z.optional(z.string().check(z.maxLength(16))) })]),
  ),
  metadata: z.optional(z.unknown()),
  sdp: z.optional(z.string().check(z.maxLength(MAX_MESSAGE_BYTES))),
});
export type ConnectMessage = z.infer<typeof connectMessage>;

export const sdpMessage = z.looseObject({
  type: z.enum(['answer', 're-answer']),
  sdp: z.string().check(z.minLength(1)).check(z.maxLength(MAX_MESSAGE_BYTES)),
});
export const candidateMessage = z.looseObject({
  type: z.literal('candidate'),
  candidate: z.string().check(z.maxLength(2048)),
  sdpMid: z.nullish(z.string().check(z.maxLength(64))),
  sdpMLineIndex: z.nullish(z.int().check(z.gte(0)).check(z.lte(64))),
});
export const otherMessage = z.looseObject({ type: z.enum(['pong', 'disconnect', 'stats']) });

/** Cuts a close reason to the WebSocket limit of 123 bytes on a character boundary. */
export function closeReason(reason: string): string {
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  return cut;
}
