import { z } from 'zod';
import { isAcceptableText, KUJI_BOX_STATUSES, STATION_STATUSES } from '../domain';
import { errorResponseSchema } from './envelope';
import { CONTRACT_MESSAGES as M, FIELD_LABELS_JA } from './messages';
import { PLAY_PHASES, playLogEntrySchema } from './play.schema';
import { idSchema } from './user-identity.schema';

/**
 * The operator API (docs/play.md): its own token, not a user login. Paths are relative to the API
 * base; every call is a POST with a JSON body.
 */
export const OPERATOR_ENDPOINTS = {
  stationStatus: 'operator/station_status',
  fault: 'operator/fault',
  restock: 'operator/restock',
  changePrize: 'operator/change_prize',
  armStrength: 'operator/arm_strength',
  playLog: 'operator/play_log',
  kujiBoxStatus: 'operator/kuji_box_status',
  kujiBoxStock: 'operator/kuji_box_stock',
  // Fulfilment (docs/delivery.md): schemas in delivery.schema.ts.
  deliveries: 'operator/deliveries',
  deliveryShip: 'operator/delivery_ship',
  deliveryCancel: 'operator/delivery_cancel',
  prizeGrant: 'operator/prize_grant',
  // Operator accounts (docs/operator-console.md, R10-9).
  login: 'operator/login',
  logout: 'operator/logout',
  me: 'operator/me',
  audit: 'operator/audit',
  // The console (docs/operator-console.md): the floor, service messages, users, numbers, kuji boxes.
  floor: 'operator/floor',
  endPlay: 'operator/end_play',
  removeFromLine: 'operator/remove_from_line',
  pause: 'operator/pause',
  broadcast: 'operator/broadcast',
  emergencyEnd: 'operator/emergency_end',
  serviceState: 'operator/service_state',
  userMessage: 'operator/user_message',
  user: 'operator/user',
  userStatus: 'operator/user_status',
  numbers: 'operator/numbers',
  kujiBoxes: 'operator/kuji_boxes',
} as const;

/** The header carrying `Bearer <operator session token>`. */
export const OPERATOR_AUTH_HEADER = 'x-operator-authorization';

const stationId = z.object({ station_id: idSchema }).strict();
const stock = z.number().int(M.notInteger).min(0).max(9_999, M.numberTooLarge);
const armStrength = z.number().min(0).max(1);

export const operatorStationStatusSchema = stationId.extend({ station_status: z.enum(STATION_STATUSES) }).strict();
export const operatorFaultSchema = stationId;
export const operatorRestockSchema = stationId.extend({ stock }).strict();
export const operatorArmStrengthSchema = stationId.extend({ arm_strength: armStrength }).strict();
export const operatorChangePrizeSchema = stationId
  .extend({
    prize_name: z
      .string()
      .trim()
      .min(1, M.required(FIELD_LABELS_JA.prize_name!))
      .max(100, M.tooLong(FIELD_LABELS_JA.prize_name!, 100))
      .refine(isAcceptableText, M.invalidCharacters(FIELD_LABELS_JA.prize_name!)),
    prize_shape: z.enum(['box', 'plush', 'capsule']),
    stock,
    arm_strength: armStrength.optional(),
  })
  .strict();
export const operatorPlayLogSchema = z
  .object({ station_id: idSchema.optional(), limit: z.number().int().min(1).max(500).optional() })
  .strict();

export const operatorStationAnswerSchema = errorResponseSchema.extend({
  station: z.object({
    station_id: z.number().int().positive(),
    station_status: z.enum(STATION_STATUSES),
    stock: z.number().int(),
    refunded_play_id: z.number().int().positive().nullable(),
  }),
});
export const operatorPlayLogAnswerSchema = errorResponseSchema.extend({ list: z.array(playLogEntrySchema) });

export const operatorKujiBoxStatusSchema = z
  .object({ box_id: idSchema, box_status: z.enum(KUJI_BOX_STATUSES) })
  .strict();
export const operatorKujiBoxAnswerSchema = errorResponseSchema.extend({
  box: z.object({
    kuji_id: z.number().int().positive(),
    box_id: z.number().int().positive(),
    box_status: z.enum(KUJI_BOX_STATUSES),
  }),
});

/**
 * Sets a kuji box's stock, rank by rank (the ranks the box has): allowed only before the box opens,
 * since an opened box's ticket order is fixed and committed (docs/kuji.md).
 */
