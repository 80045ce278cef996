import { randomUUID } from 'node:crypto';
import type { ProviderOutcome } from '../../../src/domain';
import type { Clock, ScheduledTask } from '../../clock';
import type { SqlExecutor, Store } from '../../store/store';
import { signPayload } from '../signature';
import { PROVIDER_MESSAGES } from './provider.messages';

/** How the player pays at the provider: a card form, a card form with a 3-D Secure step, a bank's pages, or a wallet's confirm page. */
export type ProviderMethod = 'card' | 'card_3ds' | 'account' | 'wallet';
export type ProviderStatus = 'open' | 'challenge' | 'paid' | 'declined' | 'failed' | 'cancelled' | 'expired';

/**
 * The test card numbers (as real providers' test modes have): what each one does. Any other number
 * that passes the Luhn check is refused on the form as unknown to the test environment.
 */
export const TEST_CARDS = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000000119': 'fails',
} as const;
/** The 3-D Secure test code (a real issuer sends it by SMS; the test page says it). */
export const TEST_3DS_CODE = '123456';
/** Wrong 3-D Secure codes before the payment fails as authentication_failed. */
export const MAX_CHALLENGE_ATTEMPTS = 3;
/** A callback not taken (5xx, no answer) is tried again after these delays (about 31 hours in all), then given up. */
export const CALLBACK_RETRY_DELAYS_MS = [
  1_000,
  5_000,
  30_000,
  120_000,
  600_000,
  3_600_000,
  6 * 3_600_000,
  24 * 3_600_000,
] as const;

export interface ProviderPayment {
  readonly payment_id: string;
  readonly merchant_reference: string;
  readonly method: ProviderMethod;
  readonly amount: number;
  readonly status: ProviderStatus;
  readonly failure_code: string | null;
  readonly challenge_attempts: number;
  readonly return_url: string;
  readonly expires_at: Date;
}

/** One payment in the provider's report (the money reconciliation reads it, docs/operations.md). */
export interface ProviderReportRow {
  readonly payment_id: string;
  readonly merchant_reference: string;
  readonly amount: number;
  readonly status: ProviderStatus;
  readonly finished_at: Date | string | null;
}

/** The callback body the provider posts to the service (JSON, signed). */
export interface ProviderCallbackBody {
  readonly event_id: string;
  readonly payment_id: string;
  readonly merchant_reference: string;
  readonly outcome: ProviderOutcome;
  readonly amount: number;
  readonly failure_code: string | null;
  readonly occurred_at: string;
}

/** Posts one signed callback to the service; answers the HTTP status (a throw counts as no answer). */
export type CallbackTransport = (body: string, signature: string) => Promise<number>;

/** What a form step of the hosted page leads to. */
export type StepResult =
  | { readonly kind: 'done'; readonly payment: ProviderPayment }
  | { readonly kind: 'challenge'; readonly payment: ProviderPayment }
  | { readonly kind: 'formError'; readonly payment: ProviderPayment; readonly message: string }
  | { readonly kind: 'gone'; readonly payment: ProviderPayment | null };

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};

/**
 * A simulated payment provider, standing for a real one (docs/payments.md). It keeps its own
 * payments (table provider_payments), serves the hosted payment pages (provider-pages.ts), and tells
 * the service how each payment ended by a signed callback (HMAC-SHA256 over the body) kept in an
 * outbox in the same transaction as the payment's end and delivered until taken. The service talks
 * to it only through `PaymentProvider` (create, expire) and its callback route. Nothing leaves the
 * machine: the transport is an in-process HTTP request to the service's callback route.
 */
export class SimulatedPaymentProvider {
  private transport: CallbackTransport | null = null;
  /** The one timer for the next callback due again (armed at the earliest next_attempt_at). */
  private retry: { task: ScheduledTask; at: number } | null = null;
  private stopped = true;
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  /** Connects the callback transport and delivers what is due (then each callback again when its retry falls due). */
  start(transport: CallbackTransport): void {
    this.transport = transport;
    this.stopped = false;
    void this.deliverDue();
  }

