import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, loginResponseSchema } from '../../src/contract';
import { ManualServerClock } from '../support/manual-server-clock';
import { buyTc } from '../support/payments';
import { PlayDriver } from '../support/play-driver';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { validAddress } from './user-helpers';

/**
 * Issue 46, logs: a run's log lines are JSON, each request's lines carry its id (sent back in
 * X-Request-Id), what a request sets off in a room logs with that id, socket connections and their
 * events log with a connection id; and nothing in them opens an account or names a person — no
 * token, password, e-mail, client address or query string (docs/operations.md "Logs").
 */
const clock = new ManualServerClock(new Date('2026-11-30T12:00:00+09:00'));
const EMAIL = 'log-probe-7f3a@example.jp';
const PASSWORD = 'Kani-Pass-93812!';
const lines: string[] = [];
let t: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({
    listen: true,
    inMemory: true,
    clock,
    env: { LOG_LEVEL: 'debug', LOG_REQUEST_CONTEXT: '1' },
    logStream: { write: (line) => void lines.push(line) },
  });
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

type Line = Record<string, unknown> & { msg?: string; reqId?: string; conn?: string };
const parsed = (): Line[] => lines.map((line) => JSON.parse(line) as Line);

async function call(path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.origin}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    id: res.headers.get('x-request-id'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

describe('structured logs (issue 46)', () => {
  it(
    'a run of sign-up, sign-in, purchase, socket and play logs JSON lines tied to their requests and connections, and nothing secret or personal',
    { timeout: 120_000 },
    async () => {
      // Sign-up and sign-in with a password; a wrong password too.
      expect((await call('auth/signup', { email: EMAIL, password: PASSWORD, agree_contract: 1 })).status).toBe(200);
      expect((await call('auth/login', { email: EMAIL, password: 'Wrong-Pass-00000!' })).status).toBeLessThan(500);
      const login = await call('auth/login', { email: EMAIL, password: PASSWORD });
      const user = loginResponseSchema.parse(login.json);
      await t.server.store().query("UPDATE users SET birth = '1990-04-01' WHERE user_id = $1", [user.user_id]);
      await t.server
        .services()
        .ledger.credit(user.user_id, 'free', { amount: 1_000, reason: 'admin', idempotencyKey: 'test:logs' });
      // A delivery address (a street and a phone number that must not reach the logs).
      expect(
        (
          await call('account/address/register', {
            user_id: user.user_id,
            access_token: user.access_token,
            address: validAddress({ address2: '蟹谷町9-8-7', tel: '09011112222' }),
          })
        ).status,
      ).toBe(200);
      // A bad body, a camera still with a media token in its query, a purchase through the provider.
      expect(
        (await call('v2/play/reserve', { user_id: user.user_id, access_token: user.access_token, x: '\u0000' })).status,
      ).toBe(400);
      const station = await playableStation(t);
      // (An unknown station: answered at once, and its address logged without the query.)
      expect((await fetch(`${t.origin}/api/stations/99999/camera/front.jpg?k=secret-media-token-123456`)).status).toBe(
        404,
      );
      expect((await buyTc(t, user, 2)).status).toBe('completed');
      // A socket, and a play started by a request whose id we read back.
      const socket = await connectSocket(t.origin, user, sockets);
      expect(await socket.emitWithAck('join', CHANNELS.station(station.station_id))).toMatchObject({ ok: true });
      const driver = new PlayDriver(t, clock, user);
      await driver.reserve(station.station_id).waitTurn();
      const confirm = await call('v2/play/confirm', {
        user_id: user.user_id,
        access_token: user.access_token,
        station_id: station.station_id,
      });
      expect(confirm.status).toBe(200);
      expect(confirm.id).toMatch(/^r-[\w-]{12}$/);

      const all = parsed();
      // Every line is JSON with a level, a time and a message.
      expect(all.length).toBeGreaterThan(20);
      for (const line of all) expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number) });
      // The request's own lines: its id, method, path and route template, its status.
      const confirmLines = all.filter((l) => l.reqId === confirm.id);
      expect(confirmLines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      expect(confirmLines.find((l) => l.msg === 'incoming request')).toMatchObject({
        req: { method: 'POST', url: '/api/v2/play/confirm', route: '/api/v2/play/confirm' },
      });
      // What the request set off in the station's room logs with the request's id.
      expect(confirmLines.find((l) => l.msg === 'play started')).toMatchObject({
        stationId: station.station_id,
        userId: user.user_id,
      });
      // The socket: its connection and its events, with a connection id of its own.
      const connected = all.find((l) => l.msg === 'socket connected' && l.userId === user.user_id);
      expect(connected?.conn).toMatch(/^c-/);
      expect(all.some((l) => l.msg === 'socket event' && l.conn === connected?.conn && l.socketEvent === 'join')).toBe(
        true,
      );
      // Nothing secret or personal anywhere in the run's logs.
      const text = lines.join('');
      for (const secret of [
        PASSWORD,
        'Wrong-Pass-00000!',
        user.access_token,
        EMAIL,
        'secret-media-token-123456',
        '蟹谷町',
        '09011112222',
        'remoteAddress',
        '"authorization"',
      ])
        expect(text, secret).not.toContain(secret);
      // The client's address is in no line (the server's own listening address is said once, at start).
      expect(lines.filter((line) => line.includes('127.0.0.1') && !line.includes('Server listening at'))).toEqual([]);
    },
  );

  it('a request id from the load balancer is kept only when the server trusts a proxy, and only a plain token', async () => {
    const own = await fetch(`${t.origin}/healthz`, { headers: { 'x-request-id': 'lb-0123456789abcdef' } });
    // This server trusts no proxy: the id is its own.
    expect(own.headers.get('x-request-id')).toMatch(/^r-/);
    const trusting = await startTestServer({ listen: true, agent: false, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const kept = await fetch(`${trusting.origin}/healthz`, { headers: { 'x-request-id': 'lb-0123456789abcdef' } });
      expect(kept.headers.get('x-request-id')).toBe('lb-0123456789abcdef');
      const odd = await fetch(`${trusting.origin}/healthz`, { headers: { 'x-request-id': 'x"} {"level":60' } });
      expect(odd.headers.get('x-request-id')).toMatch(/^r-/);
    } finally {
      await trusting.close();
    }
  });
});
