import { z } from 'zod';
import {
  DELIVERY_STATUSES,
  isAcceptableText,
  MAX_PRIZES_PER_DELIVERY,
  PRIZE_TYPES,
  type DeliveryAddress,
  type DeliveryView,
} from '../domain';
export type { DeliveryView } from '../domain';
import { errorResponseSchema } from './envelope';
import { addressRecordSchema } from './account.schema';
import { CONTRACT_MESSAGES as M, LEAD_TIMES } from './messages';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';
import { tcInfoSchema, WON_PRIZE_KINDS } from './user.schema';

/**
 * Delivery calls we designed (the spec shows only get_delivery; docs/api/user.md "Delivery"): the
 * fee quote, the request (charged through the ledger, idempotent by request_id), the player's
 * delivery history, changing a request before it ships, and the free-delivery ticket. The
 * operator's fulfilment calls are in operator.schema.ts.
 */
export const DELIVERY_ENDPOINTS = {
  quote: 'delivery/quote',
  request: 'delivery/request',
  list: 'delivery/list',
  change: 'delivery/change',
  ticket: 'delivery/ticket',
} as const;

const prizeIds = z
  .array(idSchema, { error: M.prizeChoice })
  .min(1, M.prizeChoice)
  .max(MAX_PRIZES_PER_DELIVERY, M.prizeChoiceTooMany(MAX_PRIZES_PER_DELIVERY));
export const leadTimesSchema = z.enum(LEAD_TIMES, { error: M.leadTimeInvalid });
/** A client-made id that makes a call idempotent (resending it answers the first result). */
export const clientRequestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, M.requestIdInvalid);
const requestId = clientRequestIdSchema;

export const deliveryQuoteRequestSchema = identitySchema.extend({
  delivery_quote: z.object({ play_history_ids: prizeIds }),
});
export const deliveryRequestSchema = identitySchema.extend({
  delivery_request: z.object({
    /** Client-made id of this request; resending it never charges or moves anything twice [R10-4]. */
    request_id: requestId,
    play_history_ids: prizeIds,
    address_id: idSchema,
    lead_times: leadTimesSchema.default(''),
  }),
});
export const deliveryListRequestSchema = identitySchema;
export const deliveryChangeRequestSchema = identitySchema.extend({
  delivery_change: z
    .object({ delivery_id: idSchema, address_id: idSchema.optional(), lead_times: leadTimesSchema.optional() })
    .refine((c) => c.address_id !== undefined || c.lead_times !== undefined, { error: M.deliveryChangeEmpty }),
});
export const deliveryTicketRequestSchema = identitySchema;

/** What shipping some prizes would cost [R9-1, R5-3]. */
export const deliveryQuoteSchema = z.object({
  base_fee_tc: z.number().int().nonnegative(),
  fee_tc: z.number().int().nonnegative(),
  /** 1 when a free-delivery ticket would be used (held, and normal cranes are among the prizes) [R5-3]. */
  waived: flag01Schema,
  ticket_held: flag01Schema,
  tc_all: z.number().int().nonnegative(),
  /** 1 when the balance covers fee_tc. */
  enough: flag01Schema,
});
export type DeliveryQuote = z.infer<typeof deliveryQuoteSchema>;
export const deliveryQuoteResponseSchema = errorResponseSchema.extend({ quote: deliveryQuoteSchema });

const deliveryAddressSchema = addressRecordSchema.pick({
  first_name: true,
  last_name: true,
  zip: true,
  address1: true,
  address2: true,
  address3: true,
  tel: true,
  email: true,
}) satisfies z.ZodType<DeliveryAddress>;

/** One prize line of a request: the domain's DeliveryDetailPrize plus its id and kind [R3-14]. */
export const deliveryPrizeLineSchema = z.object({
  play_history_id: z.number().int().positive(),
  prize_kind: z.enum(WON_PRIZE_KINDS),
  prize_type: z.enum(PRIZE_TYPES),
  kuji_name: z.string(),
  product_name: z.string(),
  prize_count: z.number().int().positive(),
  add_delivery_days: z.number().int().nonnegative(),
  is_reservation_delivery: flag01Schema,
});

