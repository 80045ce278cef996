import type { Observable } from 'rxjs';
import type { PayMethodOption, ProductList, PurchaseResult, Settlement, WalletPort } from '../../application';
import { bonusLabel, payMethodOrder, tcInfo, type BuildTarget, type PayMethodKind, type TcInfo, type TicketInfo } from '../../domain';
import { DEFAULT_API_PREFIX, type PayMethodEntry, type PayMethodId } from '../../contract';
import { walletCalls } from '../http/ky-wallet.adapter';
import { accountStateOf, type AccountState, type SettlementRow } from './in-memory-account-state';
import { InMemoryRefusal, type InMemoryBackend } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';

interface MethodDef { readonly id: PayMethodId; readonly kind: PayMethodKind; readonly name: string; readonly info: string; readonly rank: 0 | 1 | 2 | 3 }

/** The server's pay methods (server/wallet/pay-methods.ts), in the web order of R9-6. */
const METHODS: readonly MethodDef[] = [
  { id: 'credit_card', kind: 'credit_card', name: 'クレジットカード', info: '各種クレジットカードがご利用いただけます。', rank: 0 },
  { id: 'credit_card_3ds', kind: 'credit_card_3ds', name: '3Dセキュア対応クレジットカード', info: '本人認証（3Dセキュア）に対応したカードでお支払いいただけます。', rank: 0 },
  { id: 'device_wallet', kind: 'device_wallet', name: 'デバイスウォレット', info: 'お使いの端末に登録済みのウォレットでお支払いいただけます。', rank: 3 },
  { id: 'account_payment', kind: 'account_payment', name: '口座振替決済', info: '銀行口座から直接お支払いいただけます。', rank: 3 },
  { id: 'mobile_payment_a', kind: 'mobile_payment', name: 'スマホ決済A', info: 'QRコード決済アプリでお支払いいただけます。', rank: 1 },
  { id: 'mobile_payment_b', kind: 'mobile_payment', name: 'スマホ決済B', info: 'QRコード決済アプリでお支払いいただけます。', rank: 1 },
  { id: 'carrier_billing_a', kind: 'carrier_billing', name: 'キャリア決済A', info: '携帯電話料金と合わせてお支払いいただけます。', rank: 2 },
  { id: 'carrier_billing_b', kind: 'carrier_billing', name: 'キャリア決済B', info: '携帯電話料金と合わせてお支払いいただけます。', rank: 2 },
  { id: 'carrier_billing_c', kind: 'carrier_billing', name: 'キャリア決済C', info: '携帯電話料金と合わせてお支払いいただけます。', rank: 2 },
  { id: 'emoney_a', kind: 'e_money', name: '電子マネーA', info: 'プリペイド型電子マネーでお支払いいただけます。', rank: 2 },
  { id: 'emoney_b', kind: 'e_money', name: '電子マネーB', info: 'プリペイド型電子マネーでお支払いいただけます。', rank: 2 },
];

/** Carrier billing caps one purchase at this price (yen), as on the server. */
const CARRIER_BILLING_MAX_PRICE = 10_000;
/** Monthly purchase limits for minors (yen, calendar month in Asia/Tokyo), as on the server. */
const MINOR_MONTHLY_LIMITS = [{ under: 16, yen: 5_000 }, { under: 20, yen: 10_000 }] as const;
const JST_OFFSET_MS = 9 * 3_600_000;

/** The target's pay methods in the domain's order [R9-6, R6-7] (what the server lists). */
export function payMethodsOf(target: BuildTarget): PayMethodEntry[] {
  const order = payMethodOrder(target);
  return METHODS.filter((d) => order.includes(d.kind))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((d) => ({ id: d.id, kind: d.kind, name: d.name, info: d.info, imgUrl: `${DEFAULT_API_PREFIX}/images/pay-${d.id.replace(/_/g, '-')}.svg`, rank_id: d.rank }));
}

const isCarrierBilling = (id: string): boolean => id.startsWith('carrier_billing_');

function ageOn(birth: string, now: Date): number {
  const today = new Date(now.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

function jstMonthStart(now: Date): Date {
  const j = new Date(now.getTime() + JST_OFFSET_MS);
  return new Date(Date.UTC(j.getUTCFullYear(), j.getUTCMonth(), 1) - JST_OFFSET_MS);
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
      if (query.payMethod && !payMethodsOf(this.caller.target).some((m) => m.id === query.payMethod)) {
        throw new InMemoryRefusal(400, 'この支払い方法はご利用いただけません。');
      }
      const products = query.payMethod && isCarrierBilling(query.payMethod)
        ? this.state.products.filter((p) => p.price <= CARRIER_BILLING_MAX_PRICE)
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
      if (!payMethodsOf(this.caller.target).some((m) => m.id === p.pay_method)) throw new InMemoryRefusal(400, 'この支払い方法はご利用いただけません。');
      if (p.request_id) {
        const again = this.state.settlements.find((s) => s.user_id === user.user_id && s.request_id === p.request_id);
        if (again) return { settlement: settlementWire(again), tc: this.tc(user.user_id) };
      }
      if (!user.birth) throw new InMemoryRefusal(409, 'ご購入の前に生年月日を登録してください。');
      const product = this.state.products.find((x) => x.product_id === p.product_id);
      if (!product) throw new InMemoryRefusal(404, '商品が見つかりません。');
      if (isCarrierBilling(p.pay_method) && product.price > CARRIER_BILLING_MAX_PRICE) {
        throw new InMemoryRefusal(400, `キャリア決済でご購入いただけるのは${CARRIER_BILLING_MAX_PRICE.toLocaleString('ja-JP')}円以下の商品です。`);
      }
      const now = this.backend.now();
      const limit = MINOR_MONTHLY_LIMITS.find((l) => ageOn(user.birth!, now) < l.under);
      if (limit) {
        const since = jstMonthStart(now).toISOString();
        const spent = this.state.settlements.filter((s) => s.user_id === user.user_id && s.created_at >= since).reduce((sum, s) => sum + s.price, 0);
        if (spent + product.price > limit.yen) {
          throw new InMemoryRefusal(409, `未成年のお客様のご購入は月${limit.yen.toLocaleString('ja-JP')}円までです（今月のご購入: ${spent.toLocaleString('ja-JP')}円）。`);
        }
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
      if (!row) throw new InMemoryRefusal(404, '決済が見つかりません。');
      return { settlement: settlementWire(row) };
    });
  }
}
