import type { Observable } from 'rxjs';
import type { AddressRecord, DeliveryStatus, Flag, UnsentPrize } from '../../domain';

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
export type DeliveryAddress = Pick<AddressRecord, 'first_name' | 'last_name' | 'zip' | 'address1' | 'address2' | 'address3' | 'tel' | 'email'>;

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

/**
 * The player's won prizes and their delivery. Every call needs a signed-in session; each returns a
 * cold observable that emits once and completes (unsubscribing cancels the request). Another
 * player's prize is refused as not found (error_code 404).
 */
export interface PrizeDeliveryPort {
  /** Every won prize, newest first. */
  wonPrizes(): Observable<readonly WonPrize[]>;
  /** The delivery of one won prize. */
  delivery(playHistoryId: number): Observable<PrizeDelivery>;
}
