import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, post } from './user-helpers';

let t: TestServer;
let u: TestUser;
let leaving: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t, { email: 'fuzz-auth@example.jp' });
  leaving = await createTestUser(t);
  await post(t, 'auth/signup', { email: 'fuzz-login@example.jp', password: 'kurekure2024' });
});
afterAll(async () => t?.close());

describe('fuzzing the auth calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const cases: [string, () => Record<string, unknown>][] = [
    ['auth/signup', () => ({ email: 'fuzz-new@example.jp', password: 'kurekure2024' })],
    ['auth/login', () => ({ email: 'fuzz-login@example.jp', password: 'kurekure2024' })],
    ['auth/logout', () => as(leaving)],
    ['auth/debug_login', () => ({ name: 'fuzzer' })],
    ['auth/email/status', () => as(u)],
    ['auth/email/send_code', () => as(u, { email_verify: { email: 'fuzz-next@example.jp' } })],
    ['auth/email/verify', () => as(u, { email_verify: { code: '123456' } })],
    ['auth/dev_outbox', () => as(u)],
  ];
  for (const [path, validBody] of cases) {
    it(`POST /${path}`, async () => {
      const { refused, accepted } = await fuzzEndpoint(
        t,
        { method: 'POST', url: `/api/${path}`, validBody: validBody() },
        200,
      );
      expect(refused).toBeGreaterThan(30);
      expect(refused + accepted).toBe(200);
    }, 180_000);
  }
});
