import { z } from 'zod';
import { KUJI_BOX_STATUSES } from './contents.schema';
import { errorResponseSchema } from './envelope';
import { identitySchema, idSchema as positiveIdSchema } from './user-identity.schema';

/**
 * Kuji play calls: /play/kuji_status_check, /play/kuji_polling, /play/kuji_reserve_cancel (§7) and
 * /play/kuji_reserve (designed), with the §3 kuji play info.
 */

/** Kuji reserve statuses (§4.4) plus the two ends a reservation can reach (cancel, end). */
export const KUJI_PLAY_RESERVE_STATUSES = ['reserve', 'firstReserved', 'confirm', 'cancel', 'end'] as const;
export type KujiPlayReserveStatus = (typeof KUJI_PLAY_RESERVE_STATUSES)[number];
export const ACTIVE_KUJI_RESERVE_STATUSES = ['reserve', 'firstReserved', 'confirm'] as const;

/**
 * Longest time, in seconds, a holder stays in each timed status; the remaining time is this minus
 * the seconds since play_at [R4.4-5].
 */
export const KUJI_REMAIN_MAX_SECONDS = { firstReserved: 60, confirm: 180 } as const;

/** A reserve token: 32 url-safe characters. */
export const reserveTokenSchema = z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/);

/** Kuji play info (spec §3) [R3-8]. */
export const kujiPlayInfoSchema = z.object({
  reserve_polling_id: z.number().int().positive(),
  kuji_play_reserve_id: z.number().int().positive(),
  reserve_token: z.string(),
  /** Place in the box's line, 1 = the holder; 0 once the reservation has ended. */
  reserve_num: z.number().int().nonnegative(),
  reserve_status: z.enum(KUJI_PLAY_RESERVE_STATUSES),
  kuji_id: z.number().int().positive(),
  box_id: z.number().int().positive(),
  box_status: z.enum(KUJI_BOX_STATUSES),
  reserve_remaintime: z.number().int().nonnegative(),
  /** When the current timed status began (ISO 8601); null while waiting in line. */
  play_at: z.string().nullable(),
});
export type KujiPlayInfo = z.infer<typeof kujiPlayInfoSchema>;

export const kujiStatusCheckRequestSchema = identitySchema;
/** play_info is null when the caller holds no kuji reservation. */
export const kujiStatusCheckResponseSchema = errorResponseSchema.extend({ play_info: kujiPlayInfoSchema.nullable() });

export const kujiReserveRequestSchema = identitySchema.extend({ kuji_id: positiveIdSchema, box_id: positiveIdSchema });
export const kujiReserveResponseSchema = errorResponseSchema.extend({ play_info: kujiPlayInfoSchema });

export const kujiPollingRequestSchema = identitySchema.extend({ reserve_token: reserveTokenSchema, kuji_id: positiveIdSchema, box_id: positiveIdSchema });
export const kujiPollingResponseSchema = errorResponseSchema.extend({ polling: z.object({ play_info: kujiPlayInfoSchema }) });

/** Body of POST /play/kuji_reserve_cancel (the spec does not show it; we designed it). */
export const kujiReserveCancelRequestSchema = kujiPollingRequestSchema;
export const kujiReserveCancelResponseSchema = errorResponseSchema.extend({ play_info: kujiPlayInfoSchema });
