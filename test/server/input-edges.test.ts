import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFingerprint } from '../support/store-fingerprint';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let user: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  user = await createTestUser(t);
});
afterAll(async () => t?.close());

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const before = await storeFingerprint(t.server.store());
  const res = await t.server.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  expect(res.statusCode).toBeLessThan(500);
  expect(await storeFingerprint(t.server.store())).toBe(before);
  return { status: res.statusCode, body: res.json() as { error_code: number; error_info: string } };
}

describe('inputs at the edges of what the store can hold', () => {
  it('a user_id beyond a PostgreSQL integer names no user: 401, not a database error', async () => {
    for (const user_id of [2_147_483_648, 9_999_999_999, Number.MAX_SAFE_INTEGER]) {
      const res = await call('POST', '/api/user/tc', { user_id, access_token: user.access_token });
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe(401);
    }
    for (const id of ['2147483648', '9999999999']) {
      expect(
        (await call('GET', `/api/mobile/items/${id}`, undefined, { 'x-access-token': user.access_token })).status,
      ).toBe(401);
      expect(
        (await call('GET', `/api/purchase/pay_method_list/${id}`, undefined, { 'x-access-token': user.access_token }))
          .status,
      ).toBe(401);
    }
  });

  it('a NUL character in a body is refused with a Japanese error_info (schemas, or the data-exception net), never a 5xx', async () => {
    for (const [url, body] of [
      ['/api/auth/signup', { email: 'a\u0000@example.jp', password: 'password123' }],
      ['/api/auth/login', { email: 'a\u0000@example.jp', password: 'x' }],
      [
        '/api/account/nickname/set',
        { user_id: user.user_id, access_token: user.access_token, nickname: { nickname: 'くま\u0000' } },
      ],
    ] as const) {
      const res = await call('POST', url, body);
      expect(res.status, url).toBe(400);
      expect(res.body.error_info).toMatch(/[\u3040-\u30ff]/);
    }
  });

  it('the signed-in identity still works after the refusals', async () => {
    const res = await call('POST', '/api/user/tc', { user_id: user.user_id, access_token: user.access_token });
    expect(res.status).toBe(200);
    expect(res.body.error_code).toBe(200);
  });
});
