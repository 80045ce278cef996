import type { Observable } from 'rxjs';
import type { ProductList, PurchaseResult, WalletPort } from '../../application';
import {
  bonusLabel, carrierBillingAllows, minorMonthlyLimit, PURCHASE_MESSAGES, startOfJstMonth, tcInfo, type BuildTarget, type TcInfo, type TicketInfo,
} from '../../domain';
import { DEFAULT_API_PREFIX, isCarrierBilling, isPayMethodOf, payMethodImageKey, payMethodsFor, type PayMethodEntry } from '../../contract';
import { walletCalls } from '../http/ky-wallet.adapter';
import { accountStateOf, type AccountState, type SettlementRow } from './in-memory-account-state';
import { InMemoryRefusal, type InMemoryBackend } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';
import type { PayMethodOption, Settlement } from '../../domain';

/** The target's pay methods as the server lists them [R9-6, R6-7]. */
export function payMethodsOf(target: BuildTarget): PayMethodEntry[] {
  return payMethodsFor(target, (id) => `${DEFAULT_API_PREFIX}/images/${payMethodImageKey(id)}.svg`);
}

const settlementWire = ({ user_id: _u, request_id: _r, ...s }: SettlementRow) => s;

/** WalletPort in memory: balances derived from the backend's ledger [R1-2], the server's purchase rules. */
export class InMemoryWallet implements WalletPort {
  private readonly state: AccountState;

  constructor(private readonly caller: InMemoryCaller, private readonly userId: () => number | null) {
    this.state = accountStateOf(caller.backend);
  }

  private get backend(): InMemoryBackend {
    return this.caller.backend;
  }

  private tc(userId: number): TcInfo {
    const { tc_free, tc_toll } = this.backend.balance(userId);
    return tcInfo(tc_free, tc_toll);
  }

  balance(): Observable<TcInfo> {
    return this.caller.serve(walletCalls.balance(), (_body, user) => ({ data: this.tc(user.user_id) }));
  }

  tickets(): Observable<TicketInfo> {
    return this.caller.serve(walletCalls.tickets(), (_body, user) => ({ data: { ticket_all: this.state.tickets(user.user_id) } }));
  }

  payMethods(): Observable<readonly PayMethodOption[]> {
    return this.caller.serve(walletCalls.payMethods(this.userId() ?? 0), () => ({ list: payMethodsOf(this.caller.target) }));
  }

  products(payMethod?: string): Observable<ProductList> {
    return this.caller.serve(walletCalls.products(this.userId() ?? 0, payMethod), (query, user) => {
      if (query.payMethod && !isPayMethodOf(this.caller.target, query.payMethod)) throw new InMemoryRefusal(400, PURCHASE_MESSAGES.payMethodUnavailable);
      const products = query.payMethod && isCarrierBilling(query.payMethod)
        ? this.state.products.filter((p) => carrierBillingAllows(p.price))
        : this.state.products;
      return {
        list: products.map((p) => ({
          product_id: p.product_id, product_name: p.product_name, price: p.price, toll_tc: p.toll_tc, free_tc: p.free_tc,
          bonus_label: bonusLabel(p.free_tc), is_sale: p.is_sale ? 1 : 0,
        })),
        registered_birth: user.birth ? 1 : 0,
        bonus_item_list: products.filter((p) => p.bonus_ticket > 0).map((p) => ({ product_id: p.product_id, item_name: 'チケット', count: p.bonus_ticket })),
        is_tc_sale: products.some((p) => p.is_sale) ? 1 : 0,
        is_ticket_present: products.some((p) => p.bonus_ticket > 0) ? 1 : 0,
      };
    });
  }

  purchase(productId: number, payMethod: string, requestId?: string): Observable<PurchaseResult> {
    return this.caller.serve(walletCalls.purchase(productId, payMethod, requestId), (body, user) => {
      const p = body.purchase;
      if (!isPayMethodOf(this.caller.target, p.pay_method)) throw new InMemoryRefusal(400, PURCHASE_MESSAGES.payMethodUnavailable);
      if (p.request_id) {
        const again = this.state.settlements.find((s) => s.user_id === user.user_id && s.request_id === p.request_id);
        if (again) return { settlement: settlementWire(again), tc: this.tc(user.user_id) };
      }
      if (!user.birth) throw new InMemoryRefusal(409, PURCHASE_MESSAGES.birthRequired);
      const product = this.state.products.find((x) => x.product_id === p.product_id);
      if (!product) throw new InMemoryRefusal(404, PURCHASE_MESSAGES.productNotFound);
      if (isCarrierBilling(p.pay_method) && !carrierBillingAllows(product.price)) throw new InMemoryRefusal(400, PURCHASE_MESSAGES.carrierBillingOverCap);
      const now = this.backend.now();
      const limit = minorMonthlyLimit(user.birth, now.getTime());
      if (limit !== null) {
        const since = new Date(startOfJstMonth(now.getTime())).toISOString();
        const spent = this.state.settlements.filter((s) => s.user_id === user.user_id && s.created_at >= since).reduce((sum, s) => sum + s.price, 0);
        if (spent + product.price > limit) throw new InMemoryRefusal(409, PURCHASE_MESSAGES.minorMonthlyLimit(limit, spent));
      }
      const id = globalThis.crypto.randomUUID();
      const at = now.toISOString();
      const row: SettlementRow = {
        product_settlement_id: id, user_id: user.user_id, product_id: product.product_id, pay_method: p.pay_method, price: product.price,
        toll_tc: product.toll_tc, free_tc: product.free_tc, request_id: p.request_id ?? null, status: 'completed', created_at: at, completed_at: at,
      };
      this.state.settlements.push(row);
      this.backend.credit(user.user_id, 'toll', product.toll_tc, 'purchase', id);
      if (product.free_tc > 0) this.backend.credit(user.user_id, 'free', product.free_tc, 'purchase', id);
      if (product.bonus_ticket > 0) this.state.creditTickets(user.user_id, product.bonus_ticket, 'purchase');
      return { settlement: settlementWire(row), tc: this.tc(user.user_id) };
    });
  }

  settlement(productSettlementId: string): Observable<Settlement> {
    return this.caller.serve(walletCalls.settlement(productSettlementId), (body, user) => {
      const row = this.state.settlements.find((s) => s.user_id === user.user_id && s.product_settlement_id === body.product_settlement_id);
      if (!row) throw new InMemoryRefusal(404, PURCHASE_MESSAGES.settlementNotFound);
      return { settlement: settlementWire(row) };
    });
  }
}
