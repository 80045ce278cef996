import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  settlementReportResponseSchema,
  spendingLimitResponseSchema,
  tcHistoryResponseSchema,
  userDataResponseSchema,
} from '../../src/contract';
import { DAY_MS, HOUR_MS, PURCHASE_MESSAGES } from '../../src/domain';
import { Ledger } from '../../server/wallet/ledger';
import { signPayload, SIGNATURE_HEADER } from '../../server/payment/signature';
import { TEST_3DS_CODE } from '../../server/payment/provider/simulated-provider';
import { DEFAULT_SETTLEMENT_TTL_MS } from '../../server/wallet/purchase.service';
import { ManualServerClock } from '../support/manual-server-clock';
import { buyTc, cardFields, CARDS, providerStep, settlementOf, startPurchase } from '../support/payments';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, post } from './user-helpers';

let t: TestServer;
let clock: ManualServerClock;
beforeAll(async () => {
  clock = new ManualServerClock(new Date('2026-11-10T03:00:00Z'));
  t = await startTestServer({ inMemory: true, clock });
});
afterAll(async () => t?.close());

/** The ledger equals the sum of its entries for every user, after every test. */
afterEach(async () => {
  const ledger = new Ledger(t.server.store(), clock);
  const users = await t.server.store().query<{ user_id: number }>('SELECT user_id FROM wallets');
  for (const { user_id } of users) {
    const b = await ledger.balance(user_id);
    const tickets = await ledger.tickets(user_id);
    expect(await ledger.fromRows(user_id)).toEqual({ tc_free: b.tc_free, tc_toll: b.tc_toll, ticket: tickets });
  }
});

const adult = () => createTestUser(t, { birth: '1990-04-01' });
const db = () => t.server.store();
const paymentIdOf = async (settlementId: string) =>
  (
    await db().query<{ provider_payment_id: string }>(
      'SELECT provider_payment_id FROM product_settlements WHERE product_settlement_id = $1',
      [settlementId],
    )
  )[0]!.provider_payment_id;

/** Posts a provider callback as the provider would (signed now), or with the signature given. */
async function callback(body: Record<string, unknown>, signature?: string) {
  const raw = JSON.stringify(body);
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/purchase/provider_callback',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signature ?? signPayload(t.config.payment.providerSecret, raw, clock.now().getTime()),
    },
    payload: raw,
  });
  return { status: res.statusCode, json: res.json() as { error_code: number; error_info: string } };
}

async function paidBody(settlementId: string, amount: number, outcome = 'paid') {
  return {
    event_id: `evt-${Math.random().toString(36).slice(2)}`,
    payment_id: await paymentIdOf(settlementId),
    merchant_reference: settlementId,
    outcome,
    amount,
    failure_code: null,
    occurred_at: clock.now().toISOString(),
  };
}

const balanceOf = (u: TestUser) => new Ledger(db(), clock).balance(u.user_id);