  stop(): void {
    this.stopped = true;
    this.retry?.task.cancel();
    this.retry = null;
  }

  /** The service opens a payment; the player pays on `/provider/pay/{payment_id}`. */
  async createPayment(input: {
    reference: string;
    amount: number;
    method: ProviderMethod;
    expiresAt: Date;
    returnUrl: string;
  }): Promise<{ paymentId: string; paymentUrl: string }> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO provider_payments (payment_id, merchant_reference, method, amount, status, return_url, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $6, $7)`,
      [
        id,
        input.reference,
        input.method,
        input.amount,
        input.returnUrl,
        this.clock.now().toISOString(),
        input.expiresAt.toISOString(),
      ],
    );
    return { paymentId: id, paymentUrl: `/provider/pay/${id}` };
  }

  async payment(paymentId: string): Promise<ProviderPayment | null> {
    const [row] = await this.db.query<ProviderPayment>('SELECT * FROM provider_payments WHERE payment_id = $1', [
      paymentId,
    ]);
    return row ?? null;
  }

  /**
   * The provider's report (as a real provider's settlement report or payments API): the payments
   * finished in [from, to), and any named by id, with their amount and how they ended.
   */
  async report(from: Date, to: Date, ids: readonly string[] = []): Promise<ProviderReportRow[]> {
    return this.db.query<ProviderReportRow>(
      `SELECT payment_id, merchant_reference, amount, status, finished_at FROM provider_payments
        WHERE (finished_at >= $1 AND finished_at < $2) OR payment_id = ANY($3::text[])
        ORDER BY payment_id`,
      [from.toISOString(), to.toISOString(), [...ids]],
    );
  }

  /**
   * The service's expiry: an open payment ends as expired (its page refuses it from now on). Answers
   * how the payment stands after that — `paid` when the player paid just before.
   */
  async expire(paymentId: string): Promise<ProviderStatus | null> {
    return this.db.transaction(async (tx) => {
      const p = await this.lock(tx, paymentId);
      if (!p) return null;
      if (p.status !== 'open' && p.status !== 'challenge') return p.status;
      await this.finish(tx, p, 'expired', null);
      return 'expired';
    });
  }

  /** The card form (card and card_3ds). A bad field leaves the payment open with a message. */
  async submitCard(paymentId: string, form: Record<string, unknown>): Promise<StepResult> {
    const result = await this.db.transaction(async (tx): Promise<StepResult> => {
      const p = await this.openPayment(tx, paymentId, ['card', 'card_3ds'], ['open']);
      if (!p || p.status !== 'open') return { kind: 'gone', payment: p };
      const number = String(form.number ?? '').replace(/[\s-]/g, '');
      const problem = this.cardProblem(
        number,
        String(form.expiry ?? ''),
        String(form.cvc ?? ''),
        String(form.holder ?? ''),
      );
      if (problem) return { kind: 'formError', payment: p, message: problem };
      const card = TEST_CARDS[number as keyof typeof TEST_CARDS];
      if (!card) return { kind: 'formError', payment: p, message: PROVIDER_MESSAGES.unknownTestCard };
      await tx.query('UPDATE provider_payments SET card_last4 = $2 WHERE payment_id = $1', [
        paymentId,
        number.slice(-4),
      ]);
      if (card === 'declined') return { kind: 'done', payment: await this.finish(tx, p, 'declined', 'card_declined') };
      if (card === 'fails') return { kind: 'done', payment: await this.finish(tx, p, 'failed', 'processing_error') };
      if (p.method === 'card_3ds') {
        await tx.query("UPDATE provider_payments SET status = 'challenge' WHERE payment_id = $1", [paymentId]);
        return { kind: 'challenge', payment: { ...p, status: 'challenge' } };
      }
      return { kind: 'done', payment: await this.finish(tx, p, 'paid', null) };
    });
    await this.afterStep(result);
    return result;
  }

  /** The 3-D Secure step: the right code pays; MAX_CHALLENGE_ATTEMPTS wrong ones fail the payment. */
  async submitChallenge(paymentId: string, code: unknown): Promise<StepResult> {
    const result = await this.db.transaction(async (tx): Promise<StepResult> => {
      const p = await this.openPayment(tx, paymentId, ['card_3ds'], ['challenge']);
      if (!p || p.status !== 'challenge') return { kind: 'gone', payment: p };
      if (String(code ?? '').trim() === TEST_3DS_CODE)
        return { kind: 'done', payment: await this.finish(tx, p, 'paid', null) };
      const attempts = p.challenge_attempts + 1;
      if (attempts >= MAX_CHALLENGE_ATTEMPTS)
        return { kind: 'done', payment: await this.finish(tx, p, 'failed', 'authentication_failed') };
      await tx.query('UPDATE provider_payments SET challenge_attempts = $2 WHERE payment_id = $1', [
        paymentId,
        attempts,
      ]);
      return {
        kind: 'formError',
        payment: { ...p, challenge_attempts: attempts },
        message: PROVIDER_MESSAGES.wrongCode(MAX_CHALLENGE_ATTEMPTS - attempts),
      };
    });
    await this.afterStep(result);
    return result;
  }

  /** The bank's or the wallet's confirm button. */
  async confirm(paymentId: string): Promise<StepResult> {
    const result = await this.db.transaction(async (tx): Promise<StepResult> => {
      const p = await this.openPayment(tx, paymentId, ['account', 'wallet'], ['open']);
      if (!p || p.status !== 'open') return { kind: 'gone', payment: p };
      return { kind: 'done', payment: await this.finish(tx, p, 'paid', null) };
    });
    await this.afterStep(result);
    return result;
  }

  /** The player's cancel button on any provider page. */
  async cancel(paymentId: string): Promise<StepResult> {
    const result = await this.db.transaction(async (tx): Promise<StepResult> => {
      const p = await this.openPayment(tx, paymentId, ['card', 'card_3ds', 'account', 'wallet'], ['open', 'challenge']);
      if (!p || (p.status !== 'open' && p.status !== 'challenge')) return { kind: 'gone', payment: p };
      return { kind: 'done', payment: await this.finish(tx, p, 'cancelled', 'cancelled') };
    });
    await this.afterStep(result);
    return result;
  }

  /** Delivers every callback that is due (the retry sweep; also after each step). */
  deliverDue(): Promise<void> {
    // One delivery run at a time: a run started while another is going waits for it, then looks again.
    this.delivering = this.delivering
      .then(() => this.deliverOnce())
      .catch((error: unknown) => this.log('provider callback delivery failed', error));
    return this.delivering;
  }

  /** Arms the one retry timer for the earliest callback still to deliver. */
  private async armRetry(): Promise<void> {
    if (this.stopped) return;
    const [next] = await this.db.query<{ at: Date | string | null }>(
      'SELECT min(next_attempt_at) AS at FROM provider_callbacks WHERE delivered_at IS NULL',
    );
    if (!next?.at) return;
    const at = new Date(next.at).getTime();
    if (this.retry && this.retry.at <= at) return;
    this.retry?.task.cancel();
    const task = this.clock.setTimeout(() => {
      this.retry = null;
      void this.deliverDue();
    }, at - this.clock.now().getTime());
    this.retry = { task, at };
  }

  private async deliverOnce(): Promise<void> {
    if (!this.transport || this.stopped) return;
    await this.deliverBatch();
    await this.armRetry();
  }

  private async deliverBatch(): Promise<void> {
    if (!this.transport) return;
    const due = await this.db.query<{ event_id: string; body: string; attempts: number }>(
      'SELECT event_id, body, attempts FROM provider_callbacks WHERE delivered_at IS NULL AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 100',
      [this.clock.now().toISOString()],
    );
    for (const c of due) {
      let status = 0;
      try {
        status = await this.transport(c.body, signPayload(this.secret, c.body, this.clock.now().getTime()));
      } catch (error) {
        this.log('provider callback not taken', error);
      }
      const attempts = c.attempts + 1;
      const now = this.clock.now().getTime();
      // 2xx: taken; 4xx: refused for good (the service said why); else try again later, then give up.
      const done = (status >= 200 && status < 500) || attempts > CALLBACK_RETRY_DELAYS_MS.length;
      await this.db.query(
        'UPDATE provider_callbacks SET attempts = $2, last_status = $3, delivered_at = $4, next_attempt_at = $5 WHERE event_id = $1',
        [
          c.event_id,
          attempts,
          status,
          done ? new Date(now).toISOString() : null,
          new Date(now + (CALLBACK_RETRY_DELAYS_MS[attempts - 1] ?? 0)).toISOString(),
        ],
      );
    }
  }

  /** Sends the callback of a step that ended the payment before the page moves on (then retries). */
  private async afterStep(result: StepResult): Promise<void> {
    if (result.kind === 'done') await this.deliverDue();
  }

  private async lock(tx: SqlExecutor, paymentId: string): Promise<ProviderPayment | null> {
    const [row] = await tx.query<ProviderPayment>('SELECT * FROM provider_payments WHERE payment_id = $1 FOR UPDATE', [
      paymentId,
    ]);
    return row ?? null;
  }

  /** The payment if it is of one of `methods`; an open one past its expiry ends as expired first. */
  private async openPayment(
    tx: SqlExecutor,
    paymentId: string,
    methods: readonly ProviderMethod[],
    statuses: readonly ProviderStatus[],
  ): Promise<ProviderPayment | null> {
    const p = await this.lock(tx, paymentId);
    if (!p || !methods.includes(p.method)) return null;
    if (statuses.includes(p.status) && new Date(p.expires_at).getTime() <= this.clock.now().getTime())
      return this.finish(tx, p, 'expired', null);
    return p;
  }

  /** Ends a payment and, for an end the service must know, writes its signed callback to the outbox. */
  private async finish(
    tx: SqlExecutor,
    p: ProviderPayment,
    status: Exclude<ProviderStatus, 'open' | 'challenge'>,
    failureCode: string | null,
  ): Promise<ProviderPayment> {
    const now = this.clock.now().toISOString();
    await tx.query(
      'UPDATE provider_payments SET status = $2, failure_code = $3, finished_at = $4 WHERE payment_id = $1',
      [p.payment_id, status, failureCode, now],
    );
    // An expiry was asked by the service itself: it needs no callback.
    if (status !== 'expired') {
      const body: ProviderCallbackBody = {
        event_id: randomUUID(),
        payment_id: p.payment_id,
        merchant_reference: p.merchant_reference,
        outcome: status,
        amount: p.amount,
        failure_code: failureCode,
        occurred_at: now,
      };
      await tx.query(
        'INSERT INTO provider_callbacks (event_id, payment_id, body, next_attempt_at) VALUES ($1, $2, $3, $4)',
        [body.event_id, p.payment_id, JSON.stringify(body), now],
      );
    }
    return { ...p, status, failure_code: failureCode };
  }

  private cardProblem(number: string, expiry: string, cvc: string, holder: string): string | null {
    if (!/^\d{14,19}$/.test(number) || !luhn(number)) return PROVIDER_MESSAGES.cardNumber;
    const exp = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(expiry.trim());
    if (!exp) return PROVIDER_MESSAGES.expiry;
    const now = this.clock.now();
    const year = 2000 + Number(exp[2]);
    const month = Number(exp[1]);
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
      return PROVIDER_MESSAGES.expired;
    if (!/^\d{3,4}$/.test(cvc.trim())) return PROVIDER_MESSAGES.cvc;
    if (!/^[A-Za-z][A-Za-z .'-]{0,49}$/.test(holder.trim())) return PROVIDER_MESSAGES.holder;
    return null;
  }
}
