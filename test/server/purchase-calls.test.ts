import { SERVER_MESSAGES } from '../../server/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mobileItemsResponseSchema,
  payMethodListResponseSchema,
  payMethodsFor,
  purchaseTcResponseSchema,
  settlementResultResponseSchema,
} from '../../src/contract';
import { type BUILD_TARGETS } from '../../src/domain';
import { Ledger } from '../../server/wallet/ledger';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, get, post } from './user-helpers';
import { systemClock } from '../../server/clock';
import { buyTc, cardFields, CARDS, providerStep, startPurchase } from '../support/payments';

let t: TestServer;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  a = await createTestUser(t, { birth: '1990-01-01' });
  b = await createTestUser(t);
});
afterAll(async () => t?.close());

const kinds = (target: (typeof BUILD_TARGETS)[number]) => payMethodsFor(target, () => '').map((m) => m.kind);

describe('pay methods', () => {
  it('[R9-6][R6-7] orders web, ios and the other targets as the spec says', () => {
    const web = kinds('web');
    expect(web.slice(0, 4)).toEqual(['credit_card', 'credit_card_3ds', 'device_wallet', 'account_payment']);
    expect([...new Set(web.slice(4))]).toEqual(['mobile_payment', 'carrier_billing', 'e_money']);
    expect(kinds('ios')).toEqual(web.filter((k) => k !== 'device_wallet'));
    for (const target of ['android', 'yahoo', 'mobage'] as const)
      expect(kinds(target)).toEqual(web.filter((k) => k !== 'device_wallet' && k !== 'account_payment'));
    const rank = (k: string) => payMethodsFor('web', () => '').find((m) => m.kind === k)!.rank_id;
    expect(rank('device_wallet')).toBe(3);
    expect(rank('account_payment')).toBe(3);
  });

  it('[R7-6][R3-12][R9-6] GET /purchase/pay_method_list/{user_id} answers name, info, imgUrl, rank_id 0-3 for the web build', async () => {
    const body = payMethodListResponseSchema.parse(
      expectOk(await get(t, `purchase/pay_method_list/${a.user_id}`, a.access_token)),
    );
    expect(body.list.map((m) => m.kind)).toEqual(kinds('web'));
    expect(body.list[0]).toMatchObject({ name: 'クレジットカード', rank_id: 0 });
    expect(body.list[1]!.name).toBe('3Dセキュア対応クレジットカード');
    for (const m of body.list) {
      expect(m.name).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      const img = await t.server.app.inject({ method: 'GET', url: m.imgUrl });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toContain('image/svg+xml');
    }
  });

  it("GET calls need the X-Access-Token of the path's own user", async () => {
    for (const path of [`purchase/pay_method_list/${a.user_id}`, `mobile/items/${a.user_id}`]) {
      await expectRefusedUnchanged(t, () => get(t, path), 401);
      await expectRefusedUnchanged(t, () => get(t, path, b.access_token), 401);
      await expectRefusedUnchanged(t, () => get(t, path.replace(String(a.user_id), 'abc'), a.access_token), 401);
    }
    const suspended = await createTestUser(t, { status: 2 });
    const r = await expectRefusedUnchanged(
      t,
      () => get(t, `mobile/items/${suspended.user_id}`, suspended.access_token),
      403,
    );
    expect(r.json.error_code).toBe(9002);
  });
});

describe('TC products', () => {
  it('[R7-6][R3-11][R9-7] GET /mobile/items/{user_id} answers products with toll_tc, free_tc and bonus labels', async () => {
    const body = mobileItemsResponseSchema.parse(expectOk(await get(t, `mobile/items/${a.user_id}`, a.access_token)));
    expect(body.list.length).toBeGreaterThan(3);
    const p = body.list.find((x) => x.free_tc === 2000)!;
    expect(p.bonus_label).toBe('2,000ボーナス');
    expect(body.list.find((x) => x.free_tc === 0)!.bonus_label).toBeNull();
    expect(body.registered_birth).toBe(1);
    expect(body.is_tc_sale).toBe(1);
    expect(body.is_ticket_present).toBe(1);
    expect(body.bonus_item_list.length).toBeGreaterThan(0);
    const noBirth = mobileItemsResponseSchema.parse(
      expectOk(await get(t, `mobile/items/${b.user_id}`, b.access_token)),
    );
    expect(noBirth.registered_birth).toBe(0);
  });

  it('filters by payMethod: carrier billing offers only products up to its cap; an unknown method is refused', async () => {
    const all = mobileItemsResponseSchema.parse(
      expectOk(await get(t, `mobile/items/${a.user_id}?payMethod=credit_card`, a.access_token)),
    );
    const carrier = mobileItemsResponseSchema.parse(
      expectOk(await get(t, `mobile/items/${a.user_id}?payMethod=carrier_billing_a`, a.access_token)),
    );
    expect(carrier.list.length).toBeLessThan(all.list.length);
    expect(carrier.list.every((p) => p.price <= 10_000)).toBe(true);
    await expectRefusedUnchanged(t, () => get(t, `mobile/items/${a.user_id}?payMethod=gold_bars`, a.access_token), 400);
  });
});

