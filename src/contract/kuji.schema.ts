import { z } from 'zod/mini';
import { KUJI_RESERVE_STATUSES, KUJI_TIME_LIMITS, type KujiDrawResult, type KujiFairnessRecord } from '../domain';
import { KUJI_BOX_STATUSES } from './contents.schema';
import { errorResponseSchema } from './envelope';
import { identitySchema, idSchema as positiveIdSchema } from './user-identity.schema';

/**
 * Kuji play calls: /play/kuji_status_check, /play/kuji_polling, /play/kuji_reserve_cancel (§7) and
 * /play/kuji_reserve (designed), with the §3 kuji play info.
 */

/** Kuji reserve statuses (§4.4) plus the two ends a reservation can reach (cancel, end). */
export const KUJI_PLAY_RESERVE_STATUSES = [...KUJI_RESERVE_STATUSES, 'cancel', 'end'] as const;
export type KujiPlayReserveStatus = (typeof KUJI_PLAY_RESERVE_STATUSES)[number];

/**
 * Longest time, in seconds, a holder stays in each timed status; the remaining time is this minus
 * the seconds since play_at [R4.4-5].
 */
export const KUJI_REMAIN_MAX_SECONDS = KUJI_TIME_LIMITS;

/** A reserve token: 32 url-safe characters. */
export const reserveTokenSchema = z
  .string()
  .check(z.minLength(16))
  .check(z.maxLength(64))
  .check(z.regex(/^[A-Za-z0-9_-]+$/));

/** Kuji play info (spec §3) [R3-8]. */
export const kujiPlayInfoSchema = z.object({
  reserve_polling_id: z.int().check(z.positive()),
  kuji_play_reserve_id: z.int().check(z.positive()),
  reserve_token: z.string(),
  /** Place in the box's line, 1 = the holder; 0 once the reservation has ended. */
  reserve_num: z.int().check(z.nonnegative()),
  reserve_status: z.enum(KUJI_PLAY_RESERVE_STATUSES),
  kuji_id: z.int().check(z.positive()),
  box_id: z.int().check(z.positive()),
  box_status: z.enum(KUJI_BOX_STATUSES),
  reserve_remaintime: z.int().check(z.nonnegative()),
  /** When the current timed status began (ISO 8601); null while waiting in line. */
  play_at: z.nullable(z.string()),
});
export type KujiPlayInfo = z.infer<typeof kujiPlayInfoSchema>;

export const kujiStatusCheckRequestSchema = identitySchema;
/** play_info is null when the caller holds no kuji reservation. */
export const kujiStatusCheckResponseSchema = z.extend(errorResponseSchema, {
  play_info: z.nullable(kujiPlayInfoSchema),
});

export const kujiReserveRequestSchema = z.extend(identitySchema, {
  kuji_id: positiveIdSchema,
  box_id: positiveIdSchema,
});
export const kujiReserveResponseSchema = z.extend(errorResponseSchema, { play_info: kujiPlayInfoSchema });

export const kujiPollingRequestSchema = z.extend(identitySchema, {
  reserve_token: reserveTokenSchema,
  kuji_id: positiveIdSchema,
  box_id: positiveIdSchema,
});
export const kujiPollingResponseSchema = z.extend(errorResponseSchema, {
  polling: z.object({ play_info: kujiPlayInfoSchema }),
});

/** Body of POST /play/kuji_reserve_cancel (the spec does not show it; we designed it). */
export const kujiReserveCancelRequestSchema = kujiPollingRequestSchema;
export const kujiReserveCancelResponseSchema = z.extend(errorResponseSchema, { play_info: kujiPlayInfoSchema });

// ---- the draw and its fairness (designed; issue 12) -----------------------------------------

/** How many tickets one draw takes: 1, 3, 5, 10, or every ticket left ('all'). */
export const KUJI_DRAW_COUNTS = [1, 3, 5, 10] as const;

/** Body of POST /play/kuji_draw: the holder's reservation, the count, and an id that makes a resend safe. */
export const kujiDrawRequestSchema = z.extend(kujiPollingRequestSchema, {
  count: z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(10), z.literal('all')]),
  /** 8–64 of A-Z a-z 0-9 _ -: the same id never draws twice and answers the first draw. */
  request_id: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/)),
});

/** A prize drawn: the ticket's position in the box's order (null for the last-one prize). */
export const kujiDrawnPrizeSchema = z.object({
  position: z.nullable(z.int().check(z.nonnegative())),
  rank: z.string(),
  prize_name: z.string(),
  img_url: z.string(),
});
export type KujiDrawnPrize = z.infer<typeof kujiDrawnPrizeSchema>;

export const kujiDrawSchema = z.object({
  draw_id: z.int().check(z.positive()),
  kuji_id: z.int().check(z.positive()),
  box_id: z.int().check(z.positive()),
  tickets: z.array(kujiDrawnPrizeSchema),
  /** The last-one prize when this draw took the box's last ticket. */
  last_one: z.nullable(kujiDrawnPrizeSchema),
  price_total: z.int().check(z.nonnegative()),
  /** The balance after the draw [R1-2]. */
  tc: z.object({
    tc_all: z.int().check(z.nonnegative()),
    tc_free: z.int().check(z.nonnegative()),
    tc_toll: z.int().check(z.nonnegative()),
  }),
  remaining_count: z.int().check(z.nonnegative()),
  box_status: z.enum(KUJI_BOX_STATUSES),
  /** 1 when the request id had drawn already: nothing new was drawn or charged. */
  replayed: z.union([z.literal(0), z.literal(1)]),
}) satisfies z.ZodMiniType<KujiDrawResult>;
export type KujiDraw = z.infer<typeof kujiDrawSchema>;
export const kujiDrawResponseSchema = z.extend(errorResponseSchema, {
  draw: kujiDrawSchema,
  play_info: kujiPlayInfoSchema,
});

/** Body of POST /contents/kuji_fairness: open to anyone (identity optional). */
export const kujiFairnessRequestSchema = z.extend(z.partial(identitySchema), { box_id: positiveIdSchema });
export const kujiFairnessSchema = z.object({
  version: z.string(),
  kuji_id: z.int().check(z.positive()),
  box_id: z.int().check(z.positive()),
  box_status: z.enum(KUJI_BOX_STATUSES),
  /** SHA-256 of [version, box_id, seed, order], published when the box opened. */
  commitment: z.string(),
  opened_at: z.string(),
  /** The tickets when the box opened, in the box's order. */
  stock: z.array(z.object({ rank: z.string(), quantity: z.int().check(z.nonnegative()) })),
  /** The seed, published once the box has ended; null before. */
  seed: z.nullable(z.string()),
  revealed_at: z.nullable(z.string()),
  /** Every ticket drawn so far: its position in the order and its rank. */
  draws: z.array(z.object({ position: z.int().check(z.nonnegative()), rank: z.string() })),
}) satisfies z.ZodMiniType<KujiFairnessRecord>;
export type KujiFairness = z.infer<typeof kujiFairnessSchema>;
export const kujiFairnessResponseSchema = z.extend(errorResponseSchema, { fairness: kujiFairnessSchema });