describe('the simulated provider and its signed callback [R10-2]', () => {
  it('[R10-2] 200 concurrent callbacks for 50 settlements credit each exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, adult));
    const started = [];
    for (const u of users) started.push(await startPurchase(t, u, 2));
    const bodies = await Promise.all(started.map((s) => paidBody(s.settlement.product_settlement_id, 1000)));
    const answers = await Promise.all(bodies.flatMap((b) => [0, 1, 2, 3].map(() => callback(b))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    for (const [i, u] of users.entries()) {
      expect(await balanceOf(u)).toEqual({ tc_all: 1050, tc_free: 50, tc_toll: 1000 });
      const s = await settlementOf(t, u, started[i]!.settlement.product_settlement_id);
      expect(s.status).toBe('completed');
    }
    const [{ n }] = (await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tc_ledger WHERE idempotency_key = ANY($1::text[])`,
      [started.map((s) => `settlement:${s.settlement.product_settlement_id}`)],
    )) as [{ n: number }];
    expect(n).toBe(100); // one toll and one free row per settlement
  });

  it('[R10-2] a forged, tampered, stale, unknown or mismatched callback is refused and changes nothing', async () => {
    const u = await adult();
    const s = await startPurchase(t, u, 3);
    const body = await paidBody(s.settlement.product_settlement_id, 3000);
    const raw = JSON.stringify(body);
    const send = (b: Record<string, unknown>, signature?: string) => async () => {
      const a = await callback(b, signature);
      return { status: a.status, json: a.json };
    };
    await expectRefusedUnchanged(t, send(body, signPayload('x'.repeat(64), raw, clock.now().getTime())), 401);
    await expectRefusedUnchanged(t, send(body, 'garbage'), 401);
    await expectRefusedUnchanged(t, send(body, ''), 401);
    // A good signature over another body (the amount raised after signing).
    const signed = signPayload(t.config.payment.providerSecret, raw, clock.now().getTime());
    await expectRefusedUnchanged(t, send({ ...body, amount: 300000 }, signed), 401);
    // A captured callback replayed 10 minutes later, with its own (then good) signature.
    const old = signPayload(t.config.payment.providerSecret, raw, clock.now().getTime() - 10 * 60_000);
    await expectRefusedUnchanged(t, send(body, old), 401);
    await expectRefusedUnchanged(t, send({ ...body, merchant_reference: '00000000-0000-4000-8000-000000000000' }), 404);
    await expectRefusedUnchanged(t, send({ ...body, amount: 30000 }), 409);
    await expectRefusedUnchanged(t, send({ ...body, outcome: 'refund' }), 400);
    expect((await settlementOf(t, u, s.settlement.product_settlement_id)).status).toBe('pending');
    expect(await balanceOf(u)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
  });

  it('card: a declined card and a card failing mid-way fail the settlement with the reason; a bad field keeps the form', async () => {
    const u = await adult();
    const bad = await startPurchase(t, u, 1);
    const typo = await providerStep(t, bad.settlement.payment_url!, 'card', cardFields('4242424242424241'));
    expect(typo.status).toBe(422);
    expect(typo.body).toContain('カード番号を正しく入力してください。');
    const expiredCard = await providerStep(t, bad.settlement.payment_url!, 'card', {
      ...cardFields(CARDS.ok),
      expiry: '01/20',
    });
    expect(expiredCard.body).toContain('有効期限が切れています');
    expect((await settlementOf(t, u, bad.settlement.product_settlement_id)).status).toBe('pending');
    const declined = await providerStep(t, bad.settlement.payment_url!, 'card', cardFields(CARDS.declined));
    expect(declined.status).toBe(303);
    const after = await settlementOf(t, u, bad.settlement.product_settlement_id);
    expect(after).toMatchObject({ status: 'failed', failure_code: 'card_declined', payment_url: null });
    expect(after.failure_info).toBe(PURCHASE_MESSAGES.failure.card_declined);
    // The page of an ended payment cannot be paid again.
    expect((await providerStep(t, bad.settlement.payment_url!, 'card', cardFields(CARDS.ok))).status).toBe(409);
    const fails = await startPurchase(t, u, 1);
    await providerStep(t, fails.settlement.payment_url!, 'card', cardFields(CARDS.fails));
    expect(await settlementOf(t, u, fails.settlement.product_settlement_id)).toMatchObject({
      status: 'failed',
      failure_code: 'processing_error',
    });
    expect(await balanceOf(u)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
  });

  it('3-D Secure: the challenge step; a wrong code says how many tries are left, the right one pays; three wrong fail', async () => {
    const u = await adult();
    const s = await startPurchase(t, u, 1, 'credit_card_3ds');
    const url = s.settlement.payment_url!;
    const card = await providerStep(t, url, 'card', cardFields(CARDS.ok));
    expect(card).toMatchObject({ status: 303, location: url });
    const page = await t.server.app.inject({ method: 'GET', url });
    expect(page.body).toContain('本人認証（3Dセキュア）');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect((await settlementOf(t, u, s.settlement.product_settlement_id)).status).toBe('pending');
    const wrong = await providerStep(t, url, 'challenge', { code: '000000' });
    expect(wrong.body).toContain('あと2回');
    await providerStep(t, url, 'challenge', { code: TEST_3DS_CODE });
    expect((await settlementOf(t, u, s.settlement.product_settlement_id)).status).toBe('completed');
    expect((await balanceOf(u)).tc_all).toBe(500);
    const locked = await startPurchase(t, u, 1, 'credit_card_3ds');
    await providerStep(t, locked.settlement.payment_url!, 'card', cardFields(CARDS.ok));
    for (let i = 0; i < 3; i += 1)
      await providerStep(t, locked.settlement.payment_url!, 'challenge', { code: '999999' });
    expect(await settlementOf(t, u, locked.settlement.product_settlement_id)).toMatchObject({
      status: 'failed',
      failure_code: 'authentication_failed',
    });
  });

  it('cancel on the provider page cancels the settlement; the account-based payment returns to its result page', async () => {
    const u = await adult();
    const s = await startPurchase(t, u, 2);
    const cancelled = await providerStep(t, s.settlement.payment_url!, 'cancel');
    expect(cancelled.location).toBe(`/purchase-return/${s.settlement.product_settlement_id}`);
    expect(await settlementOf(t, u, s.settlement.product_settlement_id)).toMatchObject({
      status: 'cancelled',
      failure_info: PURCHASE_MESSAGES.failure.cancelled,
    });
    const account = await startPurchase(t, u, 2, 'account_payment');
    const bank = await t.server.app.inject({ method: 'GET', url: account.settlement.payment_url! });
    expect(bank.body).toContain('口座振替決済');
    const paid = await providerStep(t, account.settlement.payment_url!, 'confirm');
    expect(paid.location).toBe(`/purchase/account-pay/result/${account.settlement.product_settlement_id}`);
    expect((await settlementOf(t, u, account.settlement.product_settlement_id)).status).toBe('completed');
  });

  it('[R10-2] an abandoned settlement expires as cancelled; a paid callback after that credits nothing', async () => {
    const u = await adult();
    const s = await startPurchase(t, u, 2);
    const body = await paidBody(s.settlement.product_settlement_id, 1000);
    await clock.advanceSettling(DEFAULT_SETTLEMENT_TTL_MS + 61_000, async () => {
      await t.server.services().purchases.expireDue();
    });
    expect(await settlementOf(t, u, s.settlement.product_settlement_id)).toMatchObject({
      status: 'cancelled',
      failure_code: 'expired',
      failure_info: PURCHASE_MESSAGES.failure.expired,
    });
    // The provider's page refuses it too.
    const late = await providerStep(t, s.settlement.payment_url!, 'card', cardFields(CARDS.ok));
    expect(late.status).toBe(409);
    await expectRefusedUnchanged(t, () => callback(body), 409);
    expect(await balanceOf(u)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
  });

  it('[R10-2] a payment completing after its account was deleted credits nobody: the deletion cancelled the purchase, the callback is refused (the provider refunds), and an account deleted before this rule is refused the same way', async () => {
    const u = await createTestUser(t, { birth: '1990-04-01', email: `gone-${Date.now()}@example.jp` });
    const s = await startPurchase(t, u, 2);
    const id = s.settlement.product_settlement_id;
    const body = await paidBody(id, 1000);
    expectOk(await post(t, 'account/delete', as(u, { account_delete: { confirm: 1 } })));
    const [row] = await db().query<{ status: string; failure_code: string }>(
      'SELECT status, failure_code FROM product_settlements WHERE product_settlement_id = $1',
      [id],
    );
    expect(row).toEqual({ status: 'cancelled', failure_code: 'account_deleted' });
    expect((await callback(body)).status).toBe(409);
    expect(await balanceOf(u)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    // A settlement left pending by a deletion made before this rule: the callback finds the
    // account gone, cancels it and is refused; nothing is credited.
    const v = await createTestUser(t, { birth: '1990-04-01' });
    const w = await startPurchase(t, v, 2);
    const late = await paidBody(w.settlement.product_settlement_id, 1000);
    await db().query('UPDATE users SET deleted_at = $2 WHERE user_id = $1', [v.user_id, clock.now().toISOString()]);
    const refused = await callback(late);
    expect(refused.status).toBe(409);
    expect(refused.json.error_info).toMatch(/削除/);
    expect(await balanceOf(v)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    const [closed] = await db().query<{ status: string; failure_code: string }>(
      'SELECT status, failure_code FROM product_settlements WHERE product_settlement_id = $1',
      [w.settlement.product_settlement_id],
    );
    expect(closed).toEqual({ status: 'cancelled', failure_code: 'account_deleted' });
  });

  it('[R10-2] a callback the service never got: the expiry asks the provider, completes it once, and the retry then credits nothing', async () => {
    const u = await adult();
    const provider = t.server.services().provider;
    let taken = false;
    provider.start(async () => 503); // the service is unreachable
    try {
      const s = await startPurchase(t, u, 2);
      await providerStep(t, s.settlement.payment_url!, 'card', cardFields(CARDS.ok));
      expect((await settlementOf(t, u, s.settlement.product_settlement_id)).status).toBe('pending');
      await clock.advanceSettling(DEFAULT_SETTLEMENT_TTL_MS + 61_000, async () => {
        await t.server.services().purchases.expireDue();
      });
      expect((await settlementOf(t, u, s.settlement.product_settlement_id)).status).toBe('completed');
      expect((await balanceOf(u)).tc_all).toBe(1050);
      // The service is back: the provider's retry arrives and is a repeat.
      provider.start(async (body, signature) => {
        const res = await t.server.app.inject({
          method: 'POST',
          url: '/api/purchase/provider_callback',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
          payload: body,
        });
        taken = res.statusCode === 200;
        return res.statusCode;
      });
      await clock.advanceSettling(2 * HOUR_MS, () => provider.deliverDue());
      expect(taken).toBe(true);
      expect((await balanceOf(u)).tc_all).toBe(1050);
    } finally {
      provider.start(
        async (body, signature) =>
          (
            await t.server.app.inject({
              method: 'POST',
              url: '/api/purchase/provider_callback',
              headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
              payload: body,
            })
          ).statusCode,
      );
    }
  });

  it('analytics: buy_tc with the price is handed out once per settlement, conversion only for the first purchase', async () => {
    const u = await adult();
    const first = await buyTc(t, u, 2);
    const claims = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t, 'purchase/settlement_report', as(u, { product_settlement_id: first.product_settlement_id })),
      ),
    );
    const reports = claims.map((c) => settlementReportResponseSchema.parse(c.json));
    expect(reports.filter((r) => r.buy_tc !== null)).toEqual([
      { error_code: 200, error_info: '', buy_tc: { price: 1000 }, conversion: true },
    ]);
    const second = await buyTc(t, u, 1);
    const r2 = settlementReportResponseSchema.parse(
      expectOk(
        await post(t, 'purchase/settlement_report', as(u, { product_settlement_id: second.product_settlement_id })),
      ),
    );
    expect(r2).toMatchObject({ buy_tc: { price: 500 }, conversion: false });
  });
});

describe("the player's own spending limit [R10-3]", () => {
  const limitOf = async (u: TestUser) =>
    spendingLimitResponseSchema.parse(expectOk(await post(t, 'purchase/spending_limit', as(u)))).spending_limit;
  const setLimit = async (u: TestUser, limit_yen: number | null) =>
    spendingLimitResponseSchema.parse(
      expectOk(await post(t, 'purchase/spending_limit/set', as(u, { spending_limit: { limit_yen } }))),
    ).spending_limit;

  it('[R10-3] lowering takes effect at once, raising after 24 hours; a purchase over it is refused before the provider is called', async () => {
    const u = await adult();
    expect(await limitOf(u)).toMatchObject({ limit_yen: null, cap_yen: null, spent_yen: 0, remaining_yen: null });
    expect(await setLimit(u, 3000)).toMatchObject({
      limit_yen: 3000,
      pending: null,
      cap_yen: 3000,
      remaining_yen: 3000,
    });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(u, { purchase: { product_id: 4, pay_method: 'credit_card' } })),
      409,
    );
    expect(r.json.error_info).toBe(PURCHASE_MESSAGES.ownMonthlyLimit(3000, 0));
    const raised = await setLimit(u, 50_000);
    expect(raised).toMatchObject({ limit_yen: 3000, cap_yen: 3000 });
    expect(raised.pending).toEqual({
      limit_yen: 50_000,
      effective_at: new Date(clock.now().getTime() + DAY_MS).toISOString(),
    });
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(u, { purchase: { product_id: 4, pay_method: 'credit_card' } })),
      409,
    );
    clock.advance(23 * HOUR_MS);
    expect((await limitOf(u)).cap_yen).toBe(3000);
    clock.advance(HOUR_MS);
    expect(await limitOf(u)).toMatchObject({ limit_yen: 50_000, pending: null, cap_yen: 50_000 });
    expect((await buyTc(t, u, 4)).status).toBe('completed');
    // Lowering again is at once and drops a pending raise; removing waits like a raise.
    await setLimit(u, null);
    expect(await setLimit(u, 6000)).toMatchObject({
      limit_yen: 6000,
      pending: null,
      spent_yen: 5000,
      remaining_yen: 1000,
    });
    expect((await setLimit(u, null)).pending).toMatchObject({ limit_yen: null });
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/spending_limit/set', as(u, { spending_limit: { limit_yen: 100 } })),
      400,
    );
  });

  it("[R10-3] the lower of the player's limit and the minors' cap applies", async () => {
    const year = new Date(clock.now()).getUTCFullYear();
    const teen = await createTestUser(t, { birth: `${year - 14}-01-01` });
    expect(await setLimit(teen, 10_000)).toMatchObject({ minor_limit_yen: 5000, cap_yen: 5000 });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(teen, { purchase: { product_id: 6, pay_method: 'credit_card' } })),
      409,
    );
    expect(r.json.error_info).toBe(PURCHASE_MESSAGES.minorMonthlyLimit(5000, 0));
    expect(await setLimit(teen, 1000)).toMatchObject({ cap_yen: 1000 });
    const own = await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(teen, { purchase: { product_id: 3, pay_method: 'credit_card' } })),
      409,
    );
    expect(own.json.error_info).toBe(PURCHASE_MESSAGES.ownMonthlyLimit(1000, 0));
  });

  it('[R10-3] the limit holds under 50 concurrent purchases (counted before the provider)', async () => {
    const u = await adult();
    await setLimit(u, 10_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(t, 'purchase/tc', as(u, { purchase: { product_id: 2, pay_method: 'credit_card' } })),
      ),
    );
    expect(answers.filter((a) => a.json.error_code === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(40);
    const [{ n, payments }] = (await db().query<{ n: number; payments: number }>(
      `SELECT count(*)::int AS n, count(provider_payment_id)::int AS payments FROM product_settlements WHERE user_id = $1`,
      [u.user_id],
    )) as [{ n: number; payments: number }];
    expect({ n, payments }).toEqual({ n: 10, payments: 10 });
    expect((await limitOf(u)).remaining_yen).toBe(0);
  });
});

describe('TC used history and VIP by purchases', () => {
  it('lists every ledger operation newest first with the free/paid split, paged', async () => {
    const u = await adult();
    await buyTc(t, u, 5);
    await t.server
      .services()
      .ledger.debit(u.user_id, { amount: 2500, reason: 'play', reference: 'play:1', idempotencyKey: 'play:test-1' });
    const page = tcHistoryResponseSchema.parse(expectOk(await post(t, 'purchase/tc_history', as(u)))).history;
    expect(page.list.map((e) => [e.reason, e.free_delta, e.toll_delta, e.balance_after])).toEqual([
      ['play', -2000, -500, 9500],
      ['purchase', 2000, 10000, 12000],
    ]);
    expect(page.has_more).toBe(0);
    for (let i = 0; i < 20; i += 1)
      await t.server
        .services()
        .ledger.debit(u.user_id, { amount: 10, reason: 'play', idempotencyKey: `play:many-${i}` });
    const first = tcHistoryResponseSchema.parse(expectOk(await post(t, 'purchase/tc_history', as(u)))).history;
    expect(first).toMatchObject({ page: 1, has_more: 1 });
    expect(first.list).toHaveLength(20);
    const second = tcHistoryResponseSchema.parse(
      expectOk(await post(t, 'purchase/tc_history', as(u, { page: 2 }))),
    ).history;
    expect(second.list.map((e) => e.reason)).toEqual(['play', 'purchase']);
    const other = await adult();
    const theirs = tcHistoryResponseSchema.parse(expectOk(await post(t, 'purchase/tc_history', as(other)))).history;
    expect(theirs.list).toEqual([]);
  });

  it('[R6-3][R2.6-4] 100,000 TC bought within 30 days makes the player VIP at once; VIP ends when the window no longer holds', async () => {
    const u = await adult();
    const vipLevel = async () =>
      userDataResponseSchema.parse(expectOk(await post(t, 'user/user_data', as(u)))).user_data.login_info.vip_level;
    await buyTc(t, u, 7);
    expect(await vipLevel()).toBe(0);
    clock.advance(10 * DAY_MS);
    await buyTc(t, u, 7);
    expect(await vipLevel()).toBe(1);
    clock.advance(20 * DAY_MS - 60_000);
    expect(await vipLevel()).toBe(1);
    clock.advance(120_000);
    expect(await vipLevel()).toBe(0);
  });
});

describe('payments across a restart', () => {
  it('[R10-2] a callback not taken before a restart is delivered after it, and the settlement completes once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'onkure-payments-'));
    const env = { DATA_DIR: dir, PAYMENT_PROVIDER_SECRET: 'a-test-secret-for-the-restart-0123456789' };
    const start = new Date('2026-11-12T03:00:00Z');
    const first = await startTestServer({ env, clock: new ManualServerClock(start) });
    let second: TestServer | null = null;
    try {
      const u = await createTestUser(first, { birth: '1990-04-01' });
      first.server.services().provider.start(async () => 503); // the service does not answer
      const s = await startPurchase(first, u, 2);
      await providerStep(first, s.settlement.payment_url!, 'card', cardFields(CARDS.ok));
      expect((await settlementOf(first, u, s.settlement.product_settlement_id)).status).toBe('pending');
      await first.close();

      second = await startTestServer({ env, clock: new ManualServerClock(new Date(start.getTime() + 60_000)) });
      // The first call waits for the recovery, which starts the provider's delivery of what is due.
      expect((await settlementOf(second, u, s.settlement.product_settlement_id)).status).not.toBe('failed');
      await second.server.services().provider.deliverDue();
      expect((await settlementOf(second, u, s.settlement.product_settlement_id)).status).toBe('completed');
      await second.server.services().provider.deliverDue();
      expect(await new Ledger(second.server.store(), clock).balance(u.user_id)).toEqual({
        tc_all: 1050,
        tc_free: 50,
        tc_toll: 1000,
      });
    } finally {
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
