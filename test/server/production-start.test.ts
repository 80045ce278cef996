import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { readServerConfig, ServerConfigError } from '../../server/config';
import { isProductionEnv } from '../../scripts/server-process.mjs';
import { freePort, ServerProcess } from '../support/server-process';

/** Issue 25: a production start can never turn the development-only calls on. */
const processes: ServerProcess[] = [];
afterEach(async () => {
  for (const p of processes.splice(0)) await p.kill();
});

const baseEnv = (extra: Record<string, string>) => {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...extra };
  delete env.ONKURE_DEV_CALLS;
  delete env.NODE_ENV;
  return { ...env, ...extra };
};

describe('NODE_ENV=production in any spelling', () => {
  it.each(['production', 'Production', 'PRODUCTION', ' production '])(
    '"%s" is production: the server refuses ONKURE_DEV_CALLS=1 and keeps the calls off without it',
    (value) => {
      expect(readServerConfig({ NODE_ENV: value }).production).toBe(true);
      expect(readServerConfig({ NODE_ENV: value }).devCalls).toBe(false);
      expect(() => readServerConfig({ NODE_ENV: value, ONKURE_DEV_CALLS: '1' })).toThrow(ServerConfigError);
      // `npm start` (scripts/start.mjs) reads it with the same rule: it then does not turn the calls on.
      expect(isProductionEnv(value)).toBe(true);
    },
  );

  it.each(['prod', 'development', 'test', '', undefined])('"%s" is not production', (value) => {
    expect(isProductionEnv(value)).toBe(false);
    expect(readServerConfig(value === undefined ? {} : { NODE_ENV: value }).production).toBe(false);
  });
});

describe('npm run start:production', () => {
  it.each(['1', '0', '', 'false'])('refuses to start with ONKURE_DEV_CALLS="%s" and says why', (value) => {
    const run = spawnSync(process.execPath, ['scripts/start-production.mjs'], {
      env: { ...baseEnv({ STATIC_DIR: '', DATA_DIR: ':memory:', PORT: '0' }), ONKURE_DEV_CALLS: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('production start refused: ONKURE_DEV_CALLS is set');
    expect(run.stdout).not.toContain('is running at');
  });

  it('refuses to start without a built app (unless STATIC_DIR= asks for the API only)', () => {
    const run = spawnSync(process.execPath, ['scripts/start-production.mjs'], {
      env: baseEnv({ STATIC_DIR: '/nonexistent/onkure-build', DATA_DIR: ':memory:', PORT: '0' }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm run build');
  });

  it('[R6-6] starts under NODE_ENV=production whatever NODE_ENV said: the debug login is 404', async () => {
    const server = new ServerProcess(await freePort(), ':memory:', { ONKURE_DEV_CALLS: undefined, NODE_ENV: 'dev' }, [
      'scripts/start-production.mjs',
    ]);
    processes.push(server);
    await server.start();
    const login = await fetch(`${server.origin}/api/auth/debug_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'probe' }),
    });
    expect(login.status).toBe(404);
    expect(((await login.json()) as { error_code: number }).error_code).toBe(404);
    // A cold process that migrates and seeds its in-memory store: on the loaded CI machine this took
    // over 20 s once (the other process tests allow 90 s for the same start).
  }, 90_000);
});
