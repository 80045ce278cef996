import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_WINDOW_MS, MAX_LOGIN_FAILURES } from '../../server/auth/account-auth.service';
import {
  MAX_PASSWORD_CHECKS,
  MAX_RESET_REQUESTS_PER_CLIENT,
  MAX_RESET_REQUESTS_PER_EMAIL,
  MAX_RESET_TRIES,
} from '../../server/auth/password.service';
import { MAX_CODE_FAILURES } from '../../server/account/verification.service';
import { ConnectionLeases } from '../../server/limits/connection-leases';
import { StoreConnectionLeases } from '../../server/limits/store-connection-leases';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { SERVER_MESSAGES } from '../../server/messages';
import { usePostgresCluster } from '../support/postgres-cluster';
import { ManualServerClock } from '../support/manual-server-clock';
import { openSignaling } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 46: two instances on one PostgreSQL database share the exact attempt limits (sign-in,
 * password checks, reset requests and codes, verification codes, operator sign-in) and the rtc
 * signaling connections per client: attempts spread over both, one after another or all at once,
 * pass the limit once for the cluster, not once per instance.
 */
const postgres = usePostgresCluster();
let a: TestServer;
let b: TestServer;
const clock = new ManualServerClock(new Date('2026-11-26T12:00:00+09:00'));

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  a = await startTestServer({ databaseUrl: url, clock, listen: true });
  b = await startTestServer({ databaseUrl: url, clock, listen: true, standby: true });
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}
async function call(server: TestServer, path: string, payload: object, ip = '192.0.2.1'): Promise<Answer> {
  const res = await server.server.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload,
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
  return { status: res.statusCode, json: res.json() };
}
const instance = (i: number) => (i % 2 === 0 ? a : b);
let seq = 0;
const fresh = (name: string) => `${name}-${(seq += 1)}@example.jp`;
const freshIp = () => `10.46.${Math.floor((seq += 1) / 250)}.${seq % 250}`;
const statuses = (answers: readonly Answer[]) => answers.map((x) => x.status);
const count = (answers: readonly Answer[], status: number) => answers.filter((x) => x.status === status).length;
const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

async function signup(email: string, password = 'kurekure2024') {
  const answer = await call(a, 'auth/signup', { email, password }, freshIp());
  expect(answer.status).toBe(200);
  return { user_id: Number(answer.json.user_id), access_token: String(answer.json.access_token) };
}

describe('sign-in across two instances', () => {
  it('failures alternated between the instances are refused at the limit, the right password too, until the window has passed', async () => {
    const email = fresh('login');
    await signup(email, 'right-pass1');
    const ip = freshIp();
    const answers: Answer[] = [];
    for (let i = 0; i < MAX_LOGIN_FAILURES + 3; i++)
      answers.push(await call(instance(i), 'auth/login', { email, password: 'wrong-pass1' }, ip));
    expect(statuses(answers)).toEqual([...times(MAX_LOGIN_FAILURES, () => 401), 429, 429, 429]);
    expect(answers.at(-1)!.json.error_info).toBe(SERVER_MESSAGES.loginSlowedDown);
    expect((await call(b, 'auth/login', { email, password: 'right-pass1' }, ip)).status).toBe(429);
    // The owner on another connection is not touched.
    expect((await call(a, 'auth/login', { email, password: 'right-pass1' }, freshIp())).status).toBe(200);
    clock.advance(LOGIN_WINDOW_MS - 1);
    expect((await call(a, 'auth/login', { email, password: 'right-pass1' }, ip)).status).toBe(429);
    clock.advance(1);
    expect((await call(b, 'auth/login', { email, password: 'right-pass1' }, ip)).status).toBe(200);
  });

  it('40 concurrent sign-ins for one e-mail and client over both instances: at most the limit are checked', async () => {
    const email = fresh('login-burst');
    await signup(email, 'right-pass1');
    const ip = freshIp();
    const answers = await Promise.all(
      times(40, (i) => call(instance(i), 'auth/login', { email, password: 'wrong-pass1' }, ip)),
    );
    expect(count(answers, 401)).toBe(MAX_LOGIN_FAILURES);
    expect(count(answers, 429)).toBe(40 - MAX_LOGIN_FAILURES);
    // The right password past the limit is refused like a wrong one, on either instance.
    for (const server of [a, b])
      expect((await call(server, 'auth/login', { email, password: 'right-pass1' }, ip)).status).toBe(429);
  });
});

