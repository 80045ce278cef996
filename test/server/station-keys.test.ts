import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  OPERATOR_AUTH_HEADER,
  operatorLoginResponseSchema,
  operatorStationKeyIssuedResponseSchema,
  operatorStationKeyRevokedResponseSchema,
  operatorStationKeysResponseSchema,
} from '../../src/contract/operator.schema';
import { SERVER_MESSAGES } from '../../server/messages';
import type { StationKeys } from '../../server/agent/station-keys';
import { ManualServerClock } from '../support/manual-server-clock';
import { freePort, ServerProcess } from '../support/server-process';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Station keys (issue 42, docs/security.md "Station keys"): issued, listed, rotated and revoked by
 * an admin through the operator API, verified by the server for an agent's hello, audited without
 * the key. Runs on PostgreSQL too with ONKURE_TEST_STORE=postgres (the concurrent rotations then
 * race on real connections).
 */
const clock = new ManualServerClock(new Date('2026-12-01T10:00:00+09:00'));
const PASSWORD = 'station keys password 42';
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;
const MINUTE = 60_000;
let t: TestServer;
let keys: StationKeys;
const sessions = { admin: '' };
/** Every key the tests were given, to look for in the audit log and the store. */
const shown: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  keys = t.server.services().stationKeys;
  const operators = t.server.services().operators;
  await operators.add('aoi.admin', '青井 葵', 'admin', PASSWORD);
  await operators.add('kenta.floor', '森田 健太', 'floor', PASSWORD);
  await operators.add('yui.support', '佐藤 結衣', 'support', PASSWORD);
}, 120_000);
afterAll(async () => t?.close());
// The tests move the server's clock by hours: a session signed in before would have idled out.
beforeEach(async () => {
  sessions.admin = await signIn('aoi.admin');
});

/** A new session (one ends after 30 minutes unused, by the server's clock). */
async function signIn(login: string): Promise<string> {
  const res = await call('login', { login, password: PASSWORD }, null);
  return operatorLoginResponseSchema.parse(res.json).session.token;
}

