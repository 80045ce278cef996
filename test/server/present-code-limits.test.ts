import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENT_CODES_PER_CLIENT, PRESENT_CODES_PER_USER } from '../../server/account/rewards.service';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Issue 46: present-code guessing is limited per user and per client address, counted before the
 * code is looked up (10 wrong codes in a row used to be answered 40 times out of 40).
 */
let t: TestServer;
const clock = new ManualServerClock(new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000));

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
});
afterAll(async () => t?.close());

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

let clients = 0;
/** A client address of its own for each test, so tests do not share a client's limit. */
const newClient = () => `192.0.2.${++clients}`;

async function redeem(user: TestUser, code: unknown, ip: string): Promise<Answer> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/account/present_code',
    payload: { user_id: user.user_id, access_token: user.access_token, present_code: { code } },
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
  return { status: res.statusCode, json: res.json() };
}

const wrongCodes = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}X`);
const japanese = expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9fff]/) as unknown;
const refusedForTooMany = (answer: Answer) => {
  expect(answer.status).toBe(429);
  expect(answer.json).toEqual({ error_code: 429, error_info: expect.stringContaining('プレゼントコード') as unknown });
};
const balanceOf = (user: TestUser) => t.server.services().ledger.balance(user.user_id);
const redemptionsOf = async (user: TestUser) =>
  (
    await t.server
      .store()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM present_code_redemptions WHERE user_id = $1', [
        user.user_id,
      ])
  )[0]!.n;

describe('present codes: guessing is limited', () => {
  it('25 concurrent wrong codes from one user: exactly 10 are looked up, the rest refused 429', async () => {
    const user = await createTestUser(t);
    const ip = newClient();
    const answers = await Promise.all(wrongCodes(25, 'GUESS').map((code) => redeem(user, code, ip)));
    expect(answers.filter((a) => a.status === 404)).toHaveLength(PRESENT_CODES_PER_USER.max);
    for (const refused of answers.filter((a) => a.status !== 404)) refusedForTooMany(refused);
  });

  it('a right code after the limit is refused too, and nothing is credited (no oracle)', async () => {
    const user = await createTestUser(t);
    const ip = newClient();
    for (const code of wrongCodes(PRESENT_CODES_PER_USER.max, 'MISS'))
      expect((await redeem(user, code, ip)).status).toBe(404);
    const before = await balanceOf(user);
    refusedForTooMany(await redeem(user, 'WELCOME500', ip));
    // From another address too: the user's own limit.
    refusedForTooMany(await redeem(user, 'WELCOME500', newClient()));
    expect(await balanceOf(user)).toEqual(before);
    expect(await redemptionsOf(user)).toBe(0);
  });

  it('one client over several accounts: 4 users × 10 concurrent wrong codes, exactly 30 looked up; another client is not touched', async () => {
    const ip = newClient();
    const users = await Promise.all(Array.from({ length: 4 }, () => createTestUser(t)));
    const answers = await Promise.all(
      users.flatMap((user, u) =>
        wrongCodes(PRESENT_CODES_PER_USER.max, `U${u}C`).map((code) => redeem(user, code, ip)),
      ),
    );
    expect(answers.filter((a) => a.status === 404)).toHaveLength(PRESENT_CODES_PER_CLIENT.max);
    for (const refused of answers.filter((a) => a.status !== 404)) refusedForTooMany(refused);
    // A fifth account from the same address is refused at its first code, even a right one.
    const fifth = await createTestUser(t);
    refusedForTooMany(await redeem(fifth, 'WELCOME500', ip));
    expect(await redemptionsOf(fifth)).toBe(0);
    // …and from another address it redeems.
    expect((await redeem(fifth, 'WELCOME500', newClient())).status).toBe(200);
    expect(await redemptionsOf(fifth)).toBe(1);
  });

  it('codes that are credited do not use up the limit; used and out-of-period codes do', async () => {
    const user = await createTestUser(t);
    const ip = newClient();
    for (const code of wrongCodes(PRESENT_CODES_PER_USER.max - 2, 'NEAR'))
      expect((await redeem(user, code, ip)).status).toBe(404);
    expect((await redeem(user, 'WELCOME500', ip)).status).toBe(200);
    expect((await redeem(user, 'TICKET3', ip)).status).toBe(200);
    expect((await redeem(user, 'WELCOME500', ip)).status).toBe(409); // used: the 9th attempt
    expect((await redeem(user, 'EXPIRED100', ip)).status).toBe(409); // out of period: the 10th
    refusedForTooMany(await redeem(user, 'ANOTHER1', ip));
  });

  it('the limit passes with the hour: the user may try again and a right code is credited', async () => {
    const user = await createTestUser(t);
    const ip = newClient();
    for (const code of wrongCodes(PRESENT_CODES_PER_USER.max + 1, 'HOUR')) await redeem(user, code, ip);
    refusedForTooMany(await redeem(user, 'WELCOME500', ip));
    clock.advance(30 * 60_000);
    refusedForTooMany(await redeem(user, 'WELCOME500', ip));
    clock.advance(2 * PRESENT_CODES_PER_USER.windowMs);
    const answer = await redeem(user, 'WELCOME500', ip);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ present: { kind: 'tc_free', amount: 500 } });
  });

  it('bad input is a 400 with a Japanese error_info, never a 5xx, and is not counted', async () => {
    const user = await createTestUser(t);
    const ip = newClient();
    for (const code of [null, 12, '', 'x'.repeat(1000), ['A'], { a: 1 }, '\u0000\u202e', 'ＡＢＣ'.repeat(100)]) {
      const answer = await redeem(user, code, ip);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.json).toEqual({ error_code: expect.any(Number) as unknown, error_info: japanese });
    }
    // None of them used up the limit: 10 well-formed wrong codes are all still looked up.
    for (const code of wrongCodes(PRESENT_CODES_PER_USER.max, 'AFTER'))
      expect((await redeem(user, code, ip)).status).toBe(404);
  });
});
