import { describe, expect, it } from 'vitest';
import { readServerConfig, ServerConfigError } from '../../server/config';
import { startTestServer } from '../support/test-server';
import { post } from './user-helpers';

/** Issue 7 §5.4: development-only calls fail closed; only ONKURE_DEV_CALLS=1 exactly turns them on. */
describe('development-only calls', () => {
  it.each([
    ['unset', {}],
    ['NODE_ENV=Production', { NODE_ENV: 'Production' }],
    ['NODE_ENV=prod', { NODE_ENV: 'prod' }],
    ['ONKURE_DEV_CALLS=true', { ONKURE_DEV_CALLS: 'true' }],
    ['ONKURE_DEV_CALLS=yes', { ONKURE_DEV_CALLS: 'yes' }],
    ['ONKURE_DEV_CALLS=0', { ONKURE_DEV_CALLS: '0' }],
    ['ONKURE_DEV_CALLS= 1', { ONKURE_DEV_CALLS: ' 1' }],
  ])('[R6-6] %s: debug login, dev outbox and dev mailbox answer 404, no user is minted', async (_name, env) => {
    const t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '', ...env } });
    try {
      expect(t.config.devCalls).toBe(false);
      const before = await t.server.store().query('SELECT user_id FROM users');
      const r = await post(t, 'auth/debug_login', { name: 'probe' });
      expect(r.status).toBe(404);
      expect(r.json.error_code).toBe(404);
      expect((await post(t, 'auth/dev_outbox', { user_id: 1, access_token: 'x'.repeat(32) })).status).toBe(404);
      // Nor the dev mailbox (a recipient's messages, the password reset code among them).
      const mailbox = await post(t, 'auth/dev_mailbox', { recipient: 'someone@example.jp' });
      expect(mailbox.status).toBe(404);
      expect(mailbox.json.error_code).toBe(404);
      // The play rig (a chosen seed for the next play) does not exist either.
      expect((await post(t, 'dev/play/rig', { station_id: 1, seed: 7 })).status).toBe(404);
      // Nor the chute sensor's stand-in.
      expect((await post(t, 'dev/chute_prize', { station_id: 1, play_id: null })).status).toBe(404);
      // Nor the wallet's test clock (free TC ends, the daily free play).
      expect((await post(t, 'dev/wallet/age', { user_id: 1, access_token: 'x'.repeat(32), days: 90 })).status).toBe(
        404,
      );
      expect(await t.server.store().query('SELECT user_id FROM users')).toEqual(before);
    } finally {
      await t.close();
    }
  });

  it('[R6-6] ONKURE_DEV_CALLS=1: the debug login works', async () => {
    const t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
    try {
      const r = await post(t, 'auth/debug_login', { name: 'probe' });
      expect(r.status).toBe(200);
      expect(r.json.created).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('refuses to start with ONKURE_DEV_CALLS=1 and NODE_ENV=production; unset is off', () => {
    expect(readServerConfig({}).devCalls).toBe(false);
    expect(() => readServerConfig({ ONKURE_DEV_CALLS: '1', NODE_ENV: 'production' })).toThrow(ServerConfigError);
    expect(() => readServerConfig({ ONKURE_DEV_CALLS: '1', NODE_ENV: 'production' })).toThrow(
      /ONKURE_DEV_CALLS=1.*NODE_ENV=production/,
    );
  });

  it("the demo's agent key folder fails closed: refused without ONKURE_DEV_CALLS=1 and in production", () => {
    expect(readServerConfig({}).demoAgentDir).toBeNull();
    expect(() => readServerConfig({ ONKURE_DEMO_AGENT_DIR: '/tmp/x' })).toThrow(
      /ONKURE_DEMO_AGENT_DIR.*development-only/,
    );
    expect(() => readServerConfig({ ONKURE_DEMO_AGENT_DIR: '/tmp/x', ONKURE_DEV_CALLS: 'true' })).toThrow(
      ServerConfigError,
    );
    expect(() => readServerConfig({ ONKURE_DEMO_AGENT_DIR: '/tmp/x', NODE_ENV: 'production' })).toThrow(
      ServerConfigError,
    );
    expect(readServerConfig({ ONKURE_DEMO_AGENT_DIR: '/tmp/x', ONKURE_DEV_CALLS: '1' }).demoAgentDir).toBe('/tmp/x');
  });
});
