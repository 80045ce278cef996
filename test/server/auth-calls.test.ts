import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  debugLoginResponseSchema,
  devOutboxResponseSchema,
  emailStatusResponseSchema,
  loginResponseSchema,
  tcResponseSchema,
} from '../../src/contract';
import { DEBUG_WELCOME_TC } from '../../src/domain';
import { hashPassword, verifyPassword } from '../../server/auth/password';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, post } from './user-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(async () => t?.close());

const codeFrom = (body: string) => /([0-9]{6})/.exec(body)![1]!;

describe('passwords', () => {
  it('hashes with scrypt and a random salt; verifies in constant time', async () => {
    const [h1, h2] = await Promise.all([hashPassword('secret123'), hashPassword('secret123')]);
    expect(h1).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(h1).not.toBe(h2);
    expect(await verifyPassword('secret123', h1)).toBe(true);
    expect(await verifyPassword('secret124', h1)).toBe(false);
    expect(await verifyPassword('secret123', 'garbage')).toBe(false);
  });
});

describe('sign-up, login, logout', () => {
  it('signs up, stores only a hash, logs in and out; the revoked token stops working', async () => {
    const session = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/signup', { email: 'New@Example.jp', password: 'kurekure2024' })),
    );
    const [row] = await t.server
      .store()
      .query<{ email: string; password_hash: string; email_verified_at: Date | null }>(
        'SELECT email, password_hash, email_verified_at FROM users WHERE user_id = $1',
        [session.user_id],
      );
    expect(row!.email).toBe('new@example.jp');
    expect(row!.password_hash).not.toContain('kurekure2024');
    expect(row!.email_verified_at).toBeNull();
    // A taken address answers like a free one (issue 7 §5.5); the address stays with its owner.
    const stranger = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/signup', { email: 'new@example.jp', password: 'another123' })),
    );
    expect(stranger.user_id).not.toBe(session.user_id);
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'auth/login', { email: 'new@example.jp', password: 'wrong-pass1' }),
      401,
    );
    expect(r.json.error_info).toBe('メールアドレスまたはパスワードが正しくありません。');
    await expectRefusedUnchanged(
      t,
      () => post(t, 'auth/login', { email: 'nobody@example.jp', password: 'kurekure2024' }),
      401,
    );
    const login = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/login', { email: 'NEW@example.jp', password: 'kurekure2024' })),
    );
    expect(login.user_id).toBe(session.user_id);
    expect(new Date(login.expires_at).getTime()).toBeGreaterThan(Date.now());
    expectOk(await post(t, 'auth/logout', { user_id: login.user_id, access_token: login.access_token }));
    await expectRefusedUnchanged(
      t,
      () => post(t, 'user/tc', { user_id: login.user_id, access_token: login.access_token }),
      401,
    );
    expectOk(await post(t, 'user/tc', { user_id: session.user_id, access_token: session.access_token }));
  });

  it('refuses weak passwords and malformed e-mails with Japanese messages', async () => {
    for (const [body, text] of [
      [{ email: 'x@example.jp', password: 'short1' }, /8文字以上/],
      [{ email: 'x@example.jp', password: 'lettersonly' }, /英字と数字/],
      [{ email: 'bad', password: 'kurekure2024' }, /メールアドレス/],
    ] as const) {
      const r = await expectRefusedUnchanged(t, () => post(t, 'auth/signup', body), 400);
      expect(r.json.error_info).toMatch(text);
    }
  });

  it('answers 9002 to a suspended user who logs in', async () => {
    expectOk(await post(t, 'auth/signup', { email: 'banned@example.jp', password: 'kurekure2024' }));
    await t.server.store().query("UPDATE users SET status = 2 WHERE email = 'banned@example.jp'");
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'auth/login', { email: 'banned@example.jp', password: 'kurekure2024' }),
      403,
    );
    expect(r.json.error_code).toBe(9002);
  });

  it("logout with B's token for A is refused and revokes nothing", async () => {
    const a = await createTestUser(t);
    const b = await createTestUser(t);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'auth/logout', { user_id: a.user_id, access_token: b.access_token }),
      401,
    );
    expectOk(await post(t, 'user/tc', as(a)));
  });
});