describe('password checks, resets and codes across two instances', () => {
  it('a signed-in password check: wrong passwords alternated, then 40 at once, stop at the limit for the cluster', async () => {
    const user = await signup(fresh('check'), 'right-pass1');
    const change = (i: number) =>
      call(instance(i), 'auth/password/change', {
        ...user,
        password_change: { current_password: 'wrong-pass1', new_password: 'next-pass22' },
      });
    const first = [];
    for (let i = 0; i < 4; i++) first.push(await change(i));
    expect(statuses(first)).toEqual([401, 401, 401, 401]);
    const burst = await Promise.all(times(40, change));
    expect(count(burst, 401)).toBe(MAX_PASSWORD_CHECKS - 4);
    expect(count(burst, 429)).toBe(40 - (MAX_PASSWORD_CHECKS - 4));
    expect(burst.find((x) => x.status === 429)!.json.error_info).toBe(SERVER_MESSAGES.passwordCheckLimit);
  });

  it('reset requests: per e-mail and per client for the cluster; one refused by the client limit does not count against its e-mail', async () => {
    const email = fresh('reset-mail');
    const byEmail = await Promise.all(
      times(40, (i) => call(instance(i), 'auth/password/reset_request', { email }, freshIp())),
    );
    expect(count(byEmail, 200)).toBe(MAX_RESET_REQUESTS_PER_EMAIL);
    expect(count(byEmail, 429)).toBe(40 - MAX_RESET_REQUESTS_PER_EMAIL);

    const ip = freshIp();
    const byClient = [];
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_CLIENT + 2; i++)
      byClient.push(await call(instance(i), 'auth/password/reset_request', { email: fresh('reset-spray') }, ip));
    expect(statuses(byClient)).toEqual([...times(MAX_RESET_REQUESTS_PER_CLIENT, () => 200), 429, 429]);
    const target = fresh('reset-given-back');
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_EMAIL + 1; i++)
      expect((await call(instance(i), 'auth/password/reset_request', { email: target }, ip)).status).toBe(429);
    const elsewhere = [];
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_EMAIL; i++)
      elsewhere.push(await call(instance(i), 'auth/password/reset_request', { email: target }, freshIp()));
    expect(statuses(elsewhere)).toEqual(times(MAX_RESET_REQUESTS_PER_EMAIL, () => 200));
  });

  it('reset codes: 40 guesses at once over both instances run at most the limit; the right code past it is refused', async () => {
    const email = fresh('reset-code');
    const user = await signup(email, 'first-pass1');
    expect((await call(a, 'auth/password/reset_request', { email }, freshIp())).status).toBe(200);
    const mail = (await a.server.services().verification.mailbox(email)).find(
      (m) => m.subject === SERVER_MESSAGES.passwordResetSubject,
    );
    const code = /認証コード: ([0-9]{6})/.exec(mail!.body)![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const burst = await Promise.all(
      times(40, (i) =>
        call(instance(i), 'auth/password/reset', { email, code: wrong, password: 'new-pass123' }, freshIp()),
      ),
    );
    expect(count(burst, 400)).toBe(MAX_RESET_TRIES);
    expect(count(burst, 429)).toBe(40 - MAX_RESET_TRIES);
    const right = await call(b, 'auth/password/reset', { email, code, password: 'new-pass123' }, freshIp());
    expect(right).toEqual({ status: 429, json: { error_code: 429, error_info: SERVER_MESSAGES.codeTryLimit } });
    expect((await call(a, 'auth/login', { email, password: 'first-pass1' }, freshIp())).json.user_id).toBe(
      user.user_id,
    );
  });

  it('verification codes: wrong codes alternated between the instances, then at once, stop at the limit', async () => {
    const user = await signup(fresh('verify'));
    const [sent] = await a.server.services().verification.outbox(user.user_id);
    const code = /認証コード: ([0-9]{6})/.exec(sent!.body)![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const verify = (i: number, c = wrong) =>
      call(instance(i), 'auth/email/verify', { ...user, email_verify: { code: c } });
    expect(statuses([await verify(0), await verify(1)])).toEqual([400, 400]);
    const burst = await Promise.all(times(40, (i) => verify(i)));
    expect(count(burst, 400)).toBe(MAX_CODE_FAILURES - 2);
    expect(count(burst, 429)).toBe(40 - (MAX_CODE_FAILURES - 2));
    expect((await verify(1, code)).json).toEqual({ error_code: 429, error_info: SERVER_MESSAGES.codeTryLimit });
  });
});

describe('operator sign-in across two instances', () => {
  const PASSWORD = 'correct horse battery 46';
  beforeAll(async () => {
    await a.server.services().operators.add('limit.admin', '上限 太郎', 'admin', PASSWORD);
  });
  const signIn = (i: number, password: string, ip: string, login = 'limit.admin') =>
    call(instance(i), 'operator/login', { login, password }, ip);

  it('per login: 40 wrong passwords at once from many clients over both instances check at most 10', async () => {
    const burst = await Promise.all(times(40, (i) => signIn(i, 'wrong password!!', freshIp())));
    expect(count(burst, 401)).toBe(10);
    expect(count(burst, 429)).toBe(30);
    expect((await signIn(1, PASSWORD, freshIp())).status).toBe(429);
  });

  // 50 password checks one after another (an unknown login is checked against a dummy hash, so its
  // answer takes as long as a real one): ≈ 9 s on a quiet machine, over 20 s on a loaded CI one.
  it(
    'per client: 52 sign-ins to different logins from one address, alternated, stop at 50',
    { timeout: 90_000 },
    async () => {
      const ip = freshIp();
      const answers = [];
      for (let i = 0; i < 52; i++) answers.push(await signIn(i, 'wrong password!!', ip, `nobody.${i}`));
      expect(statuses(answers)).toEqual([...times(50, () => 401), 429, 429]);
    },
  );
});

