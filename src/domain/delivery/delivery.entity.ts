import type { Flag } from '../catalogue/prize.entity';
import type { AddressRecord } from '../address/address.entity';
/**
 * Delivery statuses. The spec only says they fall into before, after and invalid lists (§4.5);
 * these values are ours, one per step a Japanese shop's parcel goes through. A won prize's list
 * follows its latest request: "before" is a prize nobody has asked to ship yet (see
 * PRIZE_STATE_GROUP), "after" one that is on its way, "invalid" one that will not come.
 *
 * | status      | meaning                                                  | group   |
 * |-------------|----------------------------------------------------------|---------|
 * | requested   | the player asked for delivery (fee taken)                | after   |
 * | preparing   | the warehouse is packing it                              | after   |
 * | shipped     | handed to the carrier (tracking number)                  | after   |
 * | delivered   | the carrier reports it delivered                         | after   |
 * | cancelled   | withdrawn by the operator (fee refunded)                 | invalid |
 * | returned    | came back undelivered (wrong address, …)                 | invalid |
 */
export const DELIVERY_STATUSES = ['requested', 'preparing', 'shipped', 'delivered', 'cancelled', 'returned'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The three lists delivery history is shown in [R4.5-1]. */
export type DeliveryGroup = 'before' | 'after' | 'invalid';

export const DELIVERY_STATUS_GROUP: Readonly<Record<DeliveryStatus, DeliveryGroup>> = {
  requested: 'after',
  preparing: 'after',
  shipped: 'after',
  delivered: 'after',
  cancelled: 'invalid',
  returned: 'invalid',
};

/** A delivery list item (spec §3): carries delivery_status [R3-13]. */
export interface DeliveryListItem {
  readonly play_history_id: number;
  readonly product_name: string;
  readonly delivery_status: DeliveryStatus;
}

/** One prize line of a delivery detail (spec §3) [R3-14]. */
export interface DeliveryDetailPrize {
  /** The kuji the prize came from; '' for crane and order-made prizes. */
  readonly kuji_name: string;
  readonly product_name: string;
  readonly prize_count: number;
  /** Extra days before shipping (made-to-order or pre-order goods). */
  readonly add_delivery_days: number;
  /** 1 when the prize is a pre-order shipped on its release. */
  readonly is_reservation_delivery: 0 | 1;
}

/** Delivery detail: prizeData as the service sends it, before grouping [R3-14]. */
export interface DeliveryDetail {
  readonly prizeData: readonly DeliveryDetailPrize[];
}

/** An unsent prize as the service sends it; either field may be absent. */
export interface UnsentPrizeWire {
  readonly prize_contact_number?: string | null;
  readonly prize_shipmented_at?: string | null;
}

/** An unsent prize (spec §3) with its defaults applied [R3-15]. */
export interface UnsentPrize {
  readonly prize_contact_number: string;
  readonly prize_shipmented_at: string;
}

/** What a delivery charge is computed from (kind of prize and how many) [R9-1]. */
export type DeliveryPrizeKind = 'crane' | 'orderMade' | 'kuji';
export interface DeliveryLine {
  readonly kind: DeliveryPrizeKind;
  readonly count: number;
}

/**
 * A won prize's state: not requested yet (the before list), its latest request's status, or
 * expired (its storage period ended with neither a ticket nor enough TC to ship it) [R4.5-1, R10-5].
 */
export const PRIZE_DELIVERY_STATUSES = ['not_requested', ...DELIVERY_STATUSES, 'expired'] as const;
export type PrizeDeliveryStatus = (typeof PRIZE_DELIVERY_STATUSES)[number];

/** The lists of the prize box [R4.5-1]: every prize state in exactly one. */
export const PRIZE_STATE_GROUP: Readonly<Record<PrizeDeliveryStatus, DeliveryGroup>> = {
  ...DELIVERY_STATUS_GROUP,
  not_requested: 'before',
  expired: 'invalid',
};

/**
 * How a prize reaches the player: normal (our warehouse ships it on request), digital (viewed in
 * the app, nothing ships) or direct (the maker ships it on request, with its own lead time).
 */
export const PRIZE_TYPES = ['normal', 'digital', 'direct'] as const;
export type PrizeType = (typeof PRIZE_TYPES)[number];

/** One prize the player has won (one win = one play_history_id). */
export interface WonPrize {
  readonly play_history_id: number;
  readonly station_id: number | null;
  readonly prize_kind: 'crane' | 'kuji' | 'order_made' | 'virtual';
  readonly product_name: string;
  /** The kuji the prize came from; '' for other prizes (the domain's DeliveryDetailPrize) [R3-14]. */
  readonly kuji_name: string;
  readonly prize_count: number;
  readonly add_delivery_days: number;
  readonly is_reservation_delivery: Flag;
  readonly won_at: string;
  readonly delivery_status: PrizeDeliveryStatus;
  readonly prize_type: PrizeType;
  /** The prize's picture ('' when none). */
  readonly img_url: string;
  /** Where a digital prize is viewed ('' for others). */
  readonly digital_url: string;
  /** The end of the storage period (ISO time), or null for a digital prize [R10-5]. */
  readonly keep_until: string | null;
  /** The latest delivery request of the prize, or null. */
  readonly delivery_id: number | null;
  /** The request's tracking number once shipped, '' before [R3-15]. */
  readonly prize_contact_number: string;
}

/** Where a prize ships to. */
export type DeliveryAddress = Pick<
  AddressRecord,
  'first_name' | 'last_name' | 'zip' | 'address1' | 'address2' | 'address3' | 'tel' | 'email'
>;

/** The delivery of one won prize (get_delivery_address.data). */
export interface PrizeDelivery {
  readonly play_history_id: number;
  readonly delivery_status: PrizeDeliveryStatus;
  /** The request's copy once delivery was requested, else the main address; null with no address. */
  readonly address: DeliveryAddress | null;
  readonly prize: WonPrize;
  /** Tracking number and shipping date; prize_shipmented_at is '-' until shipped [R3-15]. */
  readonly unsent: UnsentPrize;
}

/** One prize of a delivery request: the detail line [R3-14] with its id and kind. */
export interface DeliveryPrizeLine extends DeliveryDetailPrize {
  readonly play_history_id: number;
  readonly prize_kind: WonPrize['prize_kind'];
  readonly prize_type: PrizeType;
}

/** A delivery request as its player sees it (history, detail, done). */
export interface DeliveryView {
  readonly delivery_id: number;
  readonly delivery_status: DeliveryStatus;
  readonly requested_at: string;
  readonly fee_tc: number;
  /** 1 when the free-delivery ticket paid for it [R5-3]. */
  readonly waived: Flag;
  /** 1 when the storage deadline requested it [R10-5]. */
  readonly auto_requested: Flag;
  /** The preferred time slot ('' for any). */
  readonly lead_times: string;
  readonly address: DeliveryAddress;
  /** Tracking number ('' until shipped) [R3-15]. */
  readonly prize_contact_number: string;
  /** Shipping time, '-' until shipped [R3-15]. */
  readonly prize_shipmented_at: string;
  /** Why the operator cancelled it ('' otherwise). */
  readonly cancel_reason: string;
  readonly prizeData: readonly DeliveryPrizeLine[];
}
