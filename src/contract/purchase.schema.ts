import { integer } from './schema-helpers';
import { z } from 'zod/mini';
import {
  PAY_METHOD_KINDS,
  SPENDING_LIMIT_MAX_YEN,
  SPENDING_LIMIT_MIN_YEN,
  type PayMethod as DomainPayMethod,
} from '../domain';
import { errorResponseSchema } from './envelope';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/** Purchase calls: §7's two GETs plus the designed TC purchase and settlement result. */
export const PURCHASE_ENDPOINTS = {
  payMethodList: (userId: number) => `purchase/pay_method_list/${userId}`,
  mobileItems: (userId: number) => `mobile/items/${userId}`,
  purchaseTc: 'purchase/tc',
  settlementResult: 'purchase/settlement_result',
  /** The analytics of a completed settlement, handed out once. */
  settlementReport: 'purchase/settlement_report',
  spendingLimit: 'purchase/spending_limit',
  setSpendingLimit: 'purchase/spending_limit/set',
  tcHistory: 'purchase/tc_history',
  /** The payment provider's signed callback (not a player call). */
  providerCallback: 'purchase/provider_callback',
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
}) satisfies z.ZodMiniType<DomainPayMethod & { id: PayMethodId }>;
export type PayMethodEntry = z.infer<typeof payMethodSchema>;
export const payMethodListResponseSchema = z.extend(errorResponseSchema, { list: z.array(payMethodSchema) });

/** A TC product (spec §3 Products) [R3-11] with its derived bonus label [R9-7]. */
export const tcProductSchema = z.object({
  product_id: z.int().check(z.positive()),
  product_name: z.string(),
  price: z.int().check(z.positive()),
  toll_tc: z.int().check(z.positive()),
  free_tc: z.int().check(z.nonnegative()),
  /** The domain's bonusLabel [R9-7]: '1,000ボーナス', or null without free TC. */
  bonus_label: z.nullable(z.string()),
  is_sale: flag01Schema,
});
export const mobileItemsResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(tcProductSchema),
  /** 1 when the user has registered a birth date (the purchase modal's age step, R2.5-5). */
  registered_birth: flag01Schema,
  bonus_item_list: z.array(
    z.object({ product_id: z.int(), item_name: z.string(), count: z.int().check(z.positive()) }),
  ),
  is_tc_sale: flag01Schema,
  is_ticket_present: flag01Schema,
});

export const mobileItemsQuerySchema = z.object({
  payMethod: z.optional(z.enum(PAY_METHOD_IDS, { error: M.payMethodInvalid })),
});

export const purchaseTcRequestSchema = z.extend(identitySchema, {
  purchase: z.object({
    product_id: idSchema,
    pay_method: z.enum(PAY_METHOD_IDS, { error: M.payMethodInvalid }),
    /** Client-made id of this attempt; the same id never buys twice (safe to resend). */
    request_id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, M.requestIdInvalid))),
  }),
});
export const SETTLEMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export const settlementSchema = z.object({
  product_settlement_id: z.string(),
  product_id: z.int(),
  pay_method: z.enum(PAY_METHOD_IDS),
  price: z.int(),
  toll_tc: z.int(),
  free_tc: z.int(),
  bonus_ticket: z.int().check(z.nonnegative()),
  status: z.enum(SETTLEMENT_STATUSES),
  created_at: z.string(),
  completed_at: z.nullable(z.string()),
  /** A pending settlement not paid by then ends as cancelled. */
  expires_at: z.string(),
  /** The provider's page where the player pays, while pending (same origin); null once ended. */
  payment_url: z.nullable(z.string().check(z.startsWith('/'))),
  failure_code: z.nullable(z.string()),
  /** Why a failed or cancelled settlement ended so, in Japanese; null otherwise. */
  failure_info: z.nullable(z.string()),
});
export const purchaseTcResponseSchema = z.extend(errorResponseSchema, {
  settlement: settlementSchema,
  tc: z.object({ tc_all: z.int(), tc_free: z.int(), tc_toll: z.int() }),
});
const settlementIdSchema = z.string().check(z.regex(/^[0-9a-f-]{36}$/, M.settlementIdInvalid));
export const settlementResultRequestSchema = z.extend(identitySchema, { product_settlement_id: settlementIdSchema });
export const settlementResultResponseSchema = z.extend(errorResponseSchema, { settlement: settlementSchema });
export const settlementReportRequestSchema = settlementResultRequestSchema;
export const settlementReportResponseSchema = z.extend(errorResponseSchema, {
  /** buy_tc to send with this price, or null: already handed out, or not completed. */
  buy_tc: z.nullable(z.object({ price: z.int().check(z.positive()) })),
  /** Send conversion too: this is the player's first completed purchase. */
  conversion: z.boolean(),
});

