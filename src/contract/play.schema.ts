import { z } from 'zod/mini';
import type {
  AssistGaugeView,
  MachineView as DomainMachineView,
  PlayLogEntry as DomainPlayLogEntry,
  PlayView,
  StaffAssistView,
} from '../domain';
import {
  DESIGNATED_TYPES,
  RESERVE_STATUSES,
  SETTINGS_CHANGE_REASONS,
  SETTINGS_FIELDS,
  STAFF_ASSIST_OUTCOMES,
  STATION_MAINTENANCE_ERROR_CODE,
  STATION_STATUSES,
  VIP_EXCLUSIVE_IN_USE_ERROR_CODE,
  VIP_ONLY_ERROR_CODE,
  VIP_WEEKLY_LIMIT_ERROR_CODE,
} from '../domain';
import { prizeItemSchema } from './catalogue.schema';
import { playClipRefSchema } from './clip.schema';
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
  kujiDraw: 'play/kuji_draw',
  kujiFairness: 'contents/kuji_fairness',
} as const;

/** error_code values of the play calls (§8) and their exact Japanese texts. */
export const PLAY_ERROR = {
  maintenance: { code: STATION_MAINTENANCE_ERROR_CODE, info: M.stationMaintenance },
  vipOnly: { code: VIP_ONLY_ERROR_CODE, info: M.vipOnly },
  vipWeeklyWon: { code: VIP_WEEKLY_LIMIT_ERROR_CODE, info: M.vipWeeklyWon },
  exclusiveInUse: { code: VIP_EXCLUSIVE_IN_USE_ERROR_CODE, info: M.exclusiveInUse },
} as const;

const flag = z.union([z.literal(0), z.literal(1)]);
const count = z.int().check(z.nonnegative());

