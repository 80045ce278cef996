import type { Observable } from 'rxjs';
import type { DeliveryCharge, DeliveryView, PrizeDelivery, WonPrize } from '../../domain';

/** What shipping some prizes costs now [R9-1, R5-3], with the balance it is paid from. */
export interface DeliveryQuote extends DeliveryCharge {
  /** The free-delivery ticket is held (waived tells whether this request would use it). */
  readonly ticketHeld: boolean;
  readonly tcAll: number;
  /** The balance covers the fee. */
  readonly enough: boolean;
}

/** A delivery request as the player sends it. */
export interface DeliveryOrder {
  /** Made once per attempt: resending it never charges or moves anything twice [R10-4]. */
  readonly requestId: string;
  readonly playHistoryIds: readonly number[];
  readonly addressId: number;
  readonly leadTimes: string;
}

/** The free-delivery ticket [R10-6]. */
export interface DeliveryTicketInfo {
  readonly held: boolean;
  /** When the next week's ticket comes (Monday 00:00 JST), ISO time. */
  readonly nextGrantAt: string;
}

/**
 * The player's won prizes and their delivery. Every call needs a signed-in session; each returns a
 * cold observable that emits once and completes (unsubscribing cancels the request). Another
 * player's prize, address or request is refused as not found (error_code 404); too little TC for a
 * request is error_code 402.
 */
export interface PrizeDeliveryPort {
  /** Every won prize, newest first. */
  wonPrizes(): Observable<readonly WonPrize[]>;
  /** The delivery of one won prize. */
  delivery(playHistoryId: number): Observable<PrizeDelivery>;
  quote(playHistoryIds: readonly number[]): Observable<DeliveryQuote>;
  /** Requests delivery; emits the request and the balance after its fee. */
  request(order: DeliveryOrder): Observable<{ readonly delivery: DeliveryView; readonly tcAll: number }>;
  /** The player's requests, newest first. */
  deliveries(): Observable<readonly DeliveryView[]>;
  /** Changes the address or the time slot of a request not yet shipped. */
  change(
    deliveryId: number,
    change: { readonly addressId?: number; readonly leadTimes?: string },
  ): Observable<DeliveryView>;
  ticket(): Observable<DeliveryTicketInfo>;
}
