import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_PAYMENT_SLUG,
  carrierBillingAllows,
  minorMonthlyLimit,
  monthlyPurchaseCap,
  PURCHASE_MESSAGES,
  remainingThisMonth,
  settlementFailureText,
  settlementStep,
  startOfJstMonth,
  type BuildTarget,
  type ProviderOutcome,
  type SpendingLimit,
} from '../../src/domain';
import { isCarrierBilling, isPayMethodOf, type PayMethodId } from '../../src/contract';
import { AccountRefusal } from '../account/account-errors';
import { DueTimer, type Clock } from '../clock';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger, TcBalance } from './ledger';
import { SERVER_MESSAGES } from '../messages';
import type { SpendingLimits } from './spending-limits';

export interface ProductRow {
  product_id: number;
  product_name: string;
  price: number;
  toll_tc: number;
  free_tc: number;
  bonus_ticket: number;
  is_sale: boolean;
}

type SettlementStatus = 'pending' | 'completed' | 'failed' | 'cancelled';
interface SettlementRow {
  product_settlement_id: string;
  user_id: number;
  product_id: number;
  pay_method: PayMethodId;
  price: number;
  toll_tc: number;
  free_tc: number;
  bonus_ticket: number;
  status: SettlementStatus;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date;
  provider_payment_id: string | null;
  payment_url: string | null;
  failure_code: string | null;
  reported_at: Date | null;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

const view = (s: SettlementRow) => ({
  product_settlement_id: s.product_settlement_id,
  product_id: s.product_id,
  pay_method: s.pay_method,
  price: s.price,
  toll_tc: s.toll_tc,
  free_tc: s.free_tc,
  bonus_ticket: s.bonus_ticket,
  status: s.status,
  created_at: iso(s.created_at)!,
  completed_at: iso(s.completed_at),
  expires_at: iso(s.expires_at)!,
  /** Where the player pays while the settlement is pending; null once it has ended. */
  payment_url: s.status === 'pending' ? s.payment_url : null,
  failure_code: s.failure_code,
  /** The Japanese reason a failed or cancelled settlement ended so (the error and cancel modals). */
  failure_info: s.status === 'failed' || s.status === 'cancelled' ? settlementFailureText(s.failure_code) : null,
});
export type SettlementView = ReturnType<typeof view>;

/** The provider as the service sees it (the simulated one, or a real one's adapter). */
export interface PaymentProvider {
  createPayment(input: {
    reference: string;
    amount: number;
    method: 'card' | 'card_3ds' | 'account' | 'wallet';
    expiresAt: Date;
    returnUrl: string;
  }): Promise<{ paymentId: string; paymentUrl: string }>;
  /** Ends an open payment at expiry; answers how it stands then ('paid' if paid just before). */
  expire(paymentId: string): Promise<string | null>;
  /** The provider's report: payments finished in [from, to), and those named by id (the reconciliation). */
  report(
    from: Date,
    to: Date,
    ids?: readonly string[],
  ): Promise<
    readonly {
      readonly payment_id: string;
      readonly merchant_reference: string;
      readonly amount: number;
      readonly status: string;
      readonly finished_at: Date | string | null;
    }[]
  >;
}

/** The provider's signed callback, once its signature is checked. */
export interface ProviderCallback {
  readonly payment_id: string;
  readonly merchant_reference: string;
  readonly outcome: ProviderOutcome;
  readonly amount: number;
  readonly failure_code: string | null;
}

/** How long a settlement waits to be paid before it expires as cancelled (SETTLEMENT_EXPIRY_MINUTES). */
export const DEFAULT_SETTLEMENT_TTL_MS = 30 * 60_000;

/** The failure code of a settlement whose account was deleted before the provider said it was paid. */
export const ACCOUNT_DELETED = 'account_deleted';

const PROVIDER_METHOD = {
  credit_card: 'card',
  credit_card_3ds: 'card_3ds',
  account_payment: 'account',
} as const;
const providerMethod = (id: PayMethodId) => PROVIDER_METHOD[id as keyof typeof PROVIDER_METHOD] ?? 'wallet';

/** Where the provider sends the player back: the account-based payment's result page, else the iframe's return page. */
export const returnUrlOf = (payMethod: PayMethodId, settlementId: string) =>
  payMethod === 'account_payment'
    ? `/purchase/${ACCOUNT_PAYMENT_SLUG}/result/${settlementId}`
    : `/purchase-return/${settlementId}`;

/**
 * TC products and purchases (docs/payments.md). A purchase counts against the monthly caps and
 * writes a `pending` settlement in one transaction under the user's row lock (so concurrent
 * purchases can never pass a cap), then opens a payment at the provider (the slow step). The
 * provider's signed callback completes it: the credits of toll_tc, free_tc and bonus tickets go
 * through the ledger in the same transaction, with idempotency key `settlement:<id>`, and only a
 * pending settlement moves (the domain's `settlementStep`), so a repeated or late callback credits
 * nothing more [R10-2]. A settlement nobody pays expires as `cancelled`.
 */
export class PurchaseService {
  /** The one timer for the next expiry (armed at the earliest pending expires_at). */
  private readonly expiry: DueTimer;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly target: BuildTarget,
    private readonly provider: PaymentProvider,
    private readonly limits: SpendingLimits,
    private readonly settlementTtlMs: number = DEFAULT_SETTLEMENT_TTL_MS,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
    /** Told each status a settlement reaches, once it is written (the metrics). */
    private readonly onSettlement: (status: string) => void = () => undefined,
  ) {
    this.expiry = new DueTimer(
      clock,
      async () => {
        const [next] = await this.db.query<{ at: Date | string | null }>(
          "SELECT min(expires_at) AS at FROM product_settlements WHERE status = 'pending'",
        );
        return next?.at ? new Date(next.at) : null;
      },
      async () => void (await this.expireDue()),
      log,
      'settlement expiry',
    );
  }

