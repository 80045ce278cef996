import type { Flag } from '../catalogue/prize.entity';
import type { AddressRecord } from '../address/address.entity';
/**
 * Delivery statuses. The spec only says they fall into before, after and invalid lists (§4.5);
 * these values are ours, one per step a Japanese shop's parcel goes through:
 *
 * | status      | meaning                                   | group   |
 * |-------------|-------------------------------------------|---------|
 * | requested   | the player asked for delivery             | before  |
 * | preparing   | the warehouse is packing it               | before  |
 * | shipped     | handed to the carrier (tracking number)   | after   |
 * | delivered   | the carrier reports it delivered          | after   |
 * | cancelled   | withdrawn before shipping                 | invalid |
 * | returned    | came back undelivered (wrong address, …)  | invalid |
 */
export const DELIVERY_STATUSES = ['requested', 'preparing', 'shipped', 'delivered', 'cancelled', 'returned'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The three lists delivery history is shown in [R4.5-1]. */
export type DeliveryGroup = 'before' | 'after' | 'invalid';

export const DELIVERY_STATUS_GROUP: Readonly<Record<DeliveryStatus, DeliveryGroup>> = {
  requested: 'before',
  preparing: 'before',
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

/** A won prize's delivery state: the domain's statuses [R3-13, R4.5-1] or not requested yet. */
export type PrizeDeliveryStatus = DeliveryStatus | 'not_requested';

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