export const operatorKujiBoxStockSchema = z
  .object({
    box_id: idSchema,
    prizes: z
      .array(z.object({ rank: z.string().min(1).max(40), quantity: stock }).strict())
      .min(1)
      .max(20),
  })
  .strict();
export const operatorKujiBoxStockAnswerSchema = errorResponseSchema.extend({
  box: z.object({
    box_id: z.number().int().positive(),
    prizes: z.array(z.object({ rank: z.string(), quantity: z.number().int(), remaining: z.number().int() })),
  }),
});

/** An operator's sign-in (accounts come from `npm run operator -- add …`). */
export const operatorLoginSchema = z
  .object({
    login: z.string().min(1, M.required(FIELD_LABELS_JA.operator_login!)).max(64),
    password: z.string().min(1, M.required(FIELD_LABELS_JA.password!)).max(256),
  })
  .strict();
export const operatorSessionSchema = z.object({}).strict();
export const operatorAuditSchema = z
  .object({
    limit: z.number().int(M.notInteger).min(1).max(500, M.numberTooLarge).optional(),
    operator_login: z.string().max(64).optional(),
  })
  .strict();

export const OPERATOR_ROLE_NAMES = ['admin', 'floor', 'support'] as const;
/** The rights a role holds (docs/operator-console.md); the console shows only what they allow. */
export const OPERATOR_RIGHT_NAMES = [
  'session',
  'floor',
  'kuji',
  'fulfilment',
  'support',
  'audit',
  'users',
  'broadcast',
  'numbers',
] as const;
export type OperatorRightName = (typeof OPERATOR_RIGHT_NAMES)[number];
const operatorSchema = z.object({
  login: z.string(),
  display_name: z.string(),
  role: z.enum(OPERATOR_ROLE_NAMES),
  rights: z.array(z.enum(OPERATOR_RIGHT_NAMES)),
});
export const operatorLoginResponseSchema = z.object({
  error_code: z.literal(200),
  session: z.object({ token: z.string(), expires_at: z.string() }),
  operator: operatorSchema,
});
export const operatorMeResponseSchema = z.object({ error_code: z.literal(200), operator: operatorSchema });
export const operatorAuditResponseSchema = z.object({
  error_code: z.literal(200),
  list: z.array(
    z.object({
      audit_id: z.number(),
      operator_login: z.string(),
      action: z.string(),
      target: z.unknown(),
      before: z.unknown(),
      after: z.unknown(),
      at: z.string(),
    }),
  ),
});

// ---- The console (docs/operator-console.md) ---------------------------------------------------

/** The floor: every station with its line, its play and its viewers (right `floor`). */
export const operatorFloorSchema = z.object({}).strict();
const floorStationSchema = z.object({
  station_id: z.number().int().positive(),
  station_name: z.string(),
  prize_name: z.string(),
  station_status: z.enum(STATION_STATUSES),
  stock: z.number().int(),
  /** Paused: the line is kept but no next turn starts until resumed. */
  paused: z.boolean(),
  viewers: z.number().int().nonnegative(),
  line: z.array(
    z.object({
      user_id: z.number().int().positive(),
      nickname: z.string(),
      place: z.number().int().nonnegative(),
      reserve_status: z.string(),
    }),
  ),
  play: z
    .object({
      play_id: z.number().int().positive(),
      user_id: z.number().int().positive(),
      nickname: z.string(),
      phase: z.enum(PLAY_PHASES),
      /** Milliseconds left in the current window (reset, turn or continue), null when none runs. */
      ms_left: z.number().int().nonnegative().nullable(),
      price: z.number().int().nonnegative(),
      currency: z.string(),
    })
    .nullable(),
  /** The front camera's still (GET, image/jpeg). */
  still_url: z.string(),
});
export type OperatorFloorStation = z.infer<typeof floorStationSchema>;
export const operatorFloorResponseSchema = z.object({
  error_code: z.literal(200),
  stations: z.array(floorStationSchema),
});

/**
 * Ends that play on the station's machine and refunds it once when unfinished (right `floor`); 409
 * when it is no longer on the machine. An offered turn is withdrawn with remove_from_line.
 */
