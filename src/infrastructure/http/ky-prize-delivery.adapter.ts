import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { PrizeDeliveryPort } from '../../application';
import { unsentPrize } from '../../domain';
import { ENDPOINTS, getDeliveryResponseSchema, itemInfoResponseSchema, type wonPrizeSchema } from '../../contract';
import type { KyHttpClient } from './ky-http-client';

import type { PrizeDelivery, WonPrize } from '../../domain';

/** A won prize on the wire → the port's: a missing kuji_name is '' (the domain's DeliveryDetailPrize) [R3-14]. */
const toWonPrize = (p: z.output<typeof wonPrizeSchema>): WonPrize => ({ ...p, kuji_name: p.kuji_name ?? '' });

/** PrizeDeliveryPort over HTTP (ky). */
export class KyPrizeDelivery implements PrizeDeliveryPort {
  constructor(private readonly http: KyHttpClient) {}

  wonPrizes(): Observable<readonly WonPrize[]> {
    return this.http.post(
      ENDPOINTS.item,
      {},
      itemInfoResponseSchema.transform((a): readonly WonPrize[] => a.item_info.list.map(toWonPrize)),
      'item',
      { identity: 'required' },
    );
  }
  delivery(playHistoryId: number): Observable<PrizeDelivery> {
    return this.http.post(
      ENDPOINTS.getDelivery,
      { get_delivery: { play_history_id: playHistoryId } },
      getDeliveryResponseSchema.transform(({ get_delivery_address: { data } }): PrizeDelivery => ({
        play_history_id: data.play_history_id,
        delivery_status: data.delivery_status,
        address: data.address ? { ...data.address, email: data.address.email ?? '' } : null,
        prize: toWonPrize(data.prize),
        // [R3-15] the shipping date shows '-' until the prize is shipped.
        unsent: unsentPrize({
          prize_contact_number: data.prize_contact_number,
          prize_shipmented_at: data.prize_shipmented_at,
        }),
      })),
      'get_delivery',
      { identity: 'required' },
    );
  }
}
