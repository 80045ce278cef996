import { defer, throwError, type Observable } from 'rxjs';
import type { ProductList, PurchaseResult, SessionPort, WalletPort } from '../../application';
import type { TcInfo, TicketInfo } from '../../domain';
import {
  mobileItemsQuerySchema, mobileItemsResponseSchema, payMethodListResponseSchema, PURCHASE_ENDPOINTS, purchaseTcRequestSchema,
  purchaseTcResponseSchema, ENDPOINTS, settlementResultRequestSchema, settlementResultResponseSchema, tcRequestSchema, tcResponseSchema,
  ticketRequestSchema, ticketResponseSchema, type settlementSchema,
} from '../../contract';
import type { z } from 'zod';
import { NotSignedInError } from './errors';
import type { KyHttpClient } from './ky-http-client';
import { authedGet, authedPost, sendCall } from './service-call';
import type { PayMethodOption, Settlement } from '../../domain';

const toSettlement = (s: z.output<typeof settlementSchema>): Settlement => ({
  productSettlementId: s.product_settlement_id, productId: s.product_id, payMethod: s.pay_method, price: s.price,
  tollTc: s.toll_tc, freeTc: s.free_tc, status: s.status, createdAt: s.created_at, completedAt: s.completed_at,
});

/** The pay-method list GET has no query; anything is accepted (the server reads only the path). */
const noQuery = mobileItemsQuerySchema.pick({});

/**
 * The wallet calls, each described once: §7's /user/tc, /user/ticket, GET /purchase/pay_method_list
 * and GET /mobile/items, plus the designed TC purchase and settlement result. KyWallet sends
 * them.
 */
export const walletCalls = {
  balance: () => authedPost(ENDPOINTS.tc, 'tc', {}, tcRequestSchema, tcResponseSchema.transform((a): TcInfo => a.data)),
  tickets: () => authedPost(ENDPOINTS.ticket, 'ticket', {}, ticketRequestSchema, ticketResponseSchema.transform((a): TicketInfo => a.data)),
  payMethods: (userId: number) => authedGet(PURCHASE_ENDPOINTS.payMethodList(userId), 'pay_method_list', userId, {}, noQuery,
    payMethodListResponseSchema.transform((a): readonly PayMethodOption[] => a.list)),
  products: (userId: number, payMethod?: string) => authedGet(PURCHASE_ENDPOINTS.mobileItems(userId), 'mobile_items', userId,
    payMethod === undefined ? {} : { payMethod }, mobileItemsQuerySchema,
    mobileItemsResponseSchema.transform((a): ProductList => ({
      products: a.list.map((p) => ({
        productId: p.product_id, productName: p.product_name, price: p.price, toll_tc: p.toll_tc, free_tc: p.free_tc,
        bonusLabel: p.bonus_label, isSale: p.is_sale === 1,
      })),
      registeredBirth: a.registered_birth === 1,
      bonusItems: a.bonus_item_list.map((b) => ({ productId: b.product_id, itemName: b.item_name, count: b.count })),
      isTcSale: a.is_tc_sale === 1,
      isTicketPresent: a.is_ticket_present === 1,
    }))),
  purchase: (productId: number, payMethod: string, requestId?: string) => authedPost(PURCHASE_ENDPOINTS.purchaseTc, 'purchase_tc',
    { purchase: { product_id: productId, pay_method: payMethod, ...(requestId === undefined ? {} : { request_id: requestId }) } },
    purchaseTcRequestSchema,
    purchaseTcResponseSchema.transform((a): PurchaseResult => ({ settlement: toSettlement(a.settlement), tc: a.tc }))),
  settlement: (productSettlementId: string) => authedPost(PURCHASE_ENDPOINTS.settlementResult, 'settlement_result',
    { product_settlement_id: productSettlementId }, settlementResultRequestSchema,
    settlementResultResponseSchema.transform((a) => toSettlement(a.settlement))),
};

/** WalletPort over HTTP (ky). The two GETs name the signed-in user in the path. */
export class KyWallet implements WalletPort {
  constructor(private readonly http: KyHttpClient, private readonly session: SessionPort) {}

  balance(): Observable<TcInfo> { return sendCall(this.http, walletCalls.balance()); }
  tickets(): Observable<TicketInfo> { return sendCall(this.http, walletCalls.tickets()); }
  payMethods(): Observable<readonly PayMethodOption[]> {
    return this.asUser('pay_method_list', (userId) => sendCall(this.http, walletCalls.payMethods(userId)));
  }
  products(payMethod?: string): Observable<ProductList> {
    return this.asUser('mobile_items', (userId) => sendCall(this.http, walletCalls.products(userId, payMethod)));
  }
  purchase(productId: number, payMethod: string, requestId?: string): Observable<PurchaseResult> {
    return sendCall(this.http, walletCalls.purchase(productId, payMethod, requestId));
  }
  settlement(productSettlementId: string): Observable<Settlement> { return sendCall(this.http, walletCalls.settlement(productSettlementId)); }

  private asUser<T>(context: string, call: (userId: number) => Observable<T>): Observable<T> {
    return defer(() => {
      const identity = this.session.current();
      return identity ? call(identity.user_id) : throwError(() => new NotSignedInError(context));
    });
  }
}