async function call(path: string, body: unknown, token: string | null, raw?: string | Buffer) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    ...(raw === undefined ? { payload: body as object } : { payload: raw }),
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` }),
    },
  });
  return { status: res.statusCode, json: res.json() as Record<string, unknown> };
}
const admin = (path: string, body: unknown) => call(path, body, sessions.admin);

async function issue(name: string, stationIds: number[]) {
  const res = await admin('station_key_issue', { name, station_ids: stationIds });
  expect(res.status).toBe(200);
  const answer = operatorStationKeyIssuedResponseSchema.parse(res.json);
  shown.push(answer.key);
  return answer;
}
async function rotate(keyId: string, overlapMinutes?: number) {
  return admin('station_key_rotate', {
    key_id: keyId,
    ...(overlapMinutes === undefined ? {} : { overlap_minutes: overlapMinutes }),
  });
}
const secretOf = (key: string) => key.slice('onk_sk_'.length + 13);
const listed = async () => operatorStationKeysResponseSchema.parse((await admin('station_keys', {})).json).keys;
const entryOf = async (keyId: string) => (await listed()).find((k) => k.key_id === keyId);
const keyCount = async () =>
  (await t.server.store().query<{ n: number }>('SELECT count(*)::int AS n FROM station_keys'))[0]!.n;
const auditCount = async () =>
  (await t.server.store().query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit'))[0]!.n;

/** The forms a key or its secret could be written in: as given, and its stored hash in hex and base64. */
function tracesOf(key: string): string[] {
  const secret = secretOf(key);
  const hash = createHash('sha256').update(secret).digest();
  return [key, secret, hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')];
}

describe('station keys: issued, shown once, stored as a hash', () => {
  it('[R11-1] a key is answered once in its format, only the SHA-256 of its secret is stored, and it names its stations: a key for station 3 verifies for station 3 alone', async () => {
    const { key, entry } = await issue('3号機 コントローラ', [3]);
    expect(key).toMatch(/^onk_sk_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(entry).toMatchObject({
      name: '3号機 コントローラ',
      station_ids: [3],
      created_by: 'aoi.admin',
      created_at: clock.now().toISOString(),
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      rotated_to: null,
      state: 'active',
    });
    expect(key.startsWith(`onk_sk_${entry.key_id}_`)).toBe(true);
    // The store holds the hash of the secret and nothing from which the key reads back.
    const [row] = await t.server
      .store()
      .query<{ secret_hash: Uint8Array; text: string }>(
        'SELECT secret_hash, row_to_json(k)::text AS text FROM station_keys k WHERE key_id = $1',
        [entry.key_id],
      );
    expect(Buffer.from(row!.secret_hash)).toEqual(createHash('sha256').update(secretOf(key)).digest());
    expect(row!.text).not.toContain(secretOf(key));
    // Listed afterwards: never the key, never the hash.
    const list = JSON.stringify((await admin('station_keys', {})).json);
    for (const trace of tracesOf(key)) expect(list).not.toContain(trace);
    expect(list).not.toContain('secret');

    const verified = await keys.verify(key);
    expect(verified).toEqual({ keyId: entry.key_id, name: '3号機 コントローラ', stationIds: [3] });
    expect(verified!.stationIds).not.toContain(4);
  });

  it('[R11-1] verify refuses another key’s id with this secret, a changed secret, and any malformed input, without throwing', async () => {
    const a = await issue('A', [1, 2]);
    const b = await issue('B', [4]);
    expect(await keys.verify(`onk_sk_${b.entry.key_id}_${secretOf(a.key)}`)).toBeNull();
    expect(await keys.verify(`onk_sk_${a.entry.key_id}_${secretOf(b.key)}`)).toBeNull();
    const flipped = a.key.slice(0, -1) + (a.key.endsWith('A') ? 'B' : 'A');
    expect(await keys.verify(flipped)).toBeNull();
    const malformed: unknown[] = [
      undefined,
      null,
      42,
      {},
      [a.key],
      '',
      'onk_sk_',
      a.key.toUpperCase(),
      ` ${a.key}`,
      `${a.key}\n`,
      `${a.key}x`,
      a.key.slice(0, -1),
      a.key.replace('onk_sk_', 'onk_pk_'),
      `onk_sk_${a.entry.key_id}_${'\u0000'.repeat(43)}`,
      `onk_sk_${"'; DROP TABLE station_keys; --".padEnd(12, 'x')}_${secretOf(a.key)}`,
      'x'.repeat(1_000_000),
    ];
    for (const input of malformed) expect(await keys.verify(input)).toBeNull();
    expect((await keys.verify(a.key))?.stationIds).toEqual([1, 2]);
  });

  it('last use is written at most once a minute, by the server’s clock', async () => {
    const { key, entry } = await issue('last use', [5]);
    const first = clock.now().toISOString();
    await keys.verify(key);
    expect((await entryOf(entry.key_id))!.last_used_at).toBe(first);
    clock.advance(30_000);
    await keys.verify(key);
    expect((await entryOf(entry.key_id))!.last_used_at).toBe(first);
    clock.advance(30_000);
    await keys.verify(key);
    expect((await entryOf(entry.key_id))!.last_used_at).toBe(clock.now().toISOString());
  });
});

describe('rotation and revocation', () => {
  it('[R11-1] a rotated key keeps working until its overlap ends, then not; its successor drives the same stations; a second rotation or one of a revoked key is refused 409', async () => {
    const old = await issue('6号機', [6, 7]);
    const rotated = await rotate(old.entry.key_id, 60);
    expect(rotated.status).toBe(200);
    const successor = operatorStationKeyIssuedResponseSchema.parse(rotated.json);
    shown.push(successor.key);
    expect(successor.entry).toMatchObject({ name: '6号機', station_ids: [6, 7], state: 'active' });
    expect(await entryOf(old.entry.key_id)).toMatchObject({
      state: 'rotating',
      rotated_to: successor.entry.key_id,
      expires_at: new Date(clock.now().getTime() + 60 * MINUTE).toISOString(),
    });
    expect((await keys.verify(old.key))?.stationIds).toEqual([6, 7]);
    expect((await keys.verify(successor.key))?.stationIds).toEqual([6, 7]);
    clock.advance(60 * MINUTE - 1);
    expect(await keys.verify(old.key)).not.toBeNull();
    clock.advance(1);
    sessions.admin = await signIn('aoi.admin');
    expect(await keys.verify(old.key)).toBeNull();
    expect(await keys.verify(successor.key)).not.toBeNull();
    expect((await entryOf(old.entry.key_id))!.state).toBe('expired');

    const again = await rotate(old.entry.key_id);
    expect(again).toEqual({
      status: 409,
      json: { error_code: 409, error_info: SERVER_MESSAGES.stationKeyNotRotatable },
    });
    await admin('station_key_revoke', { key_id: successor.entry.key_id });
    expect((await rotate(successor.entry.key_id)).status).toBe(409);
    expect(await rotate('zzzzzzzzzzzz')).toEqual({
      status: 404,
      json: { error_code: 404, error_info: SERVER_MESSAGES.stationKeyNotFound },
    });
  });

  it('the default overlap is a day, and 0 ends the old key at once', async () => {
    const day = await issue('default overlap', [8]);
    operatorStationKeyIssuedResponseSchema.parse((await rotate(day.entry.key_id)).json);
    expect((await entryOf(day.entry.key_id))!.expires_at).toBe(
      new Date(clock.now().getTime() + 24 * 60 * MINUTE).toISOString(),
    );
    const now = await issue('no overlap', [8]);
    const next = operatorStationKeyIssuedResponseSchema.parse((await rotate(now.entry.key_id, 0)).json);
    shown.push(next.key);
    expect(await keys.verify(now.key)).toBeNull();
    expect(await keys.verify(next.key)).not.toBeNull();
  });

  it('[R11-1] a revoked key is refused at once and the gateway’s listener hears of it once', async () => {
    const { key, entry } = await issue('revoke me', [9]);
    const listener = vi.fn();
    const stop = keys.onRevoked(listener);
    try {
      expect(await keys.verify(key)).not.toBeNull();
      const res = await admin('station_key_revoke', { key_id: entry.key_id });
      expect(res.status).toBe(200);
      expect(operatorStationKeyRevokedResponseSchema.parse(res.json).entry).toMatchObject({
        key_id: entry.key_id,
        state: 'revoked',
        revoked_at: clock.now().toISOString(),
      });
      expect(listener).toHaveBeenCalledExactlyOnceWith({ keyId: entry.key_id, by: 'aoi.admin' });
      expect(await keys.verify(key)).toBeNull();
      // Revoking again changes nothing and tells nobody again.
      expect((await admin('station_key_revoke', { key_id: entry.key_id })).status).toBe(200);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(await admin('station_key_revoke', { key_id: 'zzzzzzzzzzzz' })).toEqual({
        status: 404,
        json: { error_code: 404, error_info: SERVER_MESSAGES.stationKeyNotFound },
      });
    } finally {
      stop();
    }
  });

  it('of rotations of one key at once exactly one wins: one successor, the others refused 409', async () => {
    const { entry } = await issue('race', [10]);
    const before = await keyCount();
    const answers = await Promise.all(Array.from({ length: 6 }, () => rotate(entry.key_id, 5)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    const successor = operatorStationKeyIssuedResponseSchema.parse(won[0]!.json);
    shown.push(successor.key);
    expect(await keyCount()).toBe(before + 1);
    expect((await entryOf(entry.key_id))!.rotated_to).toBe(successor.entry.key_id);
    // The same through the service, without HTTP in between.
    const direct = await Promise.allSettled(
      Array.from({ length: 6 }, () => keys.rotate(successor.entry.key_id, { by: 'aoi.admin' })),
    );
    expect(direct.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await keyCount()).toBe(before + 2);
  });
});

describe('the operator API around keys', () => {
  it('every change is audited (who, what, the key’s row before and after) and no audit row holds a key or its hash', async () => {
    const { entry } = await issue('audited', [11]);
    const next = operatorStationKeyIssuedResponseSchema.parse((await rotate(entry.key_id, 10)).json);
    shown.push(next.key);
    await admin('station_key_revoke', { key_id: next.entry.key_id });
    const rows = await t.server
      .store()
      .query<{ action: string; operator_login: string; target: unknown; before: unknown; after: unknown }>(
        "SELECT action, operator_login, target, before, after FROM operator_audit WHERE action LIKE 'operator/station_key%' ORDER BY audit_id",
      );
    const issued = rows.find((r) => (r.after as { key_id?: string } | null)?.key_id === entry.key_id);
    expect(issued).toMatchObject({
      action: 'operator/station_key_issue',
      operator_login: 'aoi.admin',
      target: { name: 'audited', station_ids: [11] },
      before: null,
      after: { key_id: entry.key_id, station_ids: [11], state: 'active' },
    });
    expect(rows.find((r) => (r.target as { key_id?: string }).key_id === entry.key_id)).toMatchObject({
      action: 'operator/station_key_rotate',
      before: { key: { state: 'active', rotated_to: null }, successor: null },
      after: { key: { state: 'rotating', rotated_to: next.entry.key_id }, successor: { key_id: next.entry.key_id } },
    });
    expect(rows.find((r) => (r.target as { key_id?: string }).key_id === next.entry.key_id)).toMatchObject({
      action: 'operator/station_key_revoke',
      before: { state: 'active' },
      after: { state: 'revoked' },
    });
    const everything = (
      await t.server
        .store()
        .query<{ text: string }>(
          "SELECT coalesce(string_agg(row_to_json(a)::text, ''), '') AS text FROM operator_audit a",
        )
    )[0]!.text;
    expect(shown.length).toBeGreaterThan(5);
    for (const key of shown) for (const trace of tracesOf(key)) expect(everything).not.toContain(trace);
  });

  it('floor and support staff are refused 403 in Japanese on every key call, and nothing changes', async () => {
    const { entry } = await issue('not yours', [12]);
    const floor = await signIn('kenta.floor');
    const support = await signIn('yui.support');
    const [count, audited] = [await keyCount(), await auditCount()];
    for (const token of [floor, support, 'not-a-session-token-at-all-0123'])
      for (const [path, body] of [
        ['station_keys', {}],
        ['station_key_issue', { name: 'x', station_ids: [1] }],
        ['station_key_rotate', { key_id: entry.key_id }],
        ['station_key_revoke', { key_id: entry.key_id }],
      ] as const) {
        const res = await call(path, body, token);
        expect(res.status).toBe(403);
        expect(res.json.error_info).toMatch(JAPANESE);
      }
    expect([await keyCount(), await auditCount()]).toEqual([count, audited]);
    expect((await entryOf(entry.key_id))!.state).toBe('active');
  });

  it('malformed bodies (wrong types, bad bytes, huge strings, unknown stations) are refused 400/404 in Japanese, never 5xx, and nothing changes', async () => {
    const { entry } = await issue('untouched', [13]);
    const [count, audited] = [await keyCount(), await auditCount()];
    const cases: [string, unknown][] = [
      ['station_key_issue', {}],
      ['station_key_issue', { name: 123, station_ids: [1] }],
      ['station_key_issue', { name: '', station_ids: [1] }],
      ['station_key_issue', { name: '   ', station_ids: [1] }],
      ['station_key_issue', { name: 'x'.repeat(65), station_ids: [1] }],
      ['station_key_issue', { name: 'あ'.repeat(15_000), station_ids: [1] }],
      ['station_key_issue', { name: 'a\u0000b', station_ids: [1] }],
      ['station_key_issue', { name: 'a\u202eb', station_ids: [1] }],
      ['station_key_issue', { name: 'ok', station_ids: [] }],
      ['station_key_issue', { name: 'ok', station_ids: 1 }],
      ['station_key_issue', { name: 'ok', station_ids: ['1'] }],
      ['station_key_issue', { name: 'ok', station_ids: [0] }],
      ['station_key_issue', { name: 'ok', station_ids: [-1] }],
      ['station_key_issue', { name: 'ok', station_ids: [1.5] }],
      ['station_key_issue', { name: 'ok', station_ids: [2 ** 31] }],
      ['station_key_issue', { name: 'ok', station_ids: Array.from({ length: 65 }, (_, i) => i + 1) }],
      ['station_key_issue', { name: 'ok', station_ids: [1], key: 'onk_sk_chosen' }],
      ['station_key_issue', { name: 'ok', station_ids: [1, 999_999] }],
      ['station_key_issue', [1, 2]],
      ['station_key_issue', null],
      ['station_key_rotate', {}],
      ['station_key_rotate', { key_id: 42 }],
      ['station_key_rotate', { key_id: entry.key_id.toUpperCase() }],
      ['station_key_rotate', { key_id: `${entry.key_id}'--` }],
      ['station_key_rotate', { key_id: entry.key_id, overlap_minutes: -1 }],
      ['station_key_rotate', { key_id: entry.key_id, overlap_minutes: 1.5 }],
      ['station_key_rotate', { key_id: entry.key_id, overlap_minutes: '60' }],
      ['station_key_rotate', { key_id: entry.key_id, overlap_minutes: 7 * 24 * 60 + 1 }],
      ['station_key_revoke', { key_id: 'x'.repeat(50_000) }],
      ['station_key_revoke', { key_id: ['a'] }],
      ['station_keys', { extra: 1 }],
    ];
    for (const [path, body] of cases) {
      const res = await call(path, body, sessions.admin);
      expect([400, 404], `${path} ${JSON.stringify(body).slice(0, 80)}`).toContain(res.status);
      expect(res.json.error_info).toMatch(JAPANESE);
    }
    const unknown = await admin('station_key_issue', { name: 'ok', station_ids: [1, 999_999] });
    expect(unknown.json.error_info).toBe(SERVER_MESSAGES.stationKeyUnknownStations([999_999]));
    for (const raw of [
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      Buffer.from('{"name":"ok","station_ids":[1]'),
      Buffer.from('\u0000\u0001\u0002'),
    ]) {
      const res = await call('station_key_issue', null, sessions.admin, raw);
      expect(res.status).toBe(400);
      expect(res.json.error_info).toMatch(JAPANESE);
    }
    expect([await keyCount(), await auditCount()]).toEqual([count, audited]);
    expect((await entryOf(entry.key_id))!.state).toBe('active');
  });
});

