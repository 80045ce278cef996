import type { Observable } from 'rxjs';
import type { PrizeDelivery, WonPrize } from '../../domain';

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