describe('e-mail verification', () => {
  it('[R2.2-2] sends a code to the dev outbox, verifies it, and reports the guard inputs', async () => {
    const s = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/signup', { email: 'verify@example.jp', password: 'kurekure2024' })),
    );
    const me = { user_id: s.user_id, access_token: s.access_token };
    const status = emailStatusResponseSchema.parse(expectOk(await post(t, 'auth/email/status', me)));
    expect(status).toMatchObject({ email: 'verify@example.jp', email_verified: 0, verification_required: 1 });
    const outbox = devOutboxResponseSchema.parse(expectOk(await post(t, 'auth/dev_outbox', me)));
    expect(outbox.list[0]).toMatchObject({ channel: 'email', recipient: 'verify@example.jp' });
    const code = codeFrom(outbox.list[0]!.body);
    const other = await createTestUser(t);
    await expectRefusedUnchanged(t, () => post(t, 'auth/email/verify', as(other, { email_verify: { code } })), 400);
    expect(devOutboxResponseSchema.parse(expectOk(await post(t, 'auth/dev_outbox', as(other)))).list).toEqual([]);
    expectOk(await post(t, 'auth/email/verify', { ...me, email_verify: { code } }));
    const after = emailStatusResponseSchema.parse(expectOk(await post(t, 'auth/email/status', me)));
    expect(after).toMatchObject({ email_verified: 1, verification_required: 0 });
  });

  it('[R2.2-2] does not require verification of an account created before the cutoff', async () => {
    const old = await createTestUser(t, {
      email: 'old@example.jp',
      created_at: new Date(t.config.emailVerifyCutoff.getTime() - 86_400_000).toISOString(),
    });
    expect(
      emailStatusResponseSchema.parse(expectOk(await post(t, 'auth/email/status', as(old)))).verification_required,
    ).toBe(0);
  });

  it('changes the e-mail only on verification, and sends no code for one another user holds', async () => {
    const u = await createTestUser(t, { email: 'before@example.jp' });
    expectOk(await post(t, 'auth/email/send_code', as(u, { email_verify: { email: 'verify@example.jp' } })));
    expect(devOutboxResponseSchema.parse(expectOk(await post(t, 'auth/dev_outbox', as(u)))).list).toEqual([]);
    expectOk(await post(t, 'auth/email/send_code', as(u, { email_verify: { email: 'after@example.jp' } })));
    const [row] = await t.server
      .store()
      .query<{ email: string }>('SELECT email FROM users WHERE user_id = $1', [u.user_id]);
    expect(row!.email).toBe('before@example.jp');
    const code = codeFrom(
      devOutboxResponseSchema.parse(expectOk(await post(t, 'auth/dev_outbox', as(u)))).list[0]!.body,
    );
    expectOk(await post(t, 'auth/email/verify', as(u, { email_verify: { code } })));
    const [after] = await t.server
      .store()
      .query<{ email: string }>('SELECT email FROM users WHERE user_id = $1', [u.user_id]);
    expect(after!.email).toBe('after@example.jp');
  });
});

describe('debug login (development)', () => {
  it('[R6-6] creates a debug user with welcome TC, then reuses it', async () => {
    const first = debugLoginResponseSchema.parse(expectOk(await post(t, 'auth/debug_login', {})));
    expect(first.created).toBe(1);
    expect(
      tcResponseSchema.parse(
        expectOk(await post(t, 'user/tc', { user_id: first.user_id, access_token: first.access_token })),
      ).data.tc_free,
    ).toBe(DEBUG_WELCOME_TC);
    const again = debugLoginResponseSchema.parse(expectOk(await post(t, 'auth/debug_login', { name: 'debug' })));
    expect(again).toMatchObject({ user_id: first.user_id, created: 0 });
    expect(again.access_token).not.toBe(first.access_token);
    expect(
      tcResponseSchema.parse(
        expectOk(await post(t, 'user/tc', { user_id: again.user_id, access_token: again.access_token })),
      ).data.tc_free,
    ).toBe(DEBUG_WELCOME_TC);
    const second = debugLoginResponseSchema.parse(expectOk(await post(t, 'auth/debug_login', { name: 'tester2' })));
    expect(second.user_id).not.toBe(first.user_id);
    await expectRefusedUnchanged(t, () => post(t, 'auth/debug_login', { name: 'Bad Name!' }), 400);
  });
});