  /** Starts closing settlements as they expire (one timer, at the earliest pending expiry). */
  start(): void {
    this.expiry.start();
  }

  stop(): void {
    this.expiry.stop();
  }

  async products(payMethod?: PayMethodId): Promise<ProductRow[]> {
    const rows = await this.db.query<ProductRow>(
      'SELECT product_id, product_name, price, toll_tc, free_tc, bonus_ticket, is_sale FROM tc_products WHERE active ORDER BY sort, product_id',
    );
    return payMethod && isCarrierBilling(payMethod) ? rows.filter((p) => carrierBillingAllows(p.price)) : rows;
  }

  async purchase(
    userId: number,
    p: { product_id: number; pay_method: PayMethodId; request_id?: string | undefined },
  ): Promise<{ settlement: SettlementView; tc: TcBalance }> {
    if (!isPayMethodOf(this.target, p.pay_method))
      throw new AccountRefusal(400, PURCHASE_MESSAGES.payMethodUnavailable);
    const opened = await this.db.transaction(async (q) => {
      // Lock the user first: the monthly count and the insert never interleave with another purchase.
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
        if (again) return { row: again, fresh: false };
      }
      if (!user?.birth) throw new AccountRefusal(409, PURCHASE_MESSAGES.birthRequired);
      const [product] = await q.query<ProductRow>(
        'SELECT product_id, product_name, price, toll_tc, free_tc, bonus_ticket, is_sale FROM tc_products WHERE product_id = $1 AND active',
        [p.product_id],
      );
      if (!product) throw new AccountRefusal(404, PURCHASE_MESSAGES.productNotFound);
      if (isCarrierBilling(p.pay_method) && !carrierBillingAllows(product.price))
        throw new AccountRefusal(400, PURCHASE_MESSAGES.carrierBillingOverCap);
      const caps = await this.caps(q, userId, user.birth);
      if (caps.cap !== null && caps.spent + product.price > caps.cap)
        throw new AccountRefusal(
          409,
          caps.cap === caps.minor
            ? PURCHASE_MESSAGES.minorMonthlyLimit(caps.cap, caps.spent)
            : PURCHASE_MESSAGES.ownMonthlyLimit(caps.cap, caps.spent),
        );
      const now = this.clock.now();
      const id = randomUUID();
      const [row] = await q.query<SettlementRow>(
        `INSERT INTO product_settlements (product_settlement_id, user_id, product_id, pay_method, price, toll_tc, free_tc, bonus_ticket, status, request_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10, $11) RETURNING *`,
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
          now.toISOString(),
          new Date(now.getTime() + this.settlementTtlMs).toISOString(),
        ],
      );
      return { row: row!, fresh: true };
    });
    const row = opened.fresh ? await this.openPayment(opened.row) : opened.row;
    if (opened.fresh) {
      void this.expiry.poke();
      this.onSettlement(row.status);
    }
    return { settlement: view(row), tc: await this.ledger.balance(userId) };
  }

  /** The slow step, after the count is written: the provider opens the payment (or the settlement fails). */
  private async openPayment(s: SettlementRow): Promise<SettlementRow> {
    try {
      const payment = await this.provider.createPayment({
        reference: s.product_settlement_id,
        amount: s.price,
        method: providerMethod(s.pay_method),
        expiresAt: new Date(s.expires_at),
        returnUrl: returnUrlOf(s.pay_method, s.product_settlement_id),
      });
      const [row] = await this.db.query<SettlementRow>(
        'UPDATE product_settlements SET provider_payment_id = $2, payment_url = $3 WHERE product_settlement_id = $1 RETURNING *',
        [s.product_settlement_id, payment.paymentId, payment.paymentUrl],
      );
      return row!;
    } catch (error) {
      this.log('payment provider refused to open a payment', error);
      const [row] = await this.db.query<SettlementRow>(
        "UPDATE product_settlements SET status = 'failed', failure_code = 'provider_unavailable' WHERE product_settlement_id = $1 AND status = 'pending' RETURNING *",
        [s.product_settlement_id],
      );
      return row ?? s;
    }
  }

  /**
   * The provider's signed callback [R10-2]: an unknown settlement (or one of another payment) is
   * refused (404), an amount that differs is refused (409), and only a pending settlement moves.
   */
  async applyCallback(c: ProviderCallback): Promise<SettlementView> {
    let before: string | null = null;
    return this.db
      .transaction(async (q) => {
        const [s] = await q.query<SettlementRow>(
          'SELECT * FROM product_settlements WHERE product_settlement_id = $1 AND provider_payment_id = $2 FOR UPDATE',
          [c.merchant_reference, c.payment_id],
        );
        if (!s) throw new AccountRefusal(404, PURCHASE_MESSAGES.settlementNotFound);
        if (s.price !== c.amount) throw new AccountRefusal(409, SERVER_MESSAGES.callbackAmountMismatch);
        before = s.status;
        return this.settle(q, s, c.outcome, c.failure_code);
      })
      .then((row) => {
        if (row.status !== before) this.onSettlement(row.status);
        // Paid for an account deleted meanwhile: nothing was credited; the provider refunds it.
        if (c.outcome === 'paid' && row.failure_code === ACCOUNT_DELETED)
          throw new AccountRefusal(409, SERVER_MESSAGES.callbackAccountDeleted);
        return view(row);
      });
  }

  /** One provider outcome applied to a locked settlement (the callback, or the expiry's own look). */
  private async settle(
    q: SqlExecutor,
    s: SettlementRow,
    outcome: ProviderOutcome,
    failureCode: string | null,
  ): Promise<SettlementRow> {
    const step = settlementStep(s.status, outcome);
    if (step.kind === 'repeat') return s;
    if (step.kind === 'conflict') throw new AccountRefusal(409, SERVER_MESSAGES.callbackConflict);
    const now = this.clock.now().toISOString();
    if (step.kind === 'close') {
      const [row] = await q.query<SettlementRow>(
        'UPDATE product_settlements SET status = $2, failure_code = $3 WHERE product_settlement_id = $1 RETURNING *',
        [
          s.product_settlement_id,
          step.status,
          failureCode ?? (step.status === 'cancelled' ? 'cancelled' : 'processing_error'),
        ],
      );
      return row!;
    }
    // A payment that completes after its account was deleted credits nobody: the settlement is
    // cancelled and the provider told so (the deletion closed every pending settlement it could).
    const [owner] = await q.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM users WHERE user_id = $1', [
      s.user_id,
    ]);
    if (!owner || owner.deleted_at !== null) {
      const [row] = await q.query<SettlementRow>(
        "UPDATE product_settlements SET status = 'cancelled', failure_code = $2 WHERE product_settlement_id = $1 RETURNING *",
        [s.product_settlement_id, ACCOUNT_DELETED],
      );
      return row!;
    }
    const key = `settlement:${s.product_settlement_id}`;
    const entry = { reason: 'purchase', reference: s.product_settlement_id, idempotencyKey: key };
    await this.ledger.credit(s.user_id, 'toll', { ...entry, amount: s.toll_tc }, q);
    if (s.free_tc > 0) await this.ledger.credit(s.user_id, 'free', { ...entry, amount: s.free_tc }, q);
    if (s.bonus_ticket > 0) await this.ledger.creditTickets(s.user_id, { ...entry, amount: s.bonus_ticket }, q);
    const [row] = await q.query<SettlementRow>(
      "UPDATE product_settlements SET status = 'completed', completed_at = $2 WHERE product_settlement_id = $1 RETURNING *",
      [s.product_settlement_id, now],
    );
    return row!;
  }

  /**
   * Closes every pending settlement past its expiry: the provider's payment is ended first, and if
   * the player had paid just before (the callback still on its way) the settlement completes instead.
   */
  async expireDue(): Promise<number> {
    const due = await this.db.query<{ product_settlement_id: string; provider_payment_id: string | null }>(
      "SELECT product_settlement_id, provider_payment_id FROM product_settlements WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at LIMIT 500",
      [this.clock.now().toISOString()],
    );
    for (const d of due) {
      const at = d.provider_payment_id ? await this.provider.expire(d.provider_payment_id) : null;
      const outcome: ProviderOutcome =
        at === 'paid' || at === 'declined' || at === 'failed' || at === 'cancelled' ? at : 'cancelled';
      const settled = await this.db.transaction(async (q) => {
        const [s] = await q.query<SettlementRow>(
          "SELECT * FROM product_settlements WHERE product_settlement_id = $1 AND status = 'pending' FOR UPDATE",
          [d.product_settlement_id],
        );
        return s
          ? await this.settle(q, s, outcome, outcome === 'cancelled' && at !== 'cancelled' ? 'expired' : null)
          : null;
      });
      if (settled && settled.status !== 'pending') this.onSettlement(settled.status);
    }
    return due.length;
  }

  /** One of the user's settlements (the result page, the purchase modal's check). */
  async settlement(userId: number, id: string): Promise<SettlementView> {
    const [row] = await this.db.query<SettlementRow>(
      'SELECT * FROM product_settlements WHERE user_id = $1 AND product_settlement_id = $2',
      [userId, id],
    );
    if (!row) throw new AccountRefusal(404, PURCHASE_MESSAGES.settlementNotFound);
    return view(row);
  }

  /**
   * The analytics of a completed settlement, handed out once: the first call after completion answers
   * buy_tc with its price (and conversion when it is the user's first completed purchase); every
   * later call, from any tab or after a reload, answers nothing to send.
   */
  async claimReport(userId: number, id: string): Promise<{ buy_tc: { price: number } | null; conversion: boolean }> {
    return this.db.transaction(async (q) => {
      // The user row serialises claims of two settlements, so only one can be the first.
      await q.query('SELECT 1 FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
      const [row] = await q.query<SettlementRow>(
        'SELECT * FROM product_settlements WHERE user_id = $1 AND product_settlement_id = $2 FOR UPDATE',
        [userId, id],
      );
      if (!row) throw new AccountRefusal(404, PURCHASE_MESSAGES.settlementNotFound);
      if (row.status !== 'completed' || row.reported_at) return { buy_tc: null, conversion: false };
      await q.query('UPDATE product_settlements SET reported_at = $2 WHERE product_settlement_id = $1', [
        id,
        this.clock.now().toISOString(),
      ]);
      // The first purchase: none completed before it and none reported before it (ties at one instant go to the first reported).
      const [earlier] = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM product_settlements
          WHERE user_id = $1 AND status = 'completed' AND product_settlement_id <> $2
            AND (completed_at < $3 OR reported_at IS NOT NULL)`,
        [userId, id, iso(row.completed_at)],
      );
      return { buy_tc: { price: row.price }, conversion: (earlier?.n ?? 0) === 0 };
    });
  }

  async hasBirth(userId: number): Promise<boolean> {
    const [row] = await this.db.query<{ has: boolean }>(
      'SELECT birth IS NOT NULL AS has FROM users WHERE user_id = $1',
      [userId],
    );
    return row?.has ?? false;
  }

  /** The player's spending limit and this month's caps and spending (the top modal, the config modal). */
  async spendingOf(userId: number): Promise<{
    own: SpendingLimit;
    minor: number | null;
    cap: number | null;
    spent: number;
    remaining: number | null;
  }> {
    const [user] = await this.db.query<{ birth: string | null }>(
      `SELECT to_char(birth, 'YYYY-MM-DD') AS birth FROM users WHERE user_id = $1`,
      [userId],
    );
    const caps = await this.caps(this.db, userId, user?.birth ?? null);
    return { ...caps, remaining: remainingThisMonth(caps.cap, caps.spent) };
  }

  /**
   * What applies this month: the player's own limit, the minors' cap (by birth), the lower of them
   * [R10-3], and what is spent — completed settlements and pending ones not yet expired (a payment
   * under way counts, so two at once cannot both pass the cap).
   */
  private async caps(q: SqlExecutor, userId: number, birth: string | null) {
    const nowMs = this.clock.now().getTime();
    const own = await this.limits.of(userId, q);
    const minor = birth ? minorMonthlyLimit(birth, nowMs) : null;
    const [{ spent } = { spent: 0 }] = await q.query<{ spent: number }>(
      `SELECT coalesce(sum(price), 0)::int AS spent FROM product_settlements
        WHERE user_id = $1 AND created_at >= $2 AND (status = 'completed' OR (status = 'pending' AND expires_at > $3))`,
      [userId, new Date(startOfJstMonth(nowMs)).toISOString(), new Date(nowMs).toISOString()],
    );
    return { own, minor, cap: monthlyPurchaseCap(own.limitYen, minor), spent };
  }
}
