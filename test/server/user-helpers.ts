import { expect } from 'vitest';
import { storeFingerprint } from '../support/store-fingerprint';
import type { TestServer } from '../support/test-server';
import type { TestUser } from '../support/users';

/** Shared helpers of the user/account/wallet server tests. */

export const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

export interface Answer {
  status: number;
  json: Record<string, unknown> & { error_code: number; error_info: string };
}

export async function post(t: TestServer, path: string, body: unknown): Promise<Answer> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload: body as object,
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, json: res.json() };
}

export async function get(t: TestServer, path: string, token?: string): Promise<Answer> {
  const res = await t.server.app.inject({
    method: 'GET',
    url: `/api/${path}`,
    headers: token ? { 'x-access-token': token } : {},
  });
  return { status: res.statusCode, json: res.json() };
}

/** Identity fields of a user for a POST body [R3-1]. */
export const as = (u: TestUser, extra: Record<string, unknown> = {}) => ({
  user_id: u.user_id,
  access_token: u.access_token,
  ...extra,
});

/** Sends a request that must be refused with a Japanese error_info and must leave the store unchanged. */
export async function expectRefusedUnchanged(
  t: TestServer,
  send: () => Promise<Answer>,
  status?: number,
): Promise<Answer> {
  const before = await storeFingerprint(t.server.store());
  const a = await send();
  expect(a.json.error_code, JSON.stringify(a.json)).not.toBe(200);
  if (status !== undefined) expect(a.status, JSON.stringify(a.json)).toBe(status);
  expect(a.status).toBeGreaterThanOrEqual(400);
  expect(a.status).toBeLessThan(500);
  expect(a.json.error_info).toMatch(JAPANESE);
  expect(await storeFingerprint(t.server.store())).toBe(before);
  return a;
}

/** Asserts a success answer (error_code 200) and returns it. */
export function expectOk(a: Answer): Answer['json'] {
  expect(a.json.error_code, JSON.stringify(a.json)).toBe(200);
  expect(a.status).toBe(200);
  return a.json;
}

export const validAddress = (over: Record<string, unknown> = {}) => ({
  last_name: '山田',
  first_name: '花子',
  zip: '150-0001',
  address1: '東京都',
  address2: '渋谷区神宮前1-2-3',
  address3: 'オンクレハイツ101',
  tel: '090-1234-5678',
  email: 'hanako@example.jp',
  ...over,
});
