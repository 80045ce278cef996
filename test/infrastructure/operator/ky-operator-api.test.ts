import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkKujiFairness,
  isOperatorCallFailed,
  type OperatorCallFailed,
  type OperatorTokenStorePort,
} from '../../../src/application/operator';
import { KyOperatorApi } from '../../../src/infrastructure/operator/ky-operator-api.adapter';
import { SessionStorageOperatorToken } from '../../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { SERVER_MESSAGES } from '../../../server/messages';
import { injectFetch } from '../../support/inject-fetch';
import { startTestServer, type TestServer } from '../../support/test-server';
import { createTestUser } from '../../support/users';

let t: TestServer;
const PASSWORD = 'console-test-password-1';
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  const operators = t.server.services().operators;
  await operators.add('kadmin', '管理 太郎', 'admin', PASSWORD);
  await operators.add('kfloor', 'フロア 花子', 'floor', PASSWORD);
  await operators.add('ksupport', 'サポート 次郎', 'support', PASSWORD);
});
afterAll(async () => t?.close());

/** The real adapter over the test server's in-process fetch, with its own in-memory token. */
function console_(): { api: KyOperatorApi; tokens: OperatorTokenStorePort } {
  const tokens = new SessionStorageOperatorToken(null);
  return { api: new KyOperatorApi({ apiBase: t.apiBase, fetch: injectFetch(t.server.app) }, tokens), tokens };
}

async function signedIn(login: string) {
  const c = console_();
  const session = await c.api.login(login, PASSWORD);
  c.tokens.write(session.token);
  return c;
}

async function refusal(call: Promise<unknown>): Promise<OperatorCallFailed> {
  try {
    await call;
  } catch (error) {
    if (isOperatorCallFailed(error)) return error;
    throw error;
  }
  throw new Error('the call was not refused');
}