describe('TC purchase', () => {
  it('[R10-2] opens a pending settlement with the provider page; paying there credits toll_tc + free_tc through the ledger once', async () => {
    const r = purchaseTcResponseSchema.parse(
      expectOk(
        await post(
          t,
          'purchase/tc',
          as(a, { purchase: { product_id: 5, pay_method: 'credit_card', request_id: 'req-0001-abcd' } }),
        ),
      ),
    );
    expect(r.settlement).toMatchObject({
      product_id: 5,
      price: 10000,
      toll_tc: 10000,
      free_tc: 2000,
      status: 'pending',
    });
    expect(r.settlement.payment_url).toMatch(/^\/provider\/pay\/[0-9a-f-]{36}$/);
    expect(r.tc).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    const paid = await providerStep(t, r.settlement.payment_url!, 'card', cardFields(CARDS.ok));
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/purchase-return/${r.settlement.product_settlement_id}`);
    // The same request_id never buys twice: it answers the settlement, now completed.
    const again = purchaseTcResponseSchema.parse(
      expectOk(
        await post(
          t,
          'purchase/tc',
          as(a, { purchase: { product_id: 5, pay_method: 'credit_card', request_id: 'req-0001-abcd' } }),
        ),
      ),
    );
    expect(again.settlement.product_settlement_id).toBe(r.settlement.product_settlement_id);
    expect(again.settlement.status).toBe('completed');
    expect(again.settlement.payment_url).toBeNull();
    expect(again.tc).toEqual({ tc_all: 12000, tc_free: 2000, tc_toll: 10000 });
    const ledger = new Ledger(t.server.store(), systemClock);
    expect(await ledger.fromRows(a.user_id)).toEqual({ tc_free: 2000, tc_toll: 10000, ticket: 2 });
    const result = settlementResultResponseSchema.parse(
      expectOk(
        await post(
          t,
          'purchase/settlement_result',
          as(a, { product_settlement_id: r.settlement.product_settlement_id }),
        ),
      ),
    );
    expect(result.settlement.status).toBe('completed');
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/settlement_result', as(b, { product_settlement_id: r.settlement.product_settlement_id })),
      404,
    );
  });

  it('refuses a request_id resent with another product or pay method (409, nothing bought); the same one replays', async () => {
    const first = purchaseTcResponseSchema.parse(
      expectOk(
        await post(
          t,
          'purchase/tc',
          as(a, { purchase: { product_id: 5, pay_method: 'credit_card', request_id: 'req-0002-idem' } }),
        ),
      ),
    );
    for (const purchase of [
      { product_id: 6, pay_method: 'credit_card' },
      { product_id: 5, pay_method: 'credit_card_3ds' },
    ]) {
      const r = await expectRefusedUnchanged(
        t,
        () => post(t, 'purchase/tc', as(a, { purchase: { ...purchase, request_id: 'req-0002-idem' } })),
        409,
      );
      expect(r.json.error_code).toBe(409);
      expect(r.json.error_info).toBe(SERVER_MESSAGES.purchaseRequestIdReused);
    }
    const replay = purchaseTcResponseSchema.parse(
      expectOk(
        await post(
          t,
          'purchase/tc',
          as(a, { purchase: { product_id: 5, pay_method: 'credit_card', request_id: 'req-0002-idem' } }),
        ),
      ),
    );
    expect(replay.settlement).toEqual(first.settlement);
    expect(replay.tc).toEqual(first.tc);
  });

  it('[R6-1][R2.5-5] refuses a guest, a user without a birth date, and unknown products or methods', async () => {
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', { purchase: { product_id: 1, pay_method: 'credit_card' } }),
      401,
    );
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(b, { purchase: { product_id: 1, pay_method: 'credit_card' } })),
      409,
    );
    expect(r.json.error_info).toMatch(/生年月日/);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(a, { purchase: { product_id: 999, pay_method: 'credit_card' } })),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(a, { purchase: { product_id: 7, pay_method: 'carrier_billing_a' } })),
      400,
    );
    await expectRefusedUnchanged(
      t,
      () =>
        post(t, 'purchase/tc', {
          user_id: a.user_id,
          access_token: b.access_token,
          purchase: { product_id: 1, pay_method: 'credit_card' },
        }),
      401,
    );
  });

  it("caps a minor's purchases per month", async () => {
    const year = new Date().getUTCFullYear();
    const teen = await createTestUser(t, { birth: `${year - 14}-01-01` });
    expect((await buyTc(t, teen, 3)).status).toBe('completed');
    // A payment under way counts too: 3,000 bought + 1,000 being paid; another 3,000 would pass the
    // 5,000 yen monthly cap of an under-16.
    expect((await startPurchase(t, teen, 2)).settlement.status).toBe('pending');
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(teen, { purchase: { product_id: 3, pay_method: 'credit_card' } })),
      409,
    );
    expect(r.json.error_info).toMatch(/未成年/);
  });
});
