import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  devOutboxResponseSchema,
  loginResponseSchema,
  passwordResetRequestResponseSchema,
  type Identity,
} from '../../src/contract';
import {
  MAX_PASSWORD_CHECKS,
  MAX_RESET_REQUESTS_PER_CLIENT,
  MAX_RESET_REQUESTS_PER_EMAIL,
  MAX_RESET_TRIES,
  RESET_REQUEST_WINDOW_MS,
  RESET_TRY_WINDOW_MS,
} from '../../server/auth/password.service';
import { SUSPENDED_STATUS } from '../../server/auth/identity';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { as, expectOk, expectRefusedUnchanged, JAPANESE, type Answer } from './user-helpers';

const clock = new ManualServerClock(new Date('2026-11-26T12:00:00+09:00'));
let t: TestServer;
// A pinned clock migrates and seeds a store of its own (no copied template): slow on a busy machine.
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
}, 120_000);
afterAll(async () => t?.close());

const db = () => t.server.store();
let ipSeq = 0;
/** A fresh client address per use, so one test's per-client counts do not meet another's. */
const nextIp = () => {
  ipSeq += 1;
  return `10.${Math.floor(ipSeq / 250)}.${ipSeq % 250}.1`;
};

async function call(path: string, body: object, ip = '192.0.2.1'): Promise<Answer> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload: body,
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
  return { status: res.statusCode, json: res.json() };
}

let emailSeq = 0;
const newEmail = (name: string) => `${name}-${(emailSeq += 1)}@example.jp`;
const signup = async (email: string, password = 'kurekure2024') =>
  loginResponseSchema.parse(expectOk(await call('auth/signup', { email, password }, nextIp())));
const login = (email: string, password: string) => call('auth/login', { email, password }, nextIp());
const tc = (u: Identity) => call('user/tc', as(u));
const change = (u: Identity, current_password: string, new_password: string) =>
  call('auth/password/change', as(u, { password_change: { current_password, new_password } }));
const resetRequest = (email: string, ip = nextIp()) => call('auth/password/reset_request', { email }, ip);
const reset = (email: string, code: string, password: string) =>
  call('auth/password/reset', { email, code, password }, nextIp());
/** The newest reset code in the dev mailbox of `email`, or null. */
async function resetCode(email: string): Promise<string | null> {
  const box = devOutboxResponseSchema.parse(expectOk(await call('auth/dev_mailbox', { recipient: email })));
  const mail = box.list.find((m) => m.subject === '【オンクレ】パスワード再設定コード');
  return mail ? /認証コード: ([0-9]{6})/.exec(mail.body)![1]! : null;
}
const passwordHash = async (userId: number) =>
  (await db().query<{ password_hash: string }>('SELECT password_hash FROM users WHERE user_id = $1', [userId]))[0]!
    .password_hash;

