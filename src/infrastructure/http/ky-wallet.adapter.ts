import { defer, throwError, type Observable } from 'rxjs';
import type { ProductList, PurchaseResult, SessionPort, WalletPort } from '../../application';
import type { TcInfo, TicketInfo } from '../../domain';
import {
  mobileItemsResponseSchema,
  payMethodListResponseSchema,
  PURCHASE_ENDPOINTS,
  purchaseTcResponseSchema,
  ENDPOINTS,
  settlementResultResponseSchema,
  tcResponseSchema,
  ticketResponseSchema,
  type settlementSchema,
} from '../../contract';
import type { z } from 'zod';
import { NotSignedInError } from './errors';
import type { KyHttpClient } from './ky-http-client';

import type { PayMethodOption, Settlement } from '../../domain';

const toSettlement = (s: z.output<typeof settlementSchema>): Settlement => ({
  productSettlementId: s.product_settlement_id,
  productId: s.product_id,
  payMethod: s.pay_method,
  price: s.price,
  tollTc: s.toll_tc,
  freeTc: s.free_tc,
  status: s.status,
  createdAt: s.created_at,
  completedAt: s.completed_at,
});

/** WalletPort over HTTP (ky). The two GETs name the signed-in user in the path. */
export class KyWallet implements WalletPort {
  constructor(
    private readonly http: KyHttpClient,
    private readonly session: SessionPort,
  ) {}

  balance(): Observable<TcInfo> {
    return this.http.post(
      ENDPOINTS.tc,
      {},
      tcResponseSchema.transform((a): TcInfo => a.data),
      'tc',
      { identity: 'required' },
    );
  }
  tickets(): Observable<TicketInfo> {
    return this.http.post(
      ENDPOINTS.ticket,
      {},
      ticketResponseSchema.transform((a): TicketInfo => a.data),
      'ticket',
      { identity: 'required' },
    );
  }
  payMethods(): Observable<readonly PayMethodOption[]> {
    return this.asUser('pay_method_list', (userId) =>
      this.http.get(
        PURCHASE_ENDPOINTS.payMethodList(userId),
        payMethodListResponseSchema.transform((a): readonly PayMethodOption[] => a.list),
        'pay_method_list',
        { identity: 'required', searchParams: {} },
      ),
    );
  }
  products(payMethod?: string): Observable<ProductList> {
    return this.asUser('mobile_items', (userId) =>
      this.http.get(
        PURCHASE_ENDPOINTS.mobileItems(userId),
        mobileItemsResponseSchema.transform((a): ProductList => ({
          products: a.list.map((p) => ({
            productId: p.product_id,
            productName: p.product_name,
            price: p.price,
            toll_tc: p.toll_tc,
            free_tc: p.free_tc,
            bonusLabel: p.bonus_label,
            isSale: p.is_sale === 1,
          })),
          registeredBirth: a.registered_birth === 1,
          bonusItems: a.bonus_item_list.map((b) => ({
            productId: b.product_id,
            itemName: b.item_name,
            count: b.count,
          })),
          isTcSale: a.is_tc_sale === 1,
          isTicketPresent: a.is_ticket_present === 1,
        })),
        'mobile_items',
        { identity: 'required', searchParams: payMethod === undefined ? {} : { payMethod } },
      ),
    );
  }
  purchase(productId: number, payMethod: string, requestId?: string): Observable<PurchaseResult> {
    return this.http.post(
      PURCHASE_ENDPOINTS.purchaseTc,
      {
        purchase: {
          product_id: productId,
          pay_method: payMethod,
          ...(requestId === undefined ? {} : { request_id: requestId }),
        },
      },
      purchaseTcResponseSchema.transform((a): PurchaseResult => ({ settlement: toSettlement(a.settlement), tc: a.tc })),
      'purchase_tc',
      { identity: 'required' },
    );
  }
  settlement(productSettlementId: string): Observable<Settlement> {
    return this.http.post(
      PURCHASE_ENDPOINTS.settlementResult,
      { product_settlement_id: productSettlementId },
      settlementResultResponseSchema.transform((a) => toSettlement(a.settlement)),
      'settlement_result',
      { identity: 'required' },
    );
  }

  private asUser<T>(context: string, call: (userId: number) => Observable<T>): Observable<T> {
    return defer(() => {
      const identity = this.session.current();
      return identity ? call(identity.user_id) : throwError(() => new NotSignedInError(context));
    });
  }
}