describe('KyOperatorApi against the reference server', () => {
  it('[R10-9] a wrong password is refused 401 with the server’s Japanese words; the right one opens a session', async () => {
    const { api } = console_();
    const bad = await refusal(api.login('kadmin', 'not-the-password'));
    expect(bad).toMatchObject({ kind: 'refused', status: 401, info: SERVER_MESSAGES.operatorLoginFailed });
    const session = await api.login('kadmin', PASSWORD);
    expect(session.token.length).toBeGreaterThan(20);
    expect(session.operator).toMatchObject({ login: 'kadmin', display_name: '管理 太郎', role: 'admin' });
    expect(session.operator.rights).toEqual(expect.arrayContaining(['floor', 'audit', 'broadcast', 'users']));
  });

  it('[R10-9] sends the token only in the operator header: without it every call is refused 403', async () => {
    const { api } = console_();
    const refused = await refusal(api.me());
    expect(refused).toMatchObject({ status: 403, info: SERVER_MESSAGES.operatorOnly });
    const c = await signedIn('kfloor');
    expect(await c.api.me()).toMatchObject({ login: 'kfloor', role: 'floor' });
  });

  it('[R10-9] logout ends the session on the server: the same token is refused afterwards', async () => {
    const c = await signedIn('ksupport');
    await c.api.logout();
    expect(await refusal(c.api.me())).toMatchObject({ status: 403, info: SERVER_MESSAGES.operatorOnly });
  });

  it('[R10-9] a role without the right is refused 403 and nothing changes', async () => {
    const support = await signedIn('ksupport');
    const floor = await signedIn('kfloor');
    const admin = await signedIn('kadmin');
    const stock = () => t.server.services().store.query('SELECT stock FROM stations WHERE station_id = 1');
    const before = await stock();
    expect(await refusal(support.api.restock(1, 3))).toMatchObject({
      status: 403,
      info: SERVER_MESSAGES.operatorRoleRefused,
    });
    expect(await refusal(floor.api.audit(null))).toMatchObject({
      status: 403,
      info: SERVER_MESSAGES.operatorRoleRefused,
    });
    expect(await refusal(floor.api.deliveries(null))).toMatchObject({ status: 403 });
    expect(await refusal(floor.api.contacts('open'))).toMatchObject({ status: 403 });
    expect(await stock()).toEqual(before);
    const log = await admin.api.audit('ksupport');
    expect(log.filter((row) => row.action === 'operator/restock')).toEqual([]);
  });

  it('runs a station change, validates the answer, and the audit log names who did it', async () => {
    const floor = await signedIn('kfloor');
    const change = await floor.api.restock(2, 7);
    expect(change).toEqual({ station_id: 2, station_status: expect.any(String), stock: 7, refunded_play_id: null });
    const arm = await floor.api.stationSettings(2, { armStrength: 0.4, reason: 'adjustment' });
    expect(arm.station_id).toBe(2);
    const admin = await signedIn('kadmin');
    const rows = await admin.api.audit('kfloor');
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['operator/restock', 'operator/station_settings', 'operator/login']),
    );
    expect(rows.every((r) => r.operator_login === 'kfloor')).toBe(true);
  });

  it('a bad body is refused 400 with the server’s words, not sent as something else', async () => {
    const floor = await signedIn('kfloor');
    const refused = await refusal(floor.api.restock(2, -1));
    expect(refused.status).toBe(400);
    expect(refused.info).toBeTruthy();
  });

  it('reads the play log, the delivery queue and the support inbox, each validated against the contract', async () => {
    const admin = await signedIn('kadmin');
    expect(Array.isArray(await admin.api.playLog(1, 10))).toBe(true);
    expect(Array.isArray(await admin.api.deliveries('requested'))).toBe(true);
    expect(Array.isArray(await admin.api.contacts('open'))).toBe(true);
    expect(Array.isArray(await admin.api.threads())).toBe(true);
  });

  it('reads the floor, the kuji boxes and the numbers, each validated against the contract', async () => {
    const floor = await signedIn('kfloor');
    const stations = await floor.api.floor();
    expect(stations.length).toBeGreaterThan(0);
    expect(stations[0]).toMatchObject({
      station_id: expect.any(Number),
      line: expect.any(Array),
      still_url: expect.any(String),
    });
    const boxes = await floor.api.kujiBoxes();
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes[0]!.prizes.length).toBeGreaterThan(0);
    expect(Array.isArray(await floor.api.numbers('2026-01-01', '2026-01-07'))).toBe(true);
    expect(await floor.api.pause(2, true)).toBe(true);
    expect((await floor.api.floor()).find((st) => st.station_id === 2)?.paused).toBe(true);
    expect(await floor.api.pause(2, false)).toBe(false);
  });

  it('[R10-9] looks a user up, suspends and restores them (support), and the floor role is refused both', async () => {
    const user = await createTestUser(t);
    const support = await signedIn('ksupport');
    const floor = await signedIn('kfloor');
    expect(await refusal(floor.api.user(user.user_id))).toMatchObject({ status: 403 });
    expect(await refusal(floor.api.userStatus(user.user_id, true))).toMatchObject({ status: 403 });
    expect(await refusal(support.api.broadcast('reloaderror', null))).toMatchObject({ status: 403 });
    expect(await support.api.user(user.user_id)).toMatchObject({ user_id: user.user_id, suspended: false });
    expect(await support.api.userStatus(user.user_id, true)).toMatchObject({ suspended: true });
    expect(await support.api.userMessage(user.user_id, 'reloaderror', null)).toBe(0);
    expect(await support.api.userStatus(user.user_id, false)).toMatchObject({ suspended: false });
  });

  it('ends a kuji box’s sale; its published seed then checks against its commitment in the browser', async () => {
    const floor = await signedIn('kfloor');
    const open = (await floor.api.kujiBoxes()).find((b) => b.box_status === 'onSale' && b.commitment);
    expect(open).toBeDefined();
    expect(open!.seed).toBeNull();
    expect(await floor.api.kujiBoxStatus(open!.box_id, 'endOfSale')).toBe('endOfSale');
    const ended = (await floor.api.kujiBoxes()).find((b) => b.box_id === open!.box_id)!;
    expect(ended.box_status).toBe('endOfSale');
    expect(ended.commitment).toBe(open!.commitment);
    expect(ended.seed).toMatch(/^[0-9a-f]{64}$/);
    const record = await floor.api.kujiFairness(ended.box_id);
    expect(record).toMatchObject({ box_id: ended.box_id, commitment: ended.commitment, seed: ended.seed });
    expect(checkKujiFairness(record)).toMatchObject({ ok: true });
  });

  it('sets a station’s status, injects a fault, changes the prize; each answer validated', async () => {
    const floor = await signedIn('kfloor');
    expect(await floor.api.stationStatus(4, 'maintenance')).toMatchObject({
      station_id: 4,
      station_status: 'maintenance',
    });
    expect(await floor.api.stationStatus(4, 'open')).toMatchObject({ station_status: 'open' });
    expect(await floor.api.fault(5)).toMatchObject({ station_id: 5, refunded_play_id: null });
    expect(await floor.api.stationStatus(5, 'open')).toMatchObject({ station_status: 'open' });
    const changed = await floor.api.changePrize(6, { prize_name: 'テスト景品', prize_shape: 'box', stock: 4 });
    expect(changed).toMatchObject({ station_id: 6, stock: 4 });
    expect((await floor.api.floor()).find((st) => st.station_id === 6)?.prize_name).toBe('テスト景品');
    // Someone not in the line: refused with the server's words, nothing removed.
    const notInLine = await refusal(floor.api.removeFromLine(6, 1));
    expect(notInLine).toMatchObject({ kind: 'refused', status: 404 });
    expect(notInLine.info).toMatch(/\S/);
  });

  it('an emergency broadcast shows in the service state until it is ended', async () => {
    const admin = await signedIn('kadmin');
    expect(await admin.api.serviceState()).toBeNull();
    expect(await admin.api.broadcast('emergency', '点検中です')).toBeGreaterThanOrEqual(0);
    expect(await admin.api.serviceState()).toMatchObject({ info: '点検中です', by: 'kadmin' });
    await admin.api.emergencyEnd();
    expect(await admin.api.serviceState()).toBeNull();
  });

  it('an answer that breaks the contract is an invalidAnswer failure, never passed on', async () => {
    const tokens = new SessionStorageOperatorToken(null);
    const lying: typeof fetch = async () =>
      new Response(JSON.stringify({ error_code: 200, error_info: '', operator: { login: 'x' } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const api = new KyOperatorApi({ apiBase: 'http://127.0.0.1:9/api', fetch: lying }, tokens);
    expect(await refusal(api.me())).toMatchObject({ kind: 'invalidAnswer', status: 200 });
  });
});

describe('SessionStorageOperatorToken', () => {
  it('keeps the token in the given storage only (no cookie), and forgets it on clear', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    const tokens = new SessionStorageOperatorToken(storage);
    tokens.write('abc');
    expect(new SessionStorageOperatorToken(storage).read()).toBe('abc');
    tokens.clear();
    expect(tokens.read()).toBeNull();
    expect(map.size).toBe(0);
  });
});
