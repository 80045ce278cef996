import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payMethodListResponseSchema } from '../../src/contract';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, get, post } from './user-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { ONKURE_TARGET: 'ios' } });
});
afterAll(async () => t?.close());

describe('pay methods on an ios build', () => {
  it('[R9-6][R3-12] omit the device wallet and keep the account-based payment with rank 3', async () => {
    const u = await createTestUser(t, { birth: '1990-01-01' });
    const body = payMethodListResponseSchema.parse(
      expectOk(await get(t, `purchase/pay_method_list/${u.user_id}`, u.access_token)),
    );
    const kinds = body.list.map((m) => m.kind);
    expect(kinds).not.toContain('device_wallet');
    expect(kinds.slice(0, 3)).toEqual(['credit_card', 'credit_card_3ds', 'account_payment']);
    expect(body.list.find((m) => m.kind === 'account_payment')!.rank_id).toBe(3);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'purchase/tc', as(u, { purchase: { product_id: 1, pay_method: 'device_wallet' } })),
      400,
    );
  });
});
