import { mapped } from '../../contract/schema-helpers';
import { defer, throwError, type Observable } from 'rxjs';
import type {
  ProductList,
  PurchaseResult,
  SessionPort,
  SettlementReport,
  TcHistoryPage,
  WalletPort,
} from '../../application';
import type { TcInfo, TicketInfo } from '../../domain';
import {
  mobileItemsResponseSchema,
  payMethodListResponseSchema,
  PURCHASE_ENDPOINTS,
  purchaseTcResponseSchema,
  ENDPOINTS,
  settlementReportResponseSchema,
  settlementResultResponseSchema,
  spendingLimitResponseSchema,
  tcHistoryResponseSchema,
  tcResponseSchema,
  ticketResponseSchema,
  type settlementSchema,
  type spendingLimitSchema,
} from '../../contract';
import { type z } from 'zod/mini';
import { NotSignedInError } from './errors';
import type { KyHttpClient } from './ky-http-client';

import type { PayMethodOption, Settlement, SpendingLimitInfo } from '../../domain';

const toSettlement = (s: z.output<typeof settlementSchema>): Settlement => ({
  productSettlementId: s.product_settlement_id,
  productId: s.product_id,
  payMethod: s.pay_method,
  price: s.price,
  tollTc: s.toll_tc,
  freeTc: s.free_tc,
  bonusTicket: s.bonus_ticket,
  status: s.status,
  createdAt: s.created_at,
  completedAt: s.completed_at,
  expiresAt: s.expires_at,
  paymentUrl: s.payment_url,
  failureInfo: s.failure_info,
});

const toLimit = (l: z.output<typeof spendingLimitSchema>): SpendingLimitInfo => ({
  limitYen: l.limit_yen,
  pending: l.pending ? { limitYen: l.pending.limit_yen, effectiveAt: l.pending.effective_at } : null,
  minorLimitYen: l.minor_limit_yen,
  capYen: l.cap_yen,
  spentYen: l.spent_yen,
  remainingYen: l.remaining_yen,
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
      mapped(tcResponseSchema, (a): TcInfo => a.data),
      'tc',
      { identity: 'required' },
    );
  }
  tickets(): Observable<TicketInfo> {
    return this.http.post(
      ENDPOINTS.ticket,
      {},
      mapped(ticketResponseSchema, (a): TicketInfo => a.data),
      'ticket',
      { identity: 'required' },
    );
  }
  payMethods(): Observable<readonly PayMethodOption[]> {
    return this.asUser('pay_method_list', (userId) =>
      this.http.get(
        PURCHASE_ENDPOINTS.payMethodList(userId),
        mapped(payMethodListResponseSchema, (a): readonly PayMethodOption[] => a.list),
        'pay_method_list',
        { identity: 'required', searchParams: {} },
      ),
    );
  }
  products(payMethod?: string): Observable<ProductList> {
    return this.asUser('mobile_items', (userId) =>
      this.http.get(
        PURCHASE_ENDPOINTS.mobileItems(userId),
        mapped(mobileItemsResponseSchema, (a): ProductList => ({
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
      mapped(purchaseTcResponseSchema, (a): PurchaseResult => ({ settlement: toSettlement(a.settlement), tc: a.tc })),
      'purchase_tc',
      { identity: 'required' },
    );
  }
  settlement(productSettlementId: string): Observable<Settlement> {
    return this.http.post(
      PURCHASE_ENDPOINTS.settlementResult,
      { product_settlement_id: productSettlementId },
      mapped(settlementResultResponseSchema, (a) => toSettlement(a.settlement)),
      'settlement_result',
      { identity: 'required' },
    );
  }

  settlementReport(productSettlementId: string): Observable<SettlementReport> {
    return this.http.post(
      PURCHASE_ENDPOINTS.settlementReport,
      { product_settlement_id: productSettlementId },
      mapped(settlementReportResponseSchema, (a): SettlementReport => ({
        buyTc: a.buy_tc,
        conversion: a.conversion,
      })),
      'settlement_report',
      { identity: 'required' },
    );
  }
  spendingLimit(): Observable<SpendingLimitInfo> {
    return this.http.post(
      PURCHASE_ENDPOINTS.spendingLimit,
      {},
      mapped(spendingLimitResponseSchema, (a) => toLimit(a.spending_limit)),
      'spending_limit',
      { identity: 'required' },
    );
  }
  setSpendingLimit(limitYen: number | null): Observable<SpendingLimitInfo> {
    return this.http.post(
      PURCHASE_ENDPOINTS.setSpendingLimit,
      { spending_limit: { limit_yen: limitYen } },
      mapped(spendingLimitResponseSchema, (a) => toLimit(a.spending_limit)),
      'spending_limit_set',
      { identity: 'required' },
    );
  }
  tcHistory(page: number): Observable<TcHistoryPage> {
    return this.http.post(
      PURCHASE_ENDPOINTS.tcHistory,
      { page },
      mapped(tcHistoryResponseSchema, (a): TcHistoryPage => ({
        entries: a.history.list.map((e) => ({
          id: e.id,
          reason: e.reason,
          reference: e.reference,
          freeDelta: e.free_delta,
          tollDelta: e.toll_delta,
          balanceAfter: e.balance_after,
          createdAt: e.created_at,
          ...(e.free_expires_at !== undefined ? { freeExpiresAt: e.free_expires_at } : {}),
        })),
        freeLots: (a.free_lots ?? []).map((l) => ({
          lotId: l.lot_id,
          amount: l.amount,
          remaining: l.remaining,
          expiresAt: l.expires_at,
          reason: l.reason,
          createdAt: l.created_at,
        })),
        page: a.history.page,
        hasMore: a.history.has_more === 1,
      })),
      'tc_history',
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
