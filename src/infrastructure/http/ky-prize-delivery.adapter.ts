import { mapped } from '../../contract/schema-helpers';
import type { Observable } from 'rxjs';
import { type z } from 'zod/mini';
import type { DeliveryOrder, DeliveryQuote, DeliveryTicketInfo, PrizeDeliveryPort } from '../../application';
import { unsentPrize, type DeliveryView, type PrizeDelivery, type WonPrize } from '../../domain';
import {
  DELIVERY_ENDPOINTS as D,
  deliveryChangeResponseSchema,
  deliveryListResponseSchema,
  deliveryQuoteResponseSchema,
  deliveryRequestResponseSchema,
  deliveryTicketResponseSchema,
  ENDPOINTS,
  getDeliveryResponseSchema,
  itemInfoResponseSchema,
  type wonPrizeSchema,
} from '../../contract';
import type { KyHttpClient } from './ky-http-client';

/** A won prize on the wire → the port's: a missing kuji_name is '' (the domain's DeliveryDetailPrize) [R3-14]. */
const toWonPrize = (p: z.output<typeof wonPrizeSchema>): WonPrize => ({ ...p, kuji_name: p.kuji_name ?? '' });

/** PrizeDeliveryPort over HTTP (ky). */
export class KyPrizeDelivery implements PrizeDeliveryPort {
  constructor(private readonly http: KyHttpClient) {}

  wonPrizes(): Observable<readonly WonPrize[]> {
    return this.http.post(
      ENDPOINTS.item,
      {},
      mapped(itemInfoResponseSchema, (a): readonly WonPrize[] => a.item_info.list.map(toWonPrize)),
      'item',
      { identity: 'required' },
    );
  }
  delivery(playHistoryId: number): Observable<PrizeDelivery> {
    return this.http.post(
      ENDPOINTS.getDelivery,
      { get_delivery: { play_history_id: playHistoryId } },
      mapped(getDeliveryResponseSchema, ({ get_delivery_address: { data } }): PrizeDelivery => ({
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

  quote(playHistoryIds: readonly number[]): Observable<DeliveryQuote> {
    return this.http.post(
      D.quote,
      { delivery_quote: { play_history_ids: [...playHistoryIds] } },
      mapped(deliveryQuoteResponseSchema, ({ quote: q }): DeliveryQuote => ({
        baseFeeTc: q.base_fee_tc,
        feeTc: q.fee_tc,
        waived: q.waived === 1,
        ticketHeld: q.ticket_held === 1,
        tcAll: q.tc_all,
        enough: q.enough === 1,
      })),
      'delivery_quote',
      { identity: 'required' },
    );
  }

  request(order: DeliveryOrder): Observable<{ readonly delivery: DeliveryView; readonly tcAll: number }> {
    return this.http.post(
      D.request,
      {
        delivery_request: {
          request_id: order.requestId,
          play_history_ids: [...order.playHistoryIds],
          address_id: order.addressId,
          lead_times: order.leadTimes,
        },
      },
      mapped(deliveryRequestResponseSchema, (a) => ({ delivery: a.delivery, tcAll: a.tc_info.tc_all })),
      'delivery_request',
      { identity: 'required' },
    );
  }

  deliveries(): Observable<readonly DeliveryView[]> {
    return this.http.post(
      D.list,
      {},
      mapped(deliveryListResponseSchema, (a): readonly DeliveryView[] => a.list),
      'delivery_list',
      { identity: 'required' },
    );
  }

  change(deliveryId: number, change: { readonly addressId?: number; readonly leadTimes?: string }) {
    return this.http.post(
      D.change,
      {
        delivery_change: {
          delivery_id: deliveryId,
          ...(change.addressId !== undefined ? { address_id: change.addressId } : {}),
          ...(change.leadTimes !== undefined ? { lead_times: change.leadTimes } : {}),
        },
      },
      mapped(deliveryChangeResponseSchema, (a): DeliveryView => a.delivery),
      'delivery_change',
      { identity: 'required' },
    );
  }

  ticket(): Observable<DeliveryTicketInfo> {
    return this.http.post(
      D.ticket,
      {},
      mapped(deliveryTicketResponseSchema, ({ delivery_ticket: t }): DeliveryTicketInfo => ({
        held: t.held === 1,
        nextGrantAt: t.next_grant_at,
      })),
      'delivery_ticket',
      { identity: 'required' },
    );
  }
}
