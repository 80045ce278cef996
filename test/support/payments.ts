import { purchaseTcResponseSchema, settlementResultResponseSchema } from '../../src/contract';
import { TEST_3DS_CODE } from '../../server/payment/provider/simulated-provider';
import type { TestServer } from './test-server';
import type { TestUser } from './users';

/** The test cards of the simulated provider, by what they do. */
export const CARDS = { ok: '4242424242424242', declined: '4000000000000002', fails: '4000000000000119' } as const;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Posts one step of the provider's hosted page as a browser form would; answers status and Location. */
export async function providerStep(
  t: TestServer,
  paymentUrl: string,
  step: 'card' | 'challenge' | 'confirm' | 'cancel',
  fields: Record<string, string> = {},
): Promise<{ status: number; location: string | undefined; body: string }> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `${paymentUrl}/${step}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });
  return { status: res.statusCode, location: res.headers.location as string | undefined, body: res.body };
}

/** The card form filled with `number` (a valid expiry, CVC and holder). */
export const cardFields = (number: string) => ({ number, expiry: '12/39', cvc: '123', holder: 'HANAKO YAMADA' });

/** Starts a purchase (a pending settlement with its payment page). */
export async function startPurchase(
  t: TestServer,
  user: TestUser,
  productId: number,
  payMethod = 'credit_card',
  requestId?: string,
) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/purchase/tc',
    headers: { 'content-type': 'application/json' },
    payload: {
      user_id: user.user_id,
      access_token: user.access_token,
      purchase: { product_id: productId, pay_method: payMethod, ...(requestId ? { request_id: requestId } : {}) },
    },
  });
  return purchaseTcResponseSchema.parse(res.json());
}

/** Reads a settlement as its player. */
export async function settlementOf(t: TestServer, user: TestUser, id: string) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/purchase/settlement_result',
    headers: { 'content-type': 'application/json' },
    payload: { user_id: user.user_id, access_token: user.access_token, product_settlement_id: id },
  });
  return settlementResultResponseSchema.parse(res.json()).settlement;
}

/**
 * Buys `productId` all the way, as a player would: the purchase, then the provider's page paid with
 * the success card (and the 3-D Secure code for credit_card_3ds, the confirm button for the others).
 * Answers the settlement as it stands after the provider's callback.
 */
export async function buyTc(t: TestServer, user: TestUser, productId: number, payMethod = 'credit_card') {
  const started = await startPurchase(t, user, productId, payMethod);
  const url = started.settlement.payment_url;
  if (!url) throw new Error(`no payment page: ${JSON.stringify(started.settlement)}`);
  if (payMethod === 'credit_card' || payMethod === 'credit_card_3ds') {
    await providerStep(t, url, 'card', cardFields(CARDS.ok));
    if (payMethod === 'credit_card_3ds') await providerStep(t, url, 'challenge', { code: TEST_3DS_CODE });
  } else await providerStep(t, url, 'confirm');
  return settlementOf(t, user, started.settlement.product_settlement_id);
}