describe('the server’s log', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onkure-station-keys-'));
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a server logging every request at trace level writes no key and no hash while keys are issued, used, rotated and revoked', async () => {
    const token = 'station-keys-log-test-token-0123456789';
    server = new ServerProcess(await freePort(), dataDir, { LOG_LEVEL: 'trace', ONKURE_OPERATOR_TOKEN: token });
    await server.start();
    const post = async (path: string, body: object) => {
      const res = await fetch(`${server!.origin}/api/operator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const first = operatorStationKeyIssuedResponseSchema.parse(
      (await post('station_key_issue', { name: 'log', station_ids: [1] })).json,
    );
    const second = operatorStationKeyIssuedResponseSchema.parse(
      (await post('station_key_rotate', { key_id: first.entry.key_id, overlap_minutes: 1 })).json,
    );
    expect((await post('station_key_revoke', { key_id: second.entry.key_id })).status).toBe(200);
    expect((await post('station_keys', {})).status).toBe(200);
    // A bad body is logged as a client error: it must not echo the key either.
    expect((await post('station_key_rotate', { key_id: first.key })).status).toBe(400);
    await server.kill('SIGTERM');
    const log = server.log;
    expect(log).toContain('station_key_issue');
    for (const key of [first.key, second.key]) for (const trace of tracesOf(key)) expect(log).not.toContain(trace);
  }, 120_000);
});
