import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_LOGIN_FAILURES } from '../../server/auth/account-auth.service';
import { DEFAULT_RATE_LIMITS } from '../../server/http/rate-limit';
import { startTestServer, type TestServer } from '../support/test-server';
import type { Answer } from './user-helpers';
import type * as PasswordModule from '../../server/auth/password';

// Counts every password verification the server runs (the slow check the limit must guard).
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../server/auth/password', async (importOriginal) => {
  const real = await importOriginal<typeof PasswordModule>();
  return {
    ...real,
    verifyPassword: async (...args: Parameters<typeof real.verifyPassword>) => {
      verifications.count += 1;
      return real.verifyPassword(...args);
    },
  };
});

async function login(t: TestServer, email: string, password: string, ip: string): Promise<Answer> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
  return { status: res.statusCode, json: res.json() };
}

async function signup(t: TestServer, email: string, password: string): Promise<void> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password },
    headers: { 'content-type': 'application/json' },
    remoteAddress: '10.9.9.9',
  });
  expect(res.statusCode).toBe(200);
}

describe('login attempt limit (issue 7 §5.1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
  });
  afterAll(async () => t?.close());

  it('300 concurrent logins for one e-mail run at most the limit of password checks; the right password beyond it is refused', async () => {
    await signup(t, 'victim@example.jp', 'right-pass1');
    verifications.count = 0;
    const passwords = Array.from({ length: 300 }, (_, i) => (i === 150 ? 'right-pass1' : `wrong-pass${i}`));
    const answers = await Promise.all(passwords.map((p) => login(t, 'victim@example.jp', p, '203.0.113.7')));
    expect(verifications.count).toBeLessThanOrEqual(MAX_LOGIN_FAILURES);
    // The right password was sent 151st: past the limit, so it is refused like every other late guess.
    expect(answers[150]!.status).toBe(429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(0);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX_LOGIN_FAILURES);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.json.error_code).toBe(429);
      expect(a.json.error_info).toMatch(/[\u3040-\u30ff]/);
    }
  });

  it("a stranger's wrong passwords from another client do not stop the owner logging in from theirs", async () => {
    await signup(t, 'owner@example.jp', 'owner-pass1');
    for (let i = 0; i < MAX_LOGIN_FAILURES + 5; i++) await login(t, 'owner@example.jp', `guess-${i}x`, '198.51.100.66');
    expect((await login(t, 'owner@example.jp', 'owner-pass1', '198.51.100.66')).status).toBe(429);
    const owner = await login(t, 'owner@example.jp', 'owner-pass1', '192.0.2.10');
    expect(owner.status).toBe(200);
    expect(owner.json.error_code).toBe(200);
  });
});

describe('per-client rate limits (issue 7 §5.2)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, rateLimits: DEFAULT_RATE_LIMITS });
  });
  afterAll(async () => t?.close());

  it('login: one client past its limit over many e-mails gets 429 in our envelope; another client is unaffected', async () => {
    const max = DEFAULT_RATE_LIMITS.login.max;
    const answers: Answer[] = [];
    for (let i = 0; i < max + 3; i++)
      answers.push(await login(t, `spray${i}@example.jp`, 'wrong-pass1', '203.0.113.50'));
    expect(answers.slice(0, max).every((a) => a.status === 401)).toBe(true);
    for (const a of answers.slice(max)) {
      expect(a.status).toBe(429);
      expect(a.json).toEqual({ error_code: 429, error_info: expect.stringMatching(/[\u3040-\u30ff]/) as unknown });
    }
    expect((await login(t, 'spray0@example.jp', 'wrong-pass1', '203.0.113.51')).status).toBe(401);
  });

  it('sign-up is limited per client too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_RATE_LIMITS.signup.max + 1; i++) {
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email: `many${i}@example.jp`, password: 'kurekure2024' },
        headers: { 'content-type': 'application/json' },
        remoteAddress: '203.0.113.60',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
