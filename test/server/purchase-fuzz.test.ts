import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, post } from './user-helpers';

let t: TestServer;
let u: TestUser;
let settlementId: string;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t, { birth: '1990-01-01' });
  const bought = await post(t, 'purchase/tc', as(u, { purchase: { product_id: 1, pay_method: 'credit_card' } }));
  settlementId = (bought.json.settlement as { product_settlement_id: string }).product_settlement_id;
});
afterAll(async () => t?.close());

describe('fuzzing the purchase calls: 200 requests each, no 5xx, refusals change nothing', () => {
  it('GET /purchase/pay_method_list/{junk user_id}', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      {
        method: 'GET',
        url: (junk) => `/api/purchase/pay_method_list/${junk}`,
        headers: { 'x-access-token': u.access_token },
      },
      200,
    );
    expect(refused).toBeGreaterThan(150);
  }, 120_000);

  it('GET /mobile/items/{user_id}?payMethod={junk}', async () => {
    const { refused, accepted } = await fuzzEndpoint(
      t,
      {
        method: 'GET',
        url: (junk) => `/api/mobile/items/${u.user_id}?payMethod=${junk}`,
        headers: { 'x-access-token': u.access_token },
      },
      200,
    );
    expect(refused).toBeGreaterThan(150);
    expect(refused + accepted).toBe(200);
  }, 120_000);

  it('GET /mobile/items/{junk user_id}', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      { method: 'GET', url: (junk) => `/api/mobile/items/${junk}`, headers: { 'x-access-token': u.access_token } },
      200,
    );
    expect(refused).toBeGreaterThan(150);
  }, 120_000);

  it('POST /purchase/tc', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      {
        method: 'POST',
        url: '/api/purchase/tc',
        validBody: as(u, { purchase: { product_id: 2, pay_method: 'credit_card_3ds', request_id: 'fuzz-request-1' } }),
      },
      200,
    );
    expect(refused).toBeGreaterThan(50);
  }, 120_000);

  it('POST /purchase/settlement_result', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      {
        method: 'POST',
        url: '/api/purchase/settlement_result',
        validBody: as(u, { product_settlement_id: settlementId }),
      },
      200,
    );
    expect(refused).toBeGreaterThan(50);
  }, 120_000);

  it('POST /purchase/settlement_report', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      {
        method: 'POST',
        url: '/api/purchase/settlement_report',
        validBody: as(u, { product_settlement_id: settlementId }),
      },
      200,
    );
    expect(refused).toBeGreaterThan(50);
  }, 120_000);

  it('[R10-3] POST /purchase/spending_limit/set', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      {
        method: 'POST',
        url: '/api/purchase/spending_limit/set',
        validBody: as(u, { spending_limit: { limit_yen: 20000 } }),
      },
      200,
    );
    expect(refused).toBeGreaterThan(50);
  }, 120_000);

  it('POST /purchase/tc_history', async () => {
    const { refused } = await fuzzEndpoint(
      t,
      { method: 'POST', url: '/api/purchase/tc_history', validBody: as(u, { page: 1 }) },
      200,
    );
    expect(refused).toBeGreaterThan(50);
  }, 120_000);

  it('[R10-2] POST /purchase/provider_callback without a signature: every body is refused and changes nothing', async () => {
    const { refused, accepted } = await fuzzEndpoint(
      t,
      {
        method: 'POST',
        url: '/api/purchase/provider_callback',
        validBody: {
          event_id: 'evt-1',
          payment_id: '00000000-0000-4000-8000-000000000001',
          merchant_reference: settlementId,
          outcome: 'paid',
          amount: 500,
          failure_code: null,
          occurred_at: '2026-11-25T00:00:00.000Z',
        },
      },
      200,
    );
    expect({ refused, accepted }).toEqual({ refused: 200, accepted: 0 });
  }, 120_000);
});