describe('password change (signed in)', { timeout: 60_000 }, () => {
  it('a wrong current password is refused with a Japanese 401 and changes nothing; the old password still signs in', async () => {
    const email = newEmail('change-wrong');
    const u = await signup(email, 'first-pass1');
    const r = await expectRefusedUnchanged(t, () => change(u, 'not-the-pass1', 'second-pass2'), 401);
    expect(r.json.error_info).toBe('パスワードが正しくありません。');
    expect((await tc(u)).status).toBe(200);
    expectOk(await login(email, 'first-pass1'));
  });

  it('a new password equal to the current one, or too weak, is a 400 naming the new password', async () => {
    const u = await signup(newEmail('change-bad'), 'first-pass1');
    const same = await expectRefusedUnchanged(t, () => change(u, 'first-pass1', 'first-pass1'), 400);
    expect(same.json.error_info).toBe('新しいパスワードは現在のパスワードと別のものにしてください。');
    const weak = await expectRefusedUnchanged(t, () => change(u, 'first-pass1', 'onlyletters'), 400);
    expect(weak.json.error_info).toBe('パスワードには英字と数字を両方含めてください。');
    const missing = await expectRefusedUnchanged(
      t,
      () => call('auth/password/change', as(u, { password_change: { new_password: 'second-pass2' } })),
      400,
    );
    expect(missing.json.error_info).toMatch(JAPANESE);
  });

  it('changing revokes every other session of the account and keeps the one that asked; the e-mail gets a notice', async () => {
    const email = newEmail('change-ok');
    const here = await signup(email, 'first-pass1');
    const phone = loginResponseSchema.parse(expectOk(await login(email, 'first-pass1')));
    const tablet = loginResponseSchema.parse(expectOk(await login(email, 'first-pass1')));
    expectOk(await change(here, 'first-pass1', 'second-pass2'));
    expect((await tc(here)).status).toBe(200);
    for (const other of [phone, tablet]) {
      const refused = await tc(other);
      expect(refused.status).toBe(401);
      expect(refused.json.error_info).toMatch(JAPANESE);
    }
    expect((await login(email, 'first-pass1')).status).toBe(401);
    expectOk(await login(email, 'second-pass2'));
    const outbox = devOutboxResponseSchema.parse(expectOk(await call('auth/dev_outbox', as(here)))).list;
    expect(outbox[0]).toMatchObject({ recipient: email, subject: '【オンクレ】パスワードが変更されました' });
  });

  it('a change retires reset codes still open: a code asked for before the change no longer works', async () => {
    const email = newEmail('change-retire');
    const u = await signup(email, 'first-pass1');
    expectOk(await resetRequest(email));
    const code = (await resetCode(email))!;
    expectOk(await change(u, 'first-pass1', 'second-pass2'));
    const r = await expectRefusedUnchanged(t, () => reset(email, code, 'third-pass3'), 400);
    expect(r.json.error_info).toBe('認証コードが正しくないか、有効期限が切れています。');
  });

  it(`concurrent wrong guesses through one session run at most ${MAX_PASSWORD_CHECKS} checks; the rest are 429 and the right one past the limit too`, async () => {
    const u = await signup(newEmail('change-guess'), 'first-pass1');
    const before = await passwordHash(u.user_id);
    const guesses = Array.from({ length: 50 }, (_, i) => (i === 30 ? 'first-pass1' : `guess-${i}-x1`));
    const answers = await Promise.all(guesses.map((g) => change(u, g, 'second-pass2')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX_PASSWORD_CHECKS);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(50 - MAX_PASSWORD_CHECKS);
    expect(answers[30]!.status).toBe(429);
    for (const a of answers) expect(a.json.error_info).toMatch(JAPANESE);
    expect(await passwordHash(u.user_id)).toBe(before);
    // The window passes (the injected clock): the owner changes the password.
    clock.advance(15 * 60_000 + 1);
    expectOk(await change(u, 'first-pass1', 'second-pass2'));
  });
});

describe('password reset by an e-mailed code', { timeout: 60_000 }, () => {
  it('an unknown e-mail gets exactly the answer a member gets, and no code goes anywhere', async () => {
    const email = newEmail('member');
    await signup(email);
    const stranger = newEmail('stranger');
    const [{ last } = { last: 0 }] = await db().query<{ last: number }>(
      'SELECT coalesce(max(message_id), 0)::int AS last FROM dev_outbox',
    );
    const known = await resetRequest(email);
    const unknown = await resetRequest(stranger);
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    expect(passwordResetRequestResponseSchema.parse(known.json).expires_at).toBe(
      new Date(clock.now().getTime() + 30 * 60_000).toISOString(),
    );
    const sent = await db().query<{ recipient: string }>(
      'SELECT recipient FROM dev_outbox WHERE message_id > $1 ORDER BY message_id',
      [last],
    );
    expect(sent.map((r) => r.recipient)).toEqual([email]);
    expect(await resetCode(stranger)).toBeNull();
    // The code for an unknown address does not exist either: any code is the one refusal.
    const r = await expectRefusedUnchanged(t, () => reset(stranger, '123456', 'new-pass123'), 400);
    expect(r.json.error_info).toBe('認証コードが正しくないか、有効期限が切れています。');
  });

  it('the code works once: it sets the password, revokes every old session, signs in; used again it is refused', async () => {
    const email = newEmail('reset-ok');
    const first = await signup(email, 'first-pass1');
    const second = loginResponseSchema.parse(expectOk(await login(email, 'first-pass1')));
    expectOk(await resetRequest(email));
    const code = (await resetCode(email))!;
    const wrong = code === '000000' ? '000001' : '000000';
    await expectRefusedUnchanged(t, () => reset(email, wrong, 'new-pass123'), 400);
    const session = loginResponseSchema.parse(expectOk(await reset(email, code, 'new-pass123')));
    expect(session.user_id).toBe(first.user_id);
    for (const old of [first, second]) expect((await tc(old)).status).toBe(401);
    expect((await tc(session)).status).toBe(200);
    expect((await login(email, 'first-pass1')).status).toBe(401);
    expectOk(await login(email, 'new-pass123'));
    const again = await expectRefusedUnchanged(t, () => reset(email, code, 'other-pass123'), 400);
    expect(again.json.error_info).toBe('認証コードが正しくないか、有効期限が切れています。');
    // The code proved the address.
    const [row] = await db().query<{ email_verified_at: Date | null }>(
      'SELECT email_verified_at FROM users WHERE user_id = $1',
      [first.user_id],
    );
    expect(row!.email_verified_at).not.toBeNull();
  });

  it('an expired code is refused like a wrong one', async () => {
    const email = newEmail('reset-expired');
    await signup(email);
    expectOk(await resetRequest(email));
    const code = (await resetCode(email))!;
    clock.advance(30 * 60_000 + 1);
    await expectRefusedUnchanged(t, () => reset(email, code, 'new-pass123'), 400);
  });

  it('a suspended account gets the 9002 refusal login gives, and its password stays', async () => {
    const email = newEmail('reset-suspended');
    const u = await signup(email, 'first-pass1');
    expectOk(await resetRequest(email));
    const code = (await resetCode(email))!;
    await db().query('UPDATE users SET status = $2 WHERE user_id = $1', [u.user_id, SUSPENDED_STATUS]);
    const before = await passwordHash(u.user_id);
    const r = await expectRefusedUnchanged(t, () => reset(email, code, 'new-pass123'), 403);
    expect(r.json.error_code).toBe(9002);
    expect(await passwordHash(u.user_id)).toBe(before);
  });

  it('bad bodies are 400 with a Japanese text naming the field', async () => {
    for (const [path, body] of [
      ['auth/password/reset_request', {}],
      ['auth/password/reset_request', { email: 'not-an-address' }],
      ['auth/password/reset', { email: 'a@example.jp', code: '12345', password: 'new-pass123' }],
      ['auth/password/reset', { email: 'a@example.jp', code: '123456', password: 'short1' }],
      ['auth/password/reset', { email: 'a@example.jp', code: '123456' }],
    ] as const) {
      const r = await expectRefusedUnchanged(t, () => call(path, body), 400);
      expect(r.json.error_info, `${path} ${JSON.stringify(body)}`).toMatch(JAPANESE);
    }
  });
});

describe('reset limits hold under 50 concurrent requests', { timeout: 60_000 }, () => {
  it(`one e-mail: at most ${MAX_RESET_REQUESTS_PER_EMAIL} requests an hour from many clients, the rest 429; an hour later again`, async () => {
    const email = newEmail('flooded');
    await signup(email);
    const answers = await Promise.all(Array.from({ length: 50 }, () => resetRequest(email)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAX_RESET_REQUESTS_PER_EMAIL);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(50 - MAX_RESET_REQUESTS_PER_EMAIL);
    for (const a of refused) expect(a.json.error_info).toMatch(JAPANESE);
    const [{ n } = { n: 0 }] = await db().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM dev_outbox WHERE recipient = $1 AND subject LIKE '%パスワード再設定%'",
      [email],
    );
    expect(n).toBe(MAX_RESET_REQUESTS_PER_EMAIL);
    // A stranger's address is limited alike (the 429 does not tell who is a member).
    const strangers = await Promise.all(Array.from({ length: 50 }, () => resetRequest('nobody-flood@example.jp')));
    expect(strangers.filter((a) => a.status === 200)).toHaveLength(MAX_RESET_REQUESTS_PER_EMAIL);
    clock.advance(RESET_REQUEST_WINDOW_MS + 1);
    expectOk(await resetRequest(email));
  });

  it(`one client: at most ${MAX_RESET_REQUESTS_PER_CLIENT} requests an hour over many addresses; another client is not affected`, async () => {
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => resetRequest(`spray-${i}@example.jp`, ip)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAX_RESET_REQUESTS_PER_CLIENT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(50 - MAX_RESET_REQUESTS_PER_CLIENT);
    expectOk(await resetRequest('spray-0@example.jp', nextIp()));
  });

  it(`50 concurrent code guesses for one e-mail check at most ${MAX_RESET_TRIES}; the right code among the late ones is refused and still works after the window`, async () => {
    const email = newEmail('guessed');
    const u = await signup(email, 'first-pass1');
    expectOk(await resetRequest(email));
    const code = (await resetCode(email))!;
    const before = await passwordHash(u.user_id);
    const guesses = Array.from({ length: 50 }, (_, i) =>
      i === 40 ? code : String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(guesses.map((g) => reset(email, g, 'new-pass123')));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(MAX_RESET_TRIES);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(50 - MAX_RESET_TRIES);
    expect(answers[40]!.status).toBe(429);
    expect(await passwordHash(u.user_id)).toBe(before);
    clock.advance(RESET_TRY_WINDOW_MS + 1);
    expectOk(await reset(email, code, 'new-pass123'));
  });
});

describe('the dev mailbox (development only)', { timeout: 60_000 }, () => {
  it('lists one recipient’s messages, newest first, at most 20, without a session', async () => {
    const email = newEmail('mailbox');
    await signup(email);
    for (let i = 0; i < 5; i++) expectOk(await resetRequest(email));
    const list = devOutboxResponseSchema.parse(expectOk(await call('auth/dev_mailbox', { recipient: email }))).list;
    // The sign-up's verification code and five reset codes.
    expect(list).toHaveLength(6);
    expect(list.every((m) => m.recipient === email)).toBe(true);
    expect(list.map((m) => m.message_id)).toEqual([...list.map((m) => m.message_id)].sort((a, b) => b - a));
    await db().query(
      `INSERT INTO dev_outbox (channel, recipient, subject, body, created_at)
       SELECT 'email', $1, 'x', 'y', now() FROM generate_series(1, 30)`,
      [email],
    );
    expect(
      devOutboxResponseSchema.parse(expectOk(await call('auth/dev_mailbox', { recipient: email.toUpperCase() }))).list,
    ).toHaveLength(20);
    const bad = await expectRefusedUnchanged(t, () => call('auth/dev_mailbox', { recipient: '' }), 400);
    expect(bad.json.error_info).toBe('「宛先」の内容が正しくありません。');
  });
});
