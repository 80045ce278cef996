import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnkureServer, type OnkureServer } from '../../server/app';
import { readServerConfig } from '../../server/config';
import { startTestServer } from '../support/test-server';
import { post } from './user-helpers';

const CONSOLE_PAGE =
  '<!doctype html><title>console</title><script type="module" src="/assets/op.js"></script><div id="root"></div>';
let server: OnkureServer;
let staticDir: string;
beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'onkure-console-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>player</title><div id="root"></div>');
  writeFileSync(join(staticDir, 'operator.html'), CONSOLE_PAGE);
  writeFileSync(join(staticDir, 'assets', 'op.js'), 'console.log(1);');
  server = createOnkureServer(
    readServerConfig({ PORT: '0', DATA_DIR: ':memory:', STATIC_DIR: staticDir, LOG_LEVEL: 'silent' }),
    { logger: false },
  );
  await server.ready;
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the operator console page (/operator)', () => {
  it.each(['/operator', '/operator/floor', '/operator/audit?x=1'])(
    '%s answers the console page under the strict CSP, never cached or indexed',
    async (url) => {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(CONSOLE_PAGE);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    },
  );

  it('the built file itself is not served at its own address', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/operator.html' });
    expect(res.body).not.toBe(CONSOLE_PAGE);
  });
});

describe('POST /api/dev/operator_account (development only)', () => {
  it.each([
    ['unset', {}],
    ['ONKURE_DEV_CALLS=0', { ONKURE_DEV_CALLS: '0' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ])('[R10-9] %s: answers 404 and makes no account', async (_name, env) => {
    const t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '', ...env } });
    try {
      const r = await post(t, 'dev/operator_account', { login: 'probe1', password: 'probe-password-1', role: 'admin' });
      expect(r.status).toBe(404);
      expect(await t.server.store().query('SELECT login FROM operator_accounts')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('with dev calls on: makes an account that signs in; a taken login or a short password is refused 400', async () => {
    const t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
    try {
      const made = await post(t, 'dev/operator_account', {
        login: 'devfloor',
        password: 'dev-floor-password',
        role: 'floor',
        display_name: 'フロア担当',
      });
      expect(made.status).toBe(200);
      const login = await post(t, 'operator/login', { login: 'devfloor', password: 'dev-floor-password' });
      expect(login.json).toMatchObject({ operator: { login: 'devfloor', display_name: 'フロア担当', role: 'floor' } });
      const again = await post(t, 'dev/operator_account', {
        login: 'devfloor',
        password: 'dev-floor-password',
        role: 'admin',
      });
      expect(again.status).toBe(400);
      const short = await post(t, 'dev/operator_account', { login: 'devshort', password: 'short', role: 'admin' });
      expect(short.status).toBe(400);
      const role = await post(t, 'dev/operator_account', {
        login: 'devrole',
        password: 'dev-role-password',
        role: 'root',
      });
      expect(role.status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
