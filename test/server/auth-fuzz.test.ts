import { afterAll, beforeAll, describe } from 'vitest';
import { loginResponseSchema } from '../../src/contract';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, post } from './user-helpers';

let t: TestServer;
let u: TestUser;
let leaving: TestUser;
let changer: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t, { email: 'fuzz-auth@example.jp' });
  leaving = await createTestUser(t);
  await post(t, 'auth/signup', { email: 'fuzz-login@example.jp', password: 'kurekure2024' });
  changer = loginResponseSchema.parse(
    (await post(t, 'auth/signup', { email: 'fuzz-change@example.jp', password: 'kurekure2024' })).json,
  );
});
afterAll(async () => t?.close());

describe('fuzzing the auth calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const cases: FuzzPost[] = [
    ['auth/signup', () => ({ email: 'fuzz-new@example.jp', password: 'kurekure2024' })],
    ['auth/login', () => ({ email: 'fuzz-login@example.jp', password: 'kurekure2024' })],
    ['auth/logout', () => as(leaving)],
    ['auth/debug_login', () => ({ name: 'fuzzer' })],
    ['auth/email/status', () => as(u)],
    ['auth/email/send_code', () => as(u, { email_verify: { email: 'fuzz-next@example.jp' } })],
    ['auth/email/verify', () => as(u, { email_verify: { code: '123456' } })],
    ['auth/dev_outbox', () => as(u)],
    [
      'auth/password/change',
      () => as(changer, { password_change: { current_password: 'kurekure2024', new_password: 'kurekure2025' } }),
    ],
    ['auth/password/reset_request', () => ({ email: 'fuzz-login@example.jp' })],
    ['auth/password/reset', () => ({ email: 'fuzz-login@example.jp', code: '123456', password: 'kurekure2025' })],
    ['auth/dev_mailbox', () => ({ recipient: 'fuzz-login@example.jp' })],
  ];
  itFuzzesPosts(() => t, cases, { minRefused: 30, timeoutMs: 180_000 });
});
