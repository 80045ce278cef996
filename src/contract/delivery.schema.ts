import { z } from 'zod/mini';
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
  .check(z.minLength(1, M.prizeChoice))
  .check(z.maxLength(MAX_PRIZES_PER_DELIVERY, M.prizeChoiceTooMany(MAX_PRIZES_PER_DELIVERY)));
export const leadTimesSchema = z.enum(LEAD_TIMES, { error: M.leadTimeInvalid });
/** A client-made id that makes a call idempotent (resending it answers the first result). */
export const clientRequestIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, M.requestIdInvalid));
const requestId = clientRequestIdSchema;

export const deliveryQuoteRequestSchema = z.extend(identitySchema, {
  delivery_quote: z.object({ play_history_ids: prizeIds }),
});
export const deliveryRequestSchema = z.extend(identitySchema, {
  delivery_request: z.object({
    /** Client-made id of this request; resending it never charges or moves anything twice [R10-4]. */
    request_id: requestId,
    play_history_ids: prizeIds,
    address_id: idSchema,
    lead_times: z._default(leadTimesSchema, ''),
  }),
});
export const deliveryListRequestSchema = identitySchema;
export const deliveryChangeRequestSchema = z.extend(identitySchema, {
  delivery_change: z
    .object({ delivery_id: idSchema, address_id: z.optional(idSchema), lead_times: z.optional(leadTimesSchema) })
    .check(z.refine((c) => c.address_id !== undefined || c.lead_times !== undefined, { error: M.deliveryChangeEmpty })),
});
export const deliveryTicketRequestSchema = identitySchema;

/** What shipping some prizes would cost [R9-1, R5-3]. */
export const deliveryQuoteSchema = z.object({
  base_fee_tc: z.int().check(z.nonnegative()),
  fee_tc: z.int().check(z.nonnegative()),
  /** 1 when a free-delivery ticket would be used (held, and normal cranes are among the prizes) [R5-3]. */
  waived: flag01Schema,
  ticket_held: flag01Schema,
  tc_all: z.int().check(z.nonnegative()),
  /** 1 when the balance covers fee_tc. */
  enough: flag01Schema,
});
export type DeliveryQuote = z.infer<typeof deliveryQuoteSchema>;
export const deliveryQuoteResponseSchema = z.extend(errorResponseSchema, { quote: deliveryQuoteSchema });

const deliveryAddressSchema = z.pick(addressRecordSchema, {
  first_name: true,
  last_name: true,
  zip: true,
  address1: true,
  address2: true,
  address3: true,
  tel: true,
  email: true,
}) satisfies z.ZodMiniType<DeliveryAddress>;

/** One prize line of a request: the domain's DeliveryDetailPrize plus its id and kind [R3-14]. */
export const deliveryPrizeLineSchema = z.object({
  play_history_id: z.int().check(z.positive()),
  prize_kind: z.enum(WON_PRIZE_KINDS),
  prize_type: z.enum(PRIZE_TYPES),
  kuji_name: z.string(),
  product_name: z.string(),
  prize_count: z.int().check(z.positive()),
  add_delivery_days: z.int().check(z.nonnegative()),
  is_reservation_delivery: flag01Schema,
});

/** A delivery request as its player sees it (history, detail, done). */
export const deliveryViewSchema = z.object({
  delivery_id: z.int().check(z.positive()),
  delivery_status: z.enum(DELIVERY_STATUSES),
  requested_at: z.string(),
  fee_tc: z.int().check(z.nonnegative()),
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
}) satisfies z.ZodMiniType<DeliveryView>;

export const deliveryRequestResponseSchema = z.extend(errorResponseSchema, {
  delivery: deliveryViewSchema,
  tc_info: tcInfoSchema,
  /** 1 when the request was already made under this request_id (nothing new was charged). */
  replayed: flag01Schema,
});
export const deliveryListResponseSchema = z.extend(errorResponseSchema, { list: z.array(deliveryViewSchema) });
export const deliveryChangeResponseSchema = z.extend(errorResponseSchema, { delivery: deliveryViewSchema });

/** The free-delivery ticket [R10-6]: held or not, and when the next week's grant comes. */
export const deliveryTicketSchema = z.object({ held: flag01Schema, next_grant_at: z.string() });
export type DeliveryTicket = z.infer<typeof deliveryTicketSchema>;
export const deliveryTicketResponseSchema = z.extend(errorResponseSchema, { delivery_ticket: deliveryTicketSchema });

// ---- the operator's fulfilment calls ---------------------------------------------------------

export const operatorDeliveriesSchema = z.strictObject({
  delivery_status: z.optional(z.enum(DELIVERY_STATUSES)),
  limit: z._default(z.int().check(z.gte(1)).check(z.lte(500)), 100),
});
export const operatorDeliveryShipSchema = z.strictObject({
  delivery_id: idSchema,
  tracking_number: z.string().check(z.regex(/^[A-Za-z0-9-]{4,40}$/, M.trackingNumberInvalid)),
});
export const operatorDeliveryCancelSchema = z.strictObject({
  delivery_id: idSchema,
  reason: z
    .string()
    .check(z.trim())
    .check(z.minLength(1, M.cancelReasonInvalid))
    .check(z.maxLength(200, M.cancelReasonInvalid))
    .check(z.refine(isAcceptableText, M.cancelReasonInvalid)),
});
/** Awards a prize to a player outside a play (compensation, campaigns, order-made and digital goods). */
export const operatorPrizeGrantSchema = z.strictObject({
  user_id: idSchema,
  prize_kind: z.enum(WON_PRIZE_KINDS),
  prize_type: z._default(z.enum(PRIZE_TYPES), 'normal'),
  product_name: z
    .string()
    .check(z.trim())
    .check(z.minLength(1, M.productNameInvalid))
    .check(z.maxLength(200, M.productNameInvalid))
    .check(z.refine(isAcceptableText, M.productNameInvalid)),
  kuji_name: z.optional(
    z
      .string()
      .check(z.trim())
      .check(z.maxLength(200, M.productNameInvalid))
      .check(z.refine(isAcceptableText, M.productNameInvalid)),
  ),
  prize_count: z._default(z.int().check(z.gte(1)).check(z.lte(99)), 1),
  add_delivery_days: z._default(z.int().check(z.gte(0)).check(z.lte(365)), 0),
  is_reservation_delivery: z._default(flag01Schema, 0),
  digital_url: z.optional(
    z
      .string()
      .check(z.maxLength(500))
      .check(z.regex(/^\/[A-Za-z0-9/_.-]*$/, M.digitalUrlInvalid)),
  ),
});

/** A request on the fulfilment list: the player's view plus who and where (the operator only). */
export const operatorDeliverySchema = z.extend(deliveryViewSchema, { user_id: z.int().check(z.positive()) });
