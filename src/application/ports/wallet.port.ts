import type { Observable } from 'rxjs';
import type {
  PayMethodOption,
  Settlement,
  SpendingLimitInfo,
  TcHistoryEntry,
  FreeTcLot,
  TcInfo,
  TcProduct,
  TicketInfo,
} from '../../domain';

/** The purchase modal's product list and what it needs besides. */
export interface ProductList {
  readonly products: readonly TcProduct[];
  /** Whether the player has registered a birth date (else the age step comes first, R2.5-5). */
  readonly registeredBirth: boolean;
  readonly bonusItems: readonly { readonly productId: number; readonly itemName: string; readonly count: number }[];
  readonly isTcSale: boolean;
  readonly isTicketPresent: boolean;
}

export interface PurchaseResult {
  readonly settlement: Settlement;
  /** The balance after the purchase [R1-2]. */
  readonly tc: TcInfo;
}

/**
 * The player's TC and tickets, and buying TC. Every call needs a signed-in session; each returns a
 * cold observable that emits once and completes (unsubscribing cancels the request). Refusals arrive
 * as errors carrying the service's error_code and Japanese error_info.
 */
export interface WalletPort {
  /** TC balance [R1-2]: tc_all = tc_free + tc_toll. */
  balance(): Observable<TcInfo>;
  /** Tickets, counted apart from TC [R1-2]. */
  tickets(): Observable<TicketInfo>;
  /** The service's pay methods for this build target, in its order [R3-12, R9-6]. */
  payMethods(): Observable<readonly PayMethodOption[]>;
  /** The products offered with `payMethod` (all products when omitted). */
  products(payMethod?: string): Observable<ProductList>;
  /**
   * Buys a product. `requestId` (8–64 of A-Z a-z 0-9 _ -) makes a resend safe: the same id never
   * buys twice and answers the first purchase.
   */
  purchase(productId: number, payMethod: string, requestId?: string): Observable<PurchaseResult>;
  /** One of the player's purchases (the purchase modal's check, the account-based payment's result page). */
  settlement(productSettlementId: string): Observable<Settlement>;
  /**
   * The analytics of a completed purchase, handed out once per settlement by the service: buy_tc's
   * price (null: already reported, or not completed) and whether it is the first purchase (conversion).
   */
  settlementReport(productSettlementId: string): Observable<SettlementReport>;
  /** The player's own monthly spending limit and this month's caps [R10-3]. */
  spendingLimit(): Observable<SpendingLimitInfo>;
  /** Sets it (null: none); lowering is at once, raising waits 24 hours. */
  setSpendingLimit(limitYen: number | null): Observable<SpendingLimitInfo>;
  /** The TC used history, newest first. */
  tcHistory(page: number): Observable<TcHistoryPage>;
}

export interface SettlementReport {
  readonly buyTc: { readonly price: number } | null;
  readonly conversion: boolean;
}

export interface TcHistoryPage {
  readonly entries: readonly TcHistoryEntry[];
  /** The player's live free TC lots, the earliest end first [R11-7]. */
  readonly freeLots: readonly FreeTcLot[];
  readonly page: number;
  readonly hasMore: boolean;
}