/** A player's own monthly spending limit (yen) [R10-3]. */
const limitYenSchema = integer(M.spendingLimitInvalid, M.spendingLimitInvalid)
  .check(z.gte(SPENDING_LIMIT_MIN_YEN, M.spendingLimitInvalid))
  .check(z.lte(SPENDING_LIMIT_MAX_YEN, M.spendingLimitInvalid));
export const spendingLimitRequestSchema = z.extend(identitySchema, {});
export const setSpendingLimitRequestSchema = z.extend(identitySchema, {
  /** null: no limit of the player's own. */
  spending_limit: z.object({ limit_yen: z.nullable(limitYenSchema) }),
});
export const spendingLimitSchema = z.object({
  /** The player's own limit in force; null: none. */
  limit_yen: z.nullable(z.int().check(z.positive())),
  /** A raise or removal waiting its 24 hours. */
  pending: z.nullable(z.object({ limit_yen: z.nullable(z.int().check(z.positive())), effective_at: z.string() })),
  /** The minors' cap by the registered birth date; null for an adult or no birth date. */
  minor_limit_yen: z.nullable(z.int().check(z.positive())),
  /** The cap that applies: the lower of the two; null: none. */
  cap_yen: z.nullable(z.int().check(z.positive())),
  /** Bought this Asia/Tokyo month (completed, and pending payments under way). */
  spent_yen: z.int().check(z.nonnegative()),
  remaining_yen: z.nullable(z.int().check(z.nonnegative())),
});
export const spendingLimitResponseSchema = z.extend(errorResponseSchema, { spending_limit: spendingLimitSchema });

/** The TC used history: one entry per ledger operation, free and paid apart, newest first. */
export const TC_HISTORY_PAGE_SIZE = 20;
export const tcHistoryRequestSchema = z.extend(identitySchema, {
  page: z.optional(z.int().check(z.positive()).check(z.lte(10_000))),
});
export const tcHistoryEntrySchema = z.object({
  /** The operation's key (one purchase, one play, one refund…). */
  id: z.string(),
  /** purchase, play, kuji, refund, present_code, invite, delivery_fee, debug_grant, admin… */
  reason: z.string(),
  reference: z.nullable(z.string()),
  /** Signed: credits positive, spends negative. */
  free_delta: z.int(),
  toll_delta: z.int(),
  /** The balance after the operation. */
  balance_after: z.int().check(z.nonnegative()),
  created_at: z.string(),
  /** A free credit's lot end [R11-7]; null: it never ends; absent: the operation credited no free TC. */
  free_expires_at: z.optional(z.nullable(z.string())),
});
/** A free TC lot still holding TC [R11-7]: what it was credited with, what is left, and its end. */
export const freeTcLotSchema = z.object({
  lot_id: z.int().check(z.positive()),
  amount: z.int().check(z.positive()),
  remaining: z.int().check(z.positive()),
  /** ISO time (24:00 JST of its last day); null: credited before lots existed, it never ends. */
  expires_at: z.nullable(z.string()),
  reason: z.string(),
  created_at: z.string(),
});
export const tcHistoryResponseSchema = z.extend(errorResponseSchema, {
  history: z.object({ list: z.array(tcHistoryEntrySchema), page: z.int().check(z.positive()), has_more: flag01Schema }),
  /** The live free lots, the earliest end first [R11-7]. */
  free_lots: z.optional(z.array(freeTcLotSchema)),
});

/** The provider's callback body (checked after its signature). */
export const providerCallbackSchema = z.object({
  event_id: z.string().check(z.minLength(1)).check(z.maxLength(64)),
  payment_id: z.string().check(z.regex(/^[0-9a-f-]{36}$/)),
  merchant_reference: z.string().check(z.regex(/^[0-9a-f-]{36}$/)),
  outcome: z.enum(['paid', 'declined', 'failed', 'cancelled']),
  amount: z.int().check(z.positive()),
  failure_code: z.nullable(z.string().check(z.regex(/^[a-z_]{1,40}$/))),
  occurred_at: z.string().check(z.maxLength(40)),
});