export const operatorEndPlaySchema = stationId.extend({ play_id: idSchema }).strict();
/** Removes one player from a station's line (right `floor`); they are told on their user channel. */
export const operatorRemoveFromLineSchema = stationId.extend({ user_id: idSchema }).strict();
export const operatorRemoveFromLineResponseSchema = z.object({
  error_code: z.literal(200),
  removed: z.boolean(),
});
/** Pauses (or resumes) a station: the current play runs out, the line waits (right `floor`). */
export const operatorPauseSchema = stationId.extend({ paused: z.boolean() }).strict();
export const operatorPauseResponseSchema = z.object({
  error_code: z.literal(200),
  station: z.object({ station_id: z.number().int().positive(), paused: z.boolean() }),
});

/** The service messages an operator sends (§8, §4.6); invaliduser is sent by suspending a user. */
export const SERVICE_MESSAGE_CODES = ['emergency', 'reloaderror', 'cancellation'] as const;
export type ServiceMessageCode = (typeof SERVICE_MESSAGE_CODES)[number];
const serviceInfo = z
  .string()
  .trim()
  .max(200, M.tooLong(FIELD_LABELS_JA.service_info!, 200))
  .refine(isAcceptableText, M.invalidCharacters(FIELD_LABELS_JA.service_info!));
/**
 * To everyone (right `broadcast`). emergency also puts the whole service in emergency maintenance:
 * every player call answers it until `emergency_end`.
 */
export const operatorBroadcastSchema = z
  .object({ code: z.enum(SERVICE_MESSAGE_CODES), info: serviceInfo.optional() })
  .strict();
/** To one user's open clients (right `users`). */
export const operatorUserMessageSchema = z
  .object({ user_id: idSchema, code: z.enum(SERVICE_MESSAGE_CODES), info: serviceInfo.optional() })
  .strict();
export const operatorMessageResponseSchema = z.object({
  error_code: z.literal(200),
  /** How many open connections the push reached (every instance). */
  delivered: z.number().int().nonnegative(),
});
export const operatorEmergencyEndSchema = z.object({}).strict();
export const operatorServiceStateSchema = z.object({}).strict();
export const operatorServiceStateResponseSchema = z.object({
  error_code: z.literal(200),
  emergency: z.object({ info: z.string(), since: z.string(), by: z.string() }).nullable(),
});

/** One user as support sees them (right `users`). */
export const operatorUserSchema = z.object({ user_id: idSchema }).strict();
export const operatorUserStatusSchema = z.object({ user_id: idSchema, suspended: z.boolean() }).strict();
export const operatorUserResponseSchema = z.object({
  error_code: z.literal(200),
  user: z.object({
    user_id: z.number().int().positive(),
    nickname: z.string(),
    user_status: z.number().int(),
    suspended: z.boolean(),
    created_at: z.string(),
    tc_balance: z.number().int(),
  }),
});

/** Plays, wins, TC taken, refunds and assist payouts per station per day (right `numbers`), JST days. */
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidDate);
export const operatorNumbersSchema = z.object({ from: isoDay, to: isoDay }).strict();
export const operatorNumbersResponseSchema = z.object({
  error_code: z.literal(200),
  rows: z.array(
    z.object({
      day: z.string(),
      station_id: z.number().int().positive(),
      station_name: z.string(),
      plays: z.number().int().nonnegative(),
      wins: z.number().int().nonnegative(),
      /** wins ÷ plays, 0 when no play. */
      win_rate: z.number().min(0).max(1),
      tc_taken: z.number().int().nonnegative(),
      refunds: z.number().int().nonnegative(),
      refunded_tc: z.number().int().nonnegative(),
      /** Wins at an assist level above 0 (the gauge paid out). */
      assist_payouts: z.number().int().nonnegative(),
    }),
  ),
});

/** Every kuji box with its stock per rank and its fairness record (right `kuji`). */
export const operatorKujiBoxesSchema = z.object({}).strict();
export const operatorKujiBoxesResponseSchema = z.object({
  error_code: z.literal(200),
  boxes: z.array(
    z.object({
      kuji_id: z.number().int().positive(),
      kuji_name: z.string(),
      box_id: z.number().int().positive(),
      box_status: z.enum(KUJI_BOX_STATUSES),
      prizes: z.array(z.object({ rank: z.string(), quantity: z.number().int(), remaining: z.number().int() })),
      /** The published commitment (hex SHA-256) once the box opened, else null. */
      commitment: z.string().nullable(),
      /** The seed, published once the box ended, else null. */
      seed: z.string().nullable(),
    }),
  ),
});
