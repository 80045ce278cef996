import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATOR_AUTH_HEADER,
  operatorAuditResponseSchema,
  operatorLoginResponseSchema,
  operatorMeResponseSchema,
} from '../../src/contract/operator.schema';
import { systemClock } from '../../server/clock';
import { OperatorAccounts } from '../../server/operator/operator-accounts';
import { acquireDataDirLock } from '../../server/store/data-dir-lock';
import { openPgliteStore } from '../../server/store/store';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/**
 * Issue 26, R10-9: operator calls need a signed-in operator whose role holds the call's right, and
 * every operator action is written to the audit log (who, what, when, before/after).
 */
const clock = new ManualServerClock(new Date('2026-11-26T10:00:00+09:00'));
const DEV_TOKEN = 'dev-operator-token-for-tests-only-0123456789';
const PASSWORD = 'correct horse battery 42';
let t: TestServer;
let production: TestServer;
let stationId: number;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: DEV_TOKEN } });
  // Development calls off (as in production): the shared token is refused even when set.
  production = await startTestServer({
    inMemory: true,
    env: { ONKURE_OPERATOR_TOKEN: DEV_TOKEN, ONKURE_DEV_CALLS: '0' },
  });
  const operators = t.server.services().operators;
  await operators.add('aoi.admin', '青井 葵', 'admin', PASSWORD);
  await operators.add('kenta.floor', '森田 健太', 'floor', PASSWORD);
  await operators.add('yui.support', '佐藤 結衣', 'support', PASSWORD);
  const [row] = await t.server
    .store()
    .query<{ station_id: number }>(
      "SELECT station_id FROM stations WHERE station_status = 'open' AND station_type = 'normal' ORDER BY station_id LIMIT 1",
    );
  stationId = row!.station_id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await production?.close();
});

const call = async (path: string, body: object, token: string | null, server = t) => {
  const res = await server.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
  });
  return { status: res.statusCode, json: res.json() as Record<string, unknown> };
};
const signIn = async (login: string, password = PASSWORD, server = t) => {
  const res = await call('login', { login, password }, null, server);
  return res.status === 200 ? operatorLoginResponseSchema.parse(res.json).session.token : null;
};
const stationStatus = async () =>
  (
    await t.server
      .store()
      .query<{ station_status: string }>('SELECT station_status FROM stations WHERE station_id = $1', [stationId])
  )[0]!.station_status;
