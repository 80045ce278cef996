import { z } from 'zod';
import { PAY_METHOD_KINDS, type PayMethod as DomainPayMethod } from '../domain';
import { errorResponseSchema } from './envelope';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/** Purchase calls: §7's two GETs plus the designed TC purchase and settlement result. */
export const PURCHASE_ENDPOINTS = {
  payMethodList: (userId: number) => `purchase/pay_method_list/${userId}`,
  mobileItems: (userId: number) => `mobile/items/${userId}`,
  purchaseTc: 'purchase/tc',
  settlementResult: 'purchase/settlement_result',
} as const;

/** Pay method ids, in the web order of R9-6. */
export const PAY_METHOD_IDS = [
  'credit_card',
  'credit_card_3ds',
  'device_wallet',
  'account_payment',
  'mobile_payment_a',
  'mobile_payment_b',
  'carrier_billing_a',
  'carrier_billing_b',
  'carrier_billing_c',
  'emoney_a',
  'emoney_b',
] as const;
export type PayMethodId = (typeof PAY_METHOD_IDS)[number];

/** Pay method (spec §3) [R3-12]: name, info, imgUrl, rank_id 0-3 (plus the id a purchase names). */
export const payMethodSchema = z.object({
  id: z.enum(PAY_METHOD_IDS),
  /** The domain's pay-method kind, by which the client orders the list (arrangePayMethods). */
  kind: z.enum(PAY_METHOD_KINDS),
  name: z.string(),
  info: z.string(),
  imgUrl: z.string(),
  rank_id: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
}) satisfies z.ZodType<DomainPayMethod & { id: PayMethodId }>;
export type PayMethodEntry = z.infer<typeof payMethodSchema>;
export const payMethodListResponseSchema = errorResponseSchema.extend({ list: z.array(payMethodSchema) });

/** A TC product (spec §3 Products) [R3-11] with its derived bonus label [R9-7]. */
export const tcProductSchema = z.object({
  product_id: z.number().int().positive(),
  product_name: z.string(),
  price: z.number().int().positive(),
  toll_tc: z.number().int().positive(),
  free_tc: z.number().int().nonnegative(),
  /** The domain's bonusLabel [R9-7]: '1,000ボーナス', or null without free TC. */
  bonus_label: z.string().nullable(),
  is_sale: flag01Schema,
});
export const mobileItemsResponseSchema = errorResponseSchema.extend({
  list: z.array(tcProductSchema),
  /** 1 when the user has registered a birth date (the purchase modal's age step, R2.5-5). */
  registered_birth: flag01Schema,
  bonus_item_list: z.array(
    z.object({ product_id: z.number().int(), item_name: z.string(), count: z.number().int().positive() }),
  ),
  is_tc_sale: flag01Schema,
  is_ticket_present: flag01Schema,
});

export const mobileItemsQuerySchema = z.object({
  payMethod: z.enum(PAY_METHOD_IDS, { error: M.payMethodInvalid }).optional(),
});

export const purchaseTcRequestSchema = identitySchema.extend({
  purchase: z.object({
    product_id: idSchema,
    pay_method: z.enum(PAY_METHOD_IDS, { error: M.payMethodInvalid }),
    /** Client-made id of this attempt; the same id never buys twice (safe to resend). */
    request_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, M.requestIdInvalid)
      .optional(),
  }),
});
export const SETTLEMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export const settlementSchema = z.object({
  product_settlement_id: z.string(),
  product_id: z.number().int(),
  pay_method: z.enum(PAY_METHOD_IDS),
  price: z.number().int(),
  toll_tc: z.number().int(),
  free_tc: z.number().int(),
  status: z.enum(SETTLEMENT_STATUSES),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export const purchaseTcResponseSchema = errorResponseSchema.extend({
  settlement: settlementSchema,
  tc: z.object({ tc_all: z.number().int(), tc_free: z.number().int(), tc_toll: z.number().int() }),
});
export const settlementResultRequestSchema = identitySchema.extend({
  product_settlement_id: z.string().regex(/^[0-9a-f-]{36}$/, M.settlementIdInvalid),
});
export const settlementResultResponseSchema = errorResponseSchema.extend({ settlement: settlementSchema });