/** A delivery request as its player sees it (history, detail, done). */
export const deliveryViewSchema = z.object({
  delivery_id: z.number().int().positive(),
  delivery_status: z.enum(DELIVERY_STATUSES),
  requested_at: z.string(),
  fee_tc: z.number().int().nonnegative(),
  waived: flag01Schema,
  /** 1 when the storage deadline requested it [R10-5]. */
  auto_requested: flag01Schema,
  lead_times: z.string(),
  address: deliveryAddressSchema,
  /** Tracking number ('' until shipped) and shipping time ('-' until shipped) [R3-15]. */
  prize_contact_number: z.string(),
  prize_shipmented_at: z.string(),
  cancel_reason: z.string(),
  prizeData: z.array(deliveryPrizeLineSchema),
}) satisfies z.ZodType<DeliveryView>;

export const deliveryRequestResponseSchema = errorResponseSchema.extend({
  delivery: deliveryViewSchema,
  tc_info: tcInfoSchema,
  /** 1 when the request was already made under this request_id (nothing new was charged). */
  replayed: flag01Schema,
});
export const deliveryListResponseSchema = errorResponseSchema.extend({ list: z.array(deliveryViewSchema) });
export const deliveryChangeResponseSchema = errorResponseSchema.extend({ delivery: deliveryViewSchema });

/** The free-delivery ticket [R10-6]: held or not, and when the next week's grant comes. */
export const deliveryTicketSchema = z.object({ held: flag01Schema, next_grant_at: z.string() });
export type DeliveryTicket = z.infer<typeof deliveryTicketSchema>;
export const deliveryTicketResponseSchema = errorResponseSchema.extend({ delivery_ticket: deliveryTicketSchema });

// ---- the operator's fulfilment calls ---------------------------------------------------------

export const operatorDeliveriesSchema = z
  .object({
    delivery_status: z.enum(DELIVERY_STATUSES).optional(),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export const operatorDeliveryShipSchema = z
  .object({
    delivery_id: idSchema,
    tracking_number: z.string().regex(/^[A-Za-z0-9-]{4,40}$/, M.trackingNumberInvalid),
  })
  .strict();
export const operatorDeliveryCancelSchema = z
  .object({
    delivery_id: idSchema,
    reason: z
      .string()
      .trim()
      .min(1, M.cancelReasonInvalid)
      .max(200, M.cancelReasonInvalid)
      .refine(isAcceptableText, M.cancelReasonInvalid),
  })
  .strict();
/** Awards a prize to a player outside a play (compensation, campaigns, order-made and digital goods). */
export const operatorPrizeGrantSchema = z
  .object({
    user_id: idSchema,
    prize_kind: z.enum(WON_PRIZE_KINDS),
    prize_type: z.enum(PRIZE_TYPES).default('normal'),
    product_name: z
      .string()
      .trim()
      .min(1, M.productNameInvalid)
      .max(200, M.productNameInvalid)
      .refine(isAcceptableText, M.productNameInvalid),
    kuji_name: z
      .string()
      .trim()
      .max(200, M.productNameInvalid)
      .refine(isAcceptableText, M.productNameInvalid)
      .optional(),
    prize_count: z.number().int().min(1).max(99).default(1),
    add_delivery_days: z.number().int().min(0).max(365).default(0),
    is_reservation_delivery: flag01Schema.default(0),
    digital_url: z
      .string()
      .max(500)
      .regex(/^\/[A-Za-z0-9/_.-]*$/, M.digitalUrlInvalid)
      .optional(),
  })
  .strict();

/** A request on the fulfilment list: the player's view plus who and where (the operator only). */
export const operatorDeliverySchema = deliveryViewSchema.extend({ user_id: z.number().int().positive() });