const auditCount = async () =>
  (await t.server.store().query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit'))[0]!.n;

describe('operator accounts, roles and the audit log (R10-9)', () => {
  it("[R10-9] an operator call without a signed-in operator is refused in Japanese and changes nothing: no header, a wrong token, a player's token, an expired, idle, logged-out or disabled session, and the shared token without development calls", async () => {
    const player = await createTestUser(t, {}, { freeTc: 1_000 });
    await t.server.services().operators.add('taro.gone', '山本 太郎', 'admin', PASSWORD);
    const idle = (await signIn('aoi.admin'))!;
    const expiring = (await signIn('aoi.admin'))!;
    const loggedOut = (await signIn('aoi.admin'))!;
    const disabled = (await signIn('taro.gone'))!;
    expect((await call('logout', {}, loggedOut)).status).toBe(200);
    await t.server.services().operators.disable('taro.gone');
    // 31 min unused: the idle session ends; the other one is used every 20 min up to 12 h.
    clock.advance(20 * 60_000);
    for (let used = 20; used < 12 * 60; used += 20) {
      expect((await call('me', {}, expiring)).status).toBe(200);
      clock.advance(20 * 60_000);
    }
    const audited = await auditCount();
    const before = await stationStatus();
    for (const token of [
      null,
      `${DEV_TOKEN}x`,
      player.access_token,
      idle,
      expiring,
      loggedOut,
      disabled,
      'x'.repeat(43),
    ]) {
      const res = await call('fault', { station_id: stationId }, token);
      expect(res).toMatchObject({
        status: 403,
        json: { error_code: 403, error_info: '運営者用の操作です。サインインしてください。' },
      });
    }
    expect(await call('fault', { station_id: stationId }, DEV_TOKEN, production)).toMatchObject({ status: 403 });
    // A disabled account cannot sign in again either.
    expect(await signIn('taro.gone')).toBeNull();
    expect(await stationStatus()).toBe(before);
    expect(await auditCount()).toBe(audited);
  });

  it("[R10-9] a role without the call's right is refused (403 in Japanese) and nothing changes: floor staff cannot ship, cancel or grant prizes, read the audit log or answer support; support staff cannot touch stations or kuji boxes", async () => {
    const floor = (await signIn('kenta.floor'))!;
    const support = (await signIn('yui.support'))!;
    expect(operatorMeResponseSchema.parse((await call('me', {}, floor)).json).operator).toEqual({
      login: 'kenta.floor',
      display_name: '森田 健太',
      role: 'floor',
      rights: ['session', 'floor', 'kuji', 'numbers'],
    });
    const audited = await auditCount();
    const before = await stationStatus();
    const refused = { status: 403, json: { error_code: 403, error_info: 'この操作を行う権限がありません。' } };
    for (const [path, body] of [
      ['delivery_ship', { delivery_id: 1, tracking_number: '1234-5678-9012' }],
      ['delivery_cancel', { delivery_id: 1, reason: '在庫切れ' }],
      ['deliveries', {}],
      ['audit', {}],
      ['support/reply', { user_id: 1, text: 'こんにちは', client_id: 'c-1' }],
      ['support/threads', {}],
      // Users and service messages: floor staff cannot suspend, message or broadcast.
      ['user_status', { user_id: 1, suspended: true }],
      ['user', { user_id: 1 }],
      ['user_message', { user_id: 1, code: 'reloaderror' }],
      ['broadcast', { code: 'emergency' }],
      ['emergency_end', {}],
    ] as const)
      expect(await call(path, body, floor)).toMatchObject(refused);
    for (const [path, body] of [
      ['fault', { station_id: stationId }],
      ['station_status', { station_id: stationId, station_status: 'stop' }],
      ['restock', { station_id: stationId, stock: 1 }],
      ['kuji_box_status', { box_id: 1, box_status: 'endOfSale' }],
      ['play_log', {}],
      ['floor', {}],
      ['end_play', { station_id: stationId }],
      ['remove_from_line', { station_id: stationId, user_id: 1 }],
      ['pause', { station_id: stationId, paused: true }],
      ['numbers', { from: '2026-11-01', to: '2026-11-30' }],
      ['kuji_boxes', {}],
      ['broadcast', { code: 'reloaderror' }],
    ] as const)
      expect(await call(path, body, support)).toMatchObject(refused);
    expect(await stationStatus()).toBe(before);
    expect(await auditCount()).toBe(audited);
    // No user was suspended and no emergency started.
    const store = t.server.services().store;
    expect(await store.query('SELECT count(*)::int AS n FROM users WHERE status = 2')).toEqual([{ n: 0 }]);
    expect(await store.query('SELECT count(*)::int AS n FROM service_emergencies')).toEqual([{ n: 0 }]);
  });

  it('[R10-9] every operator action is written to the audit log: who, what (the call and its body), when (the server clock), and what it changed before and after', async () => {
    const floor = (await signIn('kenta.floor'))!;
    const admin = (await signIn('aoi.admin'))!;
    await call('station_status', { station_id: stationId, station_status: 'open' }, admin);
    const at = clock.now().toISOString();
    expect((await call('fault', { station_id: stationId }, floor)).status).toBe(200);
    expect((await call('restock', { station_id: stationId, stock: 7 }, floor)).status).toBe(200);
    const log = operatorAuditResponseSchema.parse((await call('audit', { limit: 3 }, admin)).json).list;
    expect(log[0]).toMatchObject({
      operator_login: 'kenta.floor',
      action: 'operator/restock',
      target: { station_id: stationId, stock: 7 },
      before: { station_status: 'malfunction' },
      after: { station_status: 'malfunction', stock: 7 },
      at,
    });
    expect(log[1]).toMatchObject({
      operator_login: 'kenta.floor',
      action: 'operator/fault',
      target: { station_id: stationId },
      before: { station_status: 'open' },
      after: { station_status: 'malfunction' },
    });
    expect(log[2]).toMatchObject({ operator_login: 'aoi.admin', action: 'operator/station_status' });
    // Only an admin reads it, filtered by operator; reading it is not itself an action.
    const mine = operatorAuditResponseSchema.parse(
      (await call('audit', { operator_login: 'kenta.floor', limit: 500 }, admin)).json,
    ).list;
    expect(mine.every((e) => e.operator_login === 'kenta.floor')).toBe(true);
    expect(mine.some((e) => e.action === 'operator/audit')).toBe(false);
    await call('station_status', { station_id: stationId, station_status: 'open' }, admin);
  });

  it('[R10-9] sign-in limits hold under 300 concurrent guesses: at most 10 password checks per login, the rest 429; a wrong password is 401 in Japanese', async () => {
    await t.server.services().operators.add('mika.target', '小川 美香', 'floor', PASSWORD);
    expect(await call('login', { login: 'mika.target', password: 'wrong password 1' }, null)).toMatchObject({
      status: 401,
      json: { error_info: 'ログインIDまたはパスワードが正しくありません。' },
    });
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        t.server.app.inject({
          method: 'POST',
          url: '/api/operator/login',
          payload: { login: 'mika.target', password: `guess ${i} of many` },
          remoteAddress: `10.0.${Math.floor(i / 250)}.${i % 250}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
    expect(statuses.filter((s) => s === 429)).toHaveLength(291);
    // Even the right password waits for the window.
    expect(await signIn('mika.target')).toBeNull();
    clock.advance(15 * 60_000 + 1);
    expect(await signIn('mika.target')).not.toBeNull();
  });

  it('npm run operator -- add / list / disable keep accounts in the store the server uses, read the password from standard input, and refuse a data dir a running server holds', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'onkure-operator-cli-'));
    const cli = (args: string[], input = '') =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], {
        input,
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        timeout: 60_000,
      });
    try {
      const added = cli(['add', 'saki.floor', '--role', 'floor', '--name', '石田 咲'], `${PASSWORD}\n`);
      expect(added.stderr).toBe('');
      expect(added.stdout).toContain('operator "saki.floor" added (floor)');
      expect(cli(['add', 'saki.floor', '--role', 'floor'], `${PASSWORD}\n`)).toMatchObject({ status: 1 });
      expect(cli(['add', 'x', '--role', 'floor'], `${PASSWORD}\n`).stderr).toContain('login');
      expect(cli(['add', 'short.pw', '--role', 'floor'], 'short\n').stderr).toContain('password');
      expect(cli(['add', 'bad.role', '--role', 'owner'], `${PASSWORD}\n`)).toMatchObject({ status: 2 });
      expect(cli(['list']).stdout).toContain('saki.floor\tfloor\t石田 咲');
      const lock = acquireDataDirLock(dataDir);
      try {
        expect(cli(['list'])).toMatchObject({ status: 1, stderr: expect.stringContaining('onkure operator:') });
      } finally {
        lock.release();
      }
      expect(cli(['disable', 'saki.floor']).stdout).toContain('disabled');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a CLI-made account signs in against the same store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'onkure-operator-cli-'));
    try {
      const added = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/operator.ts', 'add', 'nao.support', '--role', 'support'],
        { input: `${PASSWORD}\n`, encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
      );
      expect(added.status).toBe(0);
      const store = await openPgliteStore(dataDir);
      try {
        const signedIn = await new OperatorAccounts(store, systemClock).login('nao.support', PASSWORD);
        expect(signedIn?.principal).toMatchObject({ login: 'nao.support', role: 'support' });
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