describe('rtc signaling connections per client across two instances', () => {
  const url = (server: TestServer) => `${server.origin.replace('http:', 'ws:')}/signaling`;
  const opened: { ws: { terminate(): void } }[] = [];
  const open = async (server: TestServer) => {
    const socket = await openSignaling(url(server));
    opened.push(socket);
    return socket;
  };
  const sessions = () => a.server.services().signaling.connections + b.server.services().signaling.connections;
  afterEach(async () => {
    for (const o of opened.splice(0)) o.ws.terminate();
    await expect.poll(sessions, { message: 'every session ended' }).toBe(0);
    // Their leases are given back: the next test starts with the client's places free.
    await expect
      .poll(async () => (await a.server.store().query("SELECT 1 FROM connection_leases WHERE leases <> '{}'")).length)
      .toBe(0);
  });

  it('sockets opened one after another on both instances: the fifth is closed 4429 wherever it lands; a closed one frees its place', async () => {
    const first = [await open(a), await open(b), await open(a), await open(b)];
    const fifth = await open(a);
    expect(await fifth.closed).toEqual({
      code: SIGNALING_CLOSE.limit,
      reason: 'too many connections from this client',
    });
    const sixth = await open(b);
    expect(await sixth.closed).toEqual({
      code: SIGNALING_CLOSE.limit,
      reason: 'too many connections from this client',
    });
    first[0]!.ws.terminate();
    await expect.poll(sessions).toBe(3);
    const again = await open(b);
    expect(again.log.closed).toBeNull();
    await expect.poll(sessions).toBe(4);
  });

  it('12 sockets opened at once over both instances: exactly 4 stay', async () => {
    const burst = await Promise.all(times(12, (i) => open(instance(i))));
    await expect.poll(() => burst.filter((o) => o.log.closed !== null).length).toBe(8);
    expect(new Set(burst.flatMap((o) => (o.log.closed ? [o.log.closed.code] : [])))).toEqual(
      new Set([SIGNALING_CLOSE.limit]),
    );
    expect(sessions()).toBe(4);
  });

  it('an instance killed with its connections open: its leases lapse 30 s after their last renewal, not later', async () => {
    // The killed instance: it took three of the client's places and then stopped (no renewal, no release).
    const killed = new ConnectionLeases(
      'signaling:client',
      4,
      new StoreConnectionLeases(a.server.store()),
      clock,
      () => {},
    );
    for (let i = 0; i < 3; i++) expect(await killed.take('127.0.0.1')).not.toBeNull();
    await killed.close();
    const one = await open(b);
    const refused = await open(a);
    expect(await refused.closed).toEqual({
      code: SIGNALING_CLOSE.limit,
      reason: 'too many connections from this client',
    });
    one.ws.terminate();
    await expect.poll(sessions).toBe(0);
    clock.advance(30_000);
    const four = [await open(a), await open(b), await open(a), await open(b)];
    await expect.poll(sessions).toBe(4);
    expect(four.every((o) => o.log.closed === null)).toBe(true);
  });
});

describe('a store that cannot count fails closed, and bad input is no 5xx', () => {
  afterEach(async () => {
    await a.server.store().query('ALTER TABLE IF EXISTS attempt_logs_away RENAME TO attempt_logs');
    await a.server.store().query('ALTER TABLE IF EXISTS connection_leases_away RENAME TO connection_leases');
  });

  it('with the attempt logs out of reach a sign-in is refused 503 in Japanese, the right password too, on both instances', async () => {
    const email = fresh('closed');
    await signup(email, 'right-pass1');
    await a.server.store().query('ALTER TABLE attempt_logs RENAME TO attempt_logs_away');
    for (const server of [a, b]) {
      const answer = await call(server, 'auth/login', { email, password: 'right-pass1' }, freshIp());
      expect(answer).toEqual({ status: 503, json: { error_code: 503, error_info: SERVER_MESSAGES.limitUnavailable } });
    }
  });

  it('with the connection leases out of reach a signaling socket is refused 503', async () => {
    await a.server.store().query('ALTER TABLE connection_leases RENAME TO connection_leases_away');
    await expect(openSignaling(`${b.origin.replace('http:', 'ws:')}/signaling`)).rejects.toThrow('HTTP 503');
  });

  it('bad input to every limited call is a 4xx in our envelope', async () => {
    const calls: [string, object][] = [
      ['auth/login', { email: 'x', password: [] }],
      ['auth/password/reset_request', { email: 'not an address' }],
      ['auth/password/reset', { email: 'a@b.jp', code: 'abc', password: 'x' }],
      ['auth/password/change', { user_id: 'x', access_token: 1 }],
      ['auth/email/verify', { user_id: 1, access_token: 'x', email_verify: { code: '12' } }],
      ['operator/login', { login: '', password: 'x'.repeat(5000) }],
    ];
    for (const [path, payload] of calls) {
      const answer = await call(b, path, payload, freshIp());
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.json.error_info, path).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
  });
});
