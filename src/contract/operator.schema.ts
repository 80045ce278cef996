import { z } from 'zod';
import { isAcceptableText, KUJI_BOX_STATUSES, STATION_STATUSES } from '../domain';
import { errorResponseSchema } from './envelope';
import { CONTRACT_MESSAGES as M, FIELD_LABELS_JA } from './messages';
import { playLogEntrySchema } from './play.schema';
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
const operatorSchema = z.object({
  login: z.string(),
  display_name: z.string(),
  role: z.enum(OPERATOR_ROLE_NAMES),
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