/** Reserve status record (spec §3) [R3-5], plus the station it describes. */
export const reserveStatusRecordSchema = z.object({
  station_id: count,
  station_setting_id: count,
  /** null in the empty record (no station named and no reservation). */
  station_status: z.nullable(z.enum(STATION_STATUSES)),
  visit_count: count,
  reserve_count: count,
  /** null in the empty record (the caller holds no reservation there). */
  reserve_status: z.nullable(z.enum(RESERVE_STATUSES)),
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
  reserve_polling_id: z.int().check(z.positive()),
  station_id: z.int().check(z.positive()),
  station_setting_id: z.int().check(z.positive()),
  reserve_status: z.enum(RESERVE_STATUSES),
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
export const playingResponseSchema = z.extend(errorResponseSchema, { list: z.array(playInfoSchema) });

/** Body of POST /v2/play/get_reserve: identity, optionally the station on screen. */
export const getReserveRequestSchema = z.extend(identitySchema, { station_id: z.optional(positiveIdSchema) });
export const getReserveResponseSchema = z.extend(errorResponseSchema, { reserve_info: reserveStatusRecordSchema });

/** Body of POST /v2/play/visit (designed): start watching a station. */
export const visitRequestSchema = z.extend(identitySchema, { station_id: positiveIdSchema });
export const visitResponseSchema = z.extend(errorResponseSchema, { reserve_info: reserveStatusRecordSchema });

/** Body of POST /v2/play/reserve (designed): join the station's line. */
export const reserveRequestSchema = z.extend(identitySchema, {
  station_id: positiveIdSchema,
  shop_id: z.optional(z.int().check(z.nonnegative()).check(z.lte(1_000_000))),
});
export const reserveResponseSchema = z.extend(errorResponseSchema, {
  reserve_info: reserveStatusRecordSchema,
  play_info: playInfoSchema,
});

export const reserveCancelRequestSchema = z.extend(identitySchema, {
  shop_id: z.int().check(z.nonnegative()).check(z.lte(1_000_000)),
  reserve_cancel: z.object({ station_setting_id: positiveIdSchema }),
});
export const reserveCancelResponseSchema = z.extend(errorResponseSchema, {
  reserve_cancel: z.object({
    play_reserve_id: z.int().check(z.positive()),
    station_setting_id: z.int().check(z.positive()),
    reserve_status: z.literal('cancel'),
  }),
});

export const visitCancelRequestSchema = z.extend(identitySchema, { station_setting_id: positiveIdSchema });
export const visitCancelResponseSchema = z.extend(errorResponseSchema, {
  visit_cancel: z.object({ station_setting_id: z.int().check(z.positive()), visit_count: count }),
});

// ---- the play loop (designed: docs/play.md) ---------------------------------------------------

/** Paths of the play loop's calls (relative to the API base). */
export const PLAY_LOOP_ENDPOINTS = {
  confirm: 'v2/play/confirm',
  current: 'v2/play/current',
  control: 'v2/play/control',
  continue: 'v2/play/continue',
  finish: 'v2/play/finish',
  history: 'v2/play/history',
  gauge: 'v2/play/gauge',
  stationInfo: 'v2/play/station_info',
  /** A station's published settings history, for anyone [R11-6]. */
  settingsHistory: 'v2/play/settings_history',
  /** The player asks for a staff assist after a miss; the answer is their play, held [R11-9]. */
  assist: 'v2/play/assist',
} as const;

export const CRANE_BUTTONS = ['right', 'back'] as const;
export const CRANE_COMMANDS = ['press', 'release'] as const;
export const PLAY_PHASES = ['resetting', 'playing', 'result', 'ended'] as const;
export const CRANE_PHASES = [
  'ready',
  'movingRight',
  'waitBack',
  'movingBack',
  'dropping',
  'closing',
  'lifting',
  'returning',
  'opening',
  'done',
] as const;
export const PLAY_CURRENCIES = ['tc', 'ticket', 'free'] as const;
export const PLAY_RESULTS = ['win', 'miss', 'refunded'] as const;

const ms = z.int().check(z.nonnegative());

/** Where the claw is, as every viewer of a station sees it. */
export const machineViewSchema = z.object({
  tick: z.int().check(z.nonnegative()),
  phase: z.enum(CRANE_PHASES),
  x: z.number(),
  z: z.number(),
  h: z.number(),
  grip: z.number(),
  /** The button the player may use now; null when none. */
  button: z.nullable(z.enum(CRANE_BUTTONS)),
  /** Until that button fires by itself; null while a button is held or none waits. */
  button_ms_left: z.nullable(ms),
});
export type MachineView = z.infer<typeof machineViewSchema>;
machineViewSchema satisfies z.ZodMiniType<DomainMachineView>;

/** The assist gauge of a player at a station (src/domain play-loop rule). */
export const assistGaugeSchema = z.object({
  misses: count,
  level: count,
  strength_bonus: z.number().check(z.nonnegative()),
  misses_to_next_level: count,
  fill: z.number().check(z.gte(0)).check(z.lte(1)),
});
export type AssistGaugeAnswer = z.infer<typeof assistGaugeSchema>;
assistGaugeSchema satisfies z.ZodMiniType<AssistGaugeView>;

/** Staff assist in the player's turn [R11-9]. */
export const staffAssistViewSchema = z.object({
  needed: count,
  misses: count,
  state: z.enum(['counting', 'available', 'asked']),
  ms_left: z.nullable(ms),
  outcome: z.nullable(z.enum(STAFF_ASSIST_OUTCOMES)),
});
staffAssistViewSchema satisfies z.ZodMiniType<StaffAssistView>;

/** One play as the player sees it: the machine, the windows, the result, and its settings. */
export const playStateSchema = z.object({
  play_id: z.int().check(z.positive()),
  play_reserve_id: z.int().check(z.positive()),
  station_id: z.int().check(z.positive()),
  phase: z.enum(PLAY_PHASES),
  machine: machineViewSchema,
  /** Until the current window ends: the reset before play, or the continue window after a result. */
  window_ms_left: z.nullable(ms),
  /** Set while the player is away mid-play: until the claw drops by itself. */
  grace_ms_left: z.nullable(ms),
  result: z.nullable(z.enum(PLAY_RESULTS)),
  won_prize_name: z.nullable(z.string()),
  currency: z.enum(PLAY_CURRENCIES),
  price: count,
  arm_strength: z.number().check(z.gte(0)).check(z.lte(1)),
  assist_level: count,
  staff_assist: z.optional(z.nullable(staffAssistViewSchema)),
});
export type PlayState = z.infer<typeof playStateSchema>;
playStateSchema satisfies z.ZodMiniType<PlayView>;

export const confirmRequestSchema = z.extend(identitySchema, { station_id: positiveIdSchema });
export const currentPlayRequestSchema = identitySchema;
export const playIdRequestSchema = z.extend(identitySchema, { play_id: positiveIdSchema });
/** A button command: the socket's `control` message, and the body of /v2/play/control beside the identity. */
export const controlCommandSchema = z.object({
  play_id: positiveIdSchema,
  button: z.enum(CRANE_BUTTONS),
  command: z.enum(CRANE_COMMANDS),
});
export const controlRequestSchema = z.extend(identitySchema, controlCommandSchema.shape);
export const playStateResponseSchema = z.extend(errorResponseSchema, { play: z.nullable(playStateSchema) });
export const controlResponseSchema = z.extend(errorResponseSchema, {
  tick: z.int().check(z.nonnegative()),
  machine: machineViewSchema,
});

export const historyRequestSchema = z.extend(identitySchema, {
  page: z.optional(z.int().check(z.positive()).check(z.lte(10_000))),
});
/** One row of a player's play log: everything that decided the play, published after it. */
export const playLogEntrySchema = z.object({
  play_id: z.int().check(z.positive()),
  station_id: z.int().check(z.positive()),
  prize_name: z.string(),
  currency: z.enum(PLAY_CURRENCIES),
  price: count,
  base_arm_strength: z.number(),
  assist_level: count,
  arm_strength: z.number(),
  seed: z.int(),
  layout: z.array(
    z.object({
      id: z.int(),
      x: z.number(),
      z: z.number(),
      radius: z.number(),
      shape: z.enum(['box', 'plush', 'capsule']),
      hue: z.number(),
    }),
  ),
  inputs: z.array(
    z.object({ tick: z.int().check(z.nonnegative()), button: z.enum(CRANE_BUTTONS), command: z.enum(CRANE_COMMANDS) }),
  ),
  drop_at_tick: z.nullable(z.int()),
  result: z.nullable(z.enum(PLAY_RESULTS)),
  started_at: z.string(),
  ended_at: z.nullable(z.string()),
  /** The play's video (docs/clips.md): absent where the server records none, null for a play without one. */
  clip: z.optional(z.nullable(playClipRefSchema)),
  /** The station's settings version the play ran with [R11-6]; null for plays before versions existed. */
  settings_version: z.optional(z.nullable(count)),
  /** Paid with the day's free play [R11-8]. */
  daily_free: z.optional(z.boolean()),
  /** The staff assist asked after this play [R11-9]. */
  staff_assist: z.optional(
    z.nullable(
      z.object({
        status: z.enum(['asked', ...STAFF_ASSIST_OUTCOMES]),
        misses: count,
        asked_at: z.string(),
        ended_at: z.nullable(z.string()),
      }),
    ),
  ),
});
export type PlayLogEntry = z.infer<typeof playLogEntrySchema>;
playLogEntrySchema satisfies z.ZodMiniType<DomainPlayLogEntry>;
export const historyResponseSchema = z.extend(errorResponseSchema, {
  history: z.object({ list: z.array(playLogEntrySchema), page: count, has_more: flag }),
});

export const gaugeRequestSchema = z.extend(identitySchema, { station_id: positiveIdSchema });
export const gaugeResponseSchema = z.extend(errorResponseSchema, { gauge: assistGaugeSchema });

/** A station's settings history [R11-6]: each version in force, newest first. */
export const settingsHistoryRequestSchema = z.object({
  station_id: positiveIdSchema,
  page: z.optional(z.int().check(z.positive()).check(z.lte(10_000))),
});
const settingValue = z.union([z.number(), z.string().check(z.maxLength(200))]);
export const settingsVersionSchema = z.object({
  version: z.int().check(z.positive()),
  applied_at: z.string(),
  reason: z.enum(SETTINGS_CHANGE_REASONS),
  changes: z.array(z.object({ field: z.enum(SETTINGS_FIELDS), before: settingValue, after: settingValue })),
});
export const settingsHistoryResponseSchema = z.extend(errorResponseSchema, {
  settings_history: z.object({
    station_id: z.int().check(z.positive()),
    /** The version in force now (0: none published yet). */
    current_version: count,
    list: z.array(settingsVersionSchema),
    page: count,
    has_more: flag,
    /** The staff assists answered at the station, newest first (the first page only) [R11-9]. */
    assists: z.optional(
      z.array(
        z.object({
          outcome: z.enum(['done', 'declined', 'lapsed']),
          misses: count,
          asked_at: z.string(),
          ended_at: z.string(),
        }),
      ),
    ),
  }),
});
export type SettingsHistoryAnswer = z.infer<typeof settingsHistoryResponseSchema>['settings_history'];

/** Station info (spec §3) [R3-2]: the feed addresses and each camera's luminance in percent. */
const luminance = z.optional(z.nullable(z.int().check(z.gte(0)).check(z.lte(300))));
export const stationInfoSchema = z.object({
  watch_info: z.object({
    webrtc_url: z.string(),
    webrtc_channel_front: z.nullable(z.string()),
    webrtc_channel_side: z.nullable(z.string()),
    motion_jpeg_front: z.string().check(z.minLength(1)),
    motion_jpeg_side: z.string().check(z.minLength(1)),
    /** Beyond the spec (issue 44): each camera's LL-HLS playlist for spectators, where the service makes one. */
    hls_front: z.optional(z.string().check(z.minLength(1))),
    hls_side: z.optional(z.string().check(z.minLength(1))),
  }),
  luminance_front: z.object({ brightness_front: luminance, saturate_front: luminance, contrast_front: luminance }),
  luminance_side: z.object({ brightness_side: luminance, saturate_side: luminance, contrast_side: luminance }),
});
export const stationInfoRequestSchema = z.object({
  user_id: z.optional(z.int().check(z.positive()).check(z.lte(2_147_483_647))),
  access_token: z.optional(z.string().check(z.maxLength(200))),
  station_id: positiveIdSchema,
});
export const stationInfoResponseSchema = z.extend(errorResponseSchema, { station_info: stationInfoSchema });

/** The camera picture's response header naming the simulation tick it shows. */
export const FRAME_TICK_HEADER = 'x-onkure-tick';
/** The camera picture's response header naming the play on the machine (empty while idle). */
export const FRAME_PLAY_HEADER = 'x-onkure-play';
