import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { as, post } from './user-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { NODE_ENV: 'production' } });
});
afterAll(async () => t?.close());

describe('production build', () => {
  it('[R6-6] has no debug login route at all: 404 with a Japanese error_info, no user created', async () => {
    expect(t.config.production).toBe(true);
    const before = await t.server.store().query('SELECT user_id FROM users');
    for (const body of [{}, { name: 'debug' }]) {
      const r = await post(t, 'auth/debug_login', body);
      expect(r.status).toBe(404);
      expect(r.json.error_code).toBe(404);
      expect(r.json.error_info).toMatch(/[\u3040-\u30ff]/);
    }
    expect(await t.server.store().query('SELECT user_id FROM users')).toEqual(before);
  });

  it('has no dev outbox route either', async () => {
    const u = await createTestUser(t);
    expect((await post(t, 'auth/dev_outbox', as(u))).status).toBe(404);
  });

  it("has no dev mailbox route either (it would hand out anyone's password reset code)", async () => {
    const r = await post(t, 'auth/dev_mailbox', { recipient: 'someone@example.jp' });
    expect(r.status).toBe(404);
    expect(r.json.error_code).toBe(404);
  });
});
