import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devOutboxResponseSchema, loginResponseSchema } from '../../src/contract';
import { SERVER_MESSAGES } from '../../server/messages';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { as, expectOk, post, type Answer } from './user-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(async () => t?.close());

/** The answer with the values that differ per call anyway (ids, tokens, times) blanked out. */
const shape = (a: Answer) => ({
  status: a.status,
  keys: Object.keys(a.json).sort(),
  error_code: a.json.error_code,
  error_info: a.json.error_info,
  types: Object.fromEntries(Object.entries(a.json).map(([k, v]) => [k, typeof v])),
});

async function ownerOutbox(email: string) {
  const [owner] = await t.server
    .store()
    .query<{ user_id: number }>('SELECT user_id FROM users WHERE email = $1', [email]);
  return t.server
    .store()
    .query<{ subject: string; body: string }>(
      'SELECT subject, body FROM dev_outbox WHERE user_id = $1 ORDER BY message_id',
      [owner!.user_id],
    );
}

describe('sign-up and e-mail codes do not reveal which addresses exist (issue 7 §5.5)', () => {
  it('sign-up answers the same for a taken and a free address; the owner gets a notice, not a code', async () => {
    const owner = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/signup', { email: 'taken@example.jp', password: 'kurekure2024' })),
    );
    const taken = await post(t, 'auth/signup', { email: 'taken@example.jp', password: 'guess-pass1' });
    const free = await post(t, 'auth/signup', { email: 'free@example.jp', password: 'guess-pass1' });
    expect(shape(taken)).toEqual(shape(free));
    expect(taken.status).toBe(200);
    const [row] = await t.server
      .store()
      .query<{ user_id: number }>('SELECT user_id FROM users WHERE email = $1', ['taken@example.jp']);
    expect(row!.user_id).toBe(owner.user_id);
    const list = devOutboxResponseSchema.parse(
      expectOk(await post(t, 'auth/dev_outbox', { user_id: owner.user_id, access_token: owner.access_token })),
    ).list;
    expect(list.map((m) => m.subject)).toContain(SERVER_MESSAGES.addressInUseNoticeSubject);
    // The prober's new account got no code for the owner's address, and its e-mail status reads like a free one's.
    const prober = loginResponseSchema.parse(taken.json);
    const freeAccount = loginResponseSchema.parse(free.json);
    const status = async (s: { user_id: number; access_token: string }) => {
      const a = await post(t, 'auth/email/status', { user_id: s.user_id, access_token: s.access_token });
      return { ...a.json, email: String(a.json.email).split('@')[1], created_at: typeof a.json.created_at };
    };
    expect(await status(prober)).toEqual(await status(freeAccount));
    expect(
      (await post(t, 'auth/email/status', { user_id: prober.user_id, access_token: prober.access_token })).json.email,
    ).toBe('taken@example.jp');
    expect(
      devOutboxResponseSchema.parse(
        expectOk(await post(t, 'auth/dev_outbox', { user_id: prober.user_id, access_token: prober.access_token })),
      ).list,
    ).toEqual([]);
  });

  it('sending an e-mail code answers the same for a taken and a free address; the owner is told', async () => {
    await createTestUser(t, { email: 'holder@example.jp' });
    const prober = await createTestUser(t);
    const taken = await post(t, 'auth/email/send_code', as(prober, { email_verify: { email: 'holder@example.jp' } }));
    const free = await post(
      t,
      'auth/email/send_code',
      as(prober, { email_verify: { email: 'nobody-yet@example.jp' } }),
    );
    expect(shape(taken)).toEqual(shape(free));
    expect(taken.status).toBe(200);
    expect((await ownerOutbox('holder@example.jp')).map((m) => m.subject)).toEqual([
      SERVER_MESSAGES.addressInUseNoticeSubject,
    ]);
  });
});
