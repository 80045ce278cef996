import { randomUUID } from 'node:crypto';
import {
  carrierBillingAllows,
  minorMonthlyLimit,
  PURCHASE_MESSAGES,
  startOfJstMonth,
  type BuildTarget,
} from '../../src/domain';
import { isCarrierBilling, isPayMethodOf, type PayMethodId } from '../../src/contract';
import { AccountRefusal } from '../account/account-errors';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger, TcBalance } from './ledger';
import { SERVER_MESSAGES } from '../messages';
import type { Clock } from '../clock';

export interface ProductRow {
  product_id: number;
  product_name: string;
  price: number;
  toll_tc: number;
  free_tc: number;
  bonus_ticket: number;
  is_sale: boolean;
}

interface SettlementRow {
  product_settlement_id: string;
  product_id: number;
  pay_method: PayMethodId;
  price: number;
  toll_tc: number;
  free_tc: number;
  status: 'pending' | 'completed' | 'failed' | 'cancelled';
  created_at: Date;
  completed_at: Date | null;
}

const view = (s: SettlementRow) => ({
  product_settlement_id: s.product_settlement_id,
  product_id: s.product_id,
  pay_method: s.pay_method,
  price: s.price,
  toll_tc: s.toll_tc,
  free_tc: s.free_tc,
  status: s.status,
  created_at: new Date(s.created_at).toISOString(),
  completed_at: s.completed_at ? new Date(s.completed_at).toISOString() : null,
});

/**
 * TC products and purchases. The reference server has no payment provider: a purchase writes a
 * product_settlements row and completes it in the same transaction that credits toll_tc and
 * free_tc (and bonus tickets) through the ledger. A real provider would leave the row 'pending'
 * and complete it from the provider's callback with the same ledger calls and idempotency keys.
 */
export class PurchaseService {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly target: BuildTarget,
  ) {}

  async products(payMethod?: PayMethodId): Promise<ProductRow[]> {
    const rows = await this.db.query<ProductRow>(
      'SELECT product_id, product_name, price, toll_tc, free_tc, bonus_ticket, is_sale FROM tc_products WHERE active ORDER BY sort, product_id',
    );
    return payMethod && isCarrierBilling(payMethod) ? rows.filter((p) => carrierBillingAllows(p.price)) : rows;
  }

  async purchase(
    userId: number,
    p: { product_id: number; pay_method: PayMethodId; request_id?: string | undefined },
  ): Promise<{ settlement: ReturnType<typeof view>; tc: TcBalance }> {
    if (!isPayMethodOf(this.target, p.pay_method))
      throw new AccountRefusal(400, PURCHASE_MESSAGES.payMethodUnavailable);
    return this.db.transaction(async (q) => {
      // Lock the user first: the monthly-limit check and the insert must not interleave with another purchase.
      const [user] = await q.query<{ birth: string | null }>(
        `SELECT to_char(birth, 'YYYY-MM-DD') AS birth FROM users WHERE user_id = $1 FOR UPDATE`,
        [userId],
      );
      if (p.request_id) {
        const [again] = await q.query<SettlementRow>(
          'SELECT * FROM product_settlements WHERE user_id = $1 AND request_id = $2',
          [userId, p.request_id],
        );
        // A replay must be the same purchase: another product or pay method under the key is a conflict.
        if (again && (again.product_id !== p.product_id || again.pay_method !== p.pay_method))
          throw new AccountRefusal(409, SERVER_MESSAGES.purchaseRequestIdReused);
        if (again) return { settlement: view(again), tc: await this.ledger.balance(userId, q) };
      }
      if (!user?.birth) throw new AccountRefusal(409, PURCHASE_MESSAGES.birthRequired);
      const [product] = await q.query<ProductRow>(
        'SELECT product_id, product_name, price, toll_tc, free_tc, bonus_ticket, is_sale FROM tc_products WHERE product_id = $1 AND active',
        [p.product_id],
      );
      if (!product) throw new AccountRefusal(404, PURCHASE_MESSAGES.productNotFound);
      if (isCarrierBilling(p.pay_method) && !carrierBillingAllows(product.price))
        throw new AccountRefusal(400, PURCHASE_MESSAGES.carrierBillingOverCap);
      await this.checkMinorLimit(q, userId, user.birth, product.price);
      const now = this.clock.now().toISOString();
      const id = randomUUID();
      await q.query(
        `INSERT INTO product_settlements (product_settlement_id, user_id, product_id, pay_method, price, toll_tc, free_tc, bonus_ticket, status, request_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10)`,
        [
          id,
          userId,
          product.product_id,
          p.pay_method,
          product.price,
          product.toll_tc,
          product.free_tc,
          product.bonus_ticket,
          p.request_id ?? null,
          now,
        ],
      );
      // The reference "provider" approves at once; the credits share the settlement's transaction.
      await this.ledger.credit(
        userId,
        'toll',
        { amount: product.toll_tc, reason: 'purchase', reference: id, idempotencyKey: `settlement:${id}` },
        q,
      );
      if (product.free_tc > 0)
        await this.ledger.credit(
          userId,
          'free',
          { amount: product.free_tc, reason: 'purchase', reference: id, idempotencyKey: `settlement:${id}` },
          q,
        );
      if (product.bonus_ticket > 0)
        await this.ledger.creditTickets(
          userId,
          { amount: product.bonus_ticket, reason: 'purchase', reference: id, idempotencyKey: `settlement:${id}` },
          q,
        );
      const [done] = await q.query<SettlementRow>(
        "UPDATE product_settlements SET status = 'completed', completed_at = $2 WHERE product_settlement_id = $1 RETURNING *",
        [id, now],
      );
      return { settlement: view(done!), tc: await this.ledger.balance(userId, q) };
    });
  }

  /** One of the user's settlements (the /purchase/{slug}/result/{productSettlementId} page). */
  async settlement(userId: number, id: string): Promise<ReturnType<typeof view>> {
    const [row] = await this.db.query<SettlementRow>(
      'SELECT * FROM product_settlements WHERE user_id = $1 AND product_settlement_id = $2',
      [userId, id],
    );
    if (!row) throw new AccountRefusal(404, PURCHASE_MESSAGES.settlementNotFound);
    return view(row);
  }

  async hasBirth(userId: number): Promise<boolean> {
    const [row] = await this.db.query<{ has: boolean }>(
      'SELECT birth IS NOT NULL AS has FROM users WHERE user_id = $1',
      [userId],
    );
    return row?.has ?? false;
  }

  private async checkMinorLimit(q: SqlExecutor, userId: number, birth: string, price: number): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const limit = minorMonthlyLimit(birth, nowMs);
    if (limit === null) return;
    const [{ spent } = { spent: 0 }] = await q.query<{ spent: number }>(
      "SELECT coalesce(sum(price), 0)::int AS spent FROM product_settlements WHERE user_id = $1 AND status = 'completed' AND created_at >= $2",
      [userId, new Date(startOfJstMonth(nowMs)).toISOString()],
    );
    if (spent + price > limit) throw new AccountRefusal(409, PURCHASE_MESSAGES.minorMonthlyLimit(limit, spent));
  }
}
