import { z } from 'zod';
import {
  DESIGNATED_TYPES, STATION_MAINTENANCE_ERROR_CODE, STATION_STATUSES, VIP_EXCLUSIVE_IN_USE_ERROR_CODE, VIP_ONLY_ERROR_CODE,
  VIP_WEEKLY_LIMIT_ERROR_CODE,
} from '../domain';
import { prizeItemSchema } from './catalogue.schema';
import { errorResponseSchema } from './envelope';
import { identitySchema, idSchema as positiveIdSchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/**
 * Station reservation calls: the §7 ones (get_reserve, reserve_cancel, visit_cancel, /contents/playing)
 * and the ones we designed (visit, reserve), with the §3 reserve status record and play info.
 */

/** Paths we designed beside the §7 table (relative to the API base). */
export const PLAY_ENDPOINTS = {
  visit: 'v2/play/visit',
  reserve: 'v2/play/reserve',
  kujiReserve: 'play/kuji_reserve',
} as const;

/** Station reserve statuses (§4.3) [R4.3-1]. */
export const STATION_RESERVE_STATUSES = ['reserve', 'playTransition', 'playWaiting', 'cancel', 'change'] as const;
export type StationReserveStatus = (typeof STATION_RESERVE_STATUSES)[number];
/** The statuses that hold a place in a station's line. */
export const ACTIVE_STATION_RESERVE_STATUSES = ['reserve', 'playTransition', 'playWaiting'] as const;

/** error_code values of the play calls (§8) and their exact Japanese texts. */
export const PLAY_ERROR = {
  maintenance: { code: STATION_MAINTENANCE_ERROR_CODE, info: M.stationMaintenance },
  vipOnly: { code: VIP_ONLY_ERROR_CODE, info: M.vipOnly },
  vipWeeklyWon: { code: VIP_WEEKLY_LIMIT_ERROR_CODE, info: M.vipWeeklyWon },
  exclusiveInUse: { code: VIP_EXCLUSIVE_IN_USE_ERROR_CODE, info: M.exclusiveInUse },
} as const;


const flag = z.union([z.literal(0), z.literal(1)]);
const count = z.number().int().nonnegative();

/** Reserve status record (spec §3) [R3-5], plus the station it describes. */
export const reserveStatusRecordSchema = z.object({
  station_id: count,
  station_setting_id: count,
  /** null in the empty record (no station named and no reservation). */
  station_status: z.enum(STATION_STATUSES).nullable(),
  visit_count: count,
  reserve_count: count,
  /** null in the empty record (the caller holds no reservation there). */
  reserve_status: z.enum(STATION_RESERVE_STATUSES).nullable(),
  reserve_token: z.string(),
  /** Place in line, 1 = next (or playing); 0 when not in line. */
  reserve_num: count,
  /** Seconds the current step has left (e.g. the playTransition confirm window); 0 while waiting. */
  reserve_time: count,
  play_reserve_id: count,
  /** 1 while someone plays the station. */
  playing: flag,
  /** 1 when the caller may watch the station. */
  viewable: flag,
  request_flag: flag,
  request_type: count,
});
export type ReserveStatusRecord = z.infer<typeof reserveStatusRecordSchema>;

/** Play info (spec §3) [R3-7]. */
export const playInfoSchema = z.object({
  reserve_polling_id: z.number().int().positive(),
  station_id: z.number().int().positive(),
  station_setting_id: z.number().int().positive(),
  reserve_status: z.enum(STATION_RESERVE_STATUSES),
  is_reserve: flag,
  reserve_num: count,
  reserve_token: z.string(),
  /** Seconds left of the current window (e.g. confirm), 0 while simply waiting. */
  reserve_remaintime: count,
  station_status: z.enum(STATION_STATUSES),
  designated_type: z.enum(DESIGNATED_TYPES),
  station_data: prizeItemSchema,
});
export type PlayInfo = z.infer<typeof playInfoSchema>;

// ---- bodies --------------------------------------------------------------------------------

export const playingRequestSchema = identitySchema;
export const playingResponseSchema = errorResponseSchema.extend({ list: z.array(playInfoSchema) });

/** Body of POST /v2/play/get_reserve: identity, optionally the station on screen. */
export const getReserveRequestSchema = identitySchema.extend({ station_id: positiveIdSchema.optional() });
export const getReserveResponseSchema = errorResponseSchema.extend({ reserve_info: reserveStatusRecordSchema });

/** Body of POST /v2/play/visit (designed): start watching a station. */
export const visitRequestSchema = identitySchema.extend({ station_id: positiveIdSchema });
export const visitResponseSchema = errorResponseSchema.extend({ reserve_info: reserveStatusRecordSchema });

/** Body of POST /v2/play/reserve (designed): join the station's line. */
export const reserveRequestSchema = identitySchema.extend({
  station_id: positiveIdSchema,
  shop_id: z.number().int().nonnegative().max(1_000_000).optional(),
});
export const reserveResponseSchema = errorResponseSchema.extend({ reserve_info: reserveStatusRecordSchema, play_info: playInfoSchema });

export const reserveCancelRequestSchema = identitySchema.extend({
  shop_id: z.number().int().nonnegative().max(1_000_000),
  reserve_cancel: z.object({ station_setting_id: positiveIdSchema }),
});
export const reserveCancelResponseSchema = errorResponseSchema.extend({
  reserve_cancel: z.object({ play_reserve_id: z.number().int().positive(), station_setting_id: z.number().int().positive(), reserve_status: z.literal('cancel') }),
});

export const visitCancelRequestSchema = identitySchema.extend({ station_setting_id: positiveIdSchema });
export const visitCancelResponseSchema = errorResponseSchema.extend({
  visit_cancel: z.object({ station_setting_id: z.number().int().positive(), visit_count: count }),
});
