import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { ServiceSignal } from '../../src/application';
import {
  CookieLogoutGuard,
  KyHttpClient,
  ServiceSignalBus,
  StoredSession,
  createKy,
  isInvalidResponseError,
  isLoggedOutError,
  isNotSignedInError,
  isPostResponseError,
  isTransportError,
  type PostResponseError,
} from '../../src/infrastructure';
import type { BuildTarget } from '../../src/domain';

/** A real HTTP peer that records every request and answers what the test scripts. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base = '';
let seen: Seen[] = [];
let respond: (req: Seen, res: ServerResponse) => void = () => undefined;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  respond = (_req, res) => json(res, 200, { error_code: 200, error_info: '', value: 1 });
});

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const answer = z.object({ error_code: z.number(), error_info: z.string(), value: z.number() });

function client(
  opts: { target?: BuildTarget; cookies?: string; timeoutMs?: number; signedIn?: boolean; authorization?: string } = {},
) {
  const session = new StoredSession();
  if (opts.signedIn !== false) session.signIn({ user_id: 42, access_token: 'tok_0123456789abcdefghijklmnop' });
  const signals = new ServiceSignalBus();
  const received: ServiceSignal[] = [];
  signals.signals$.subscribe((s) => received.push(s));
  const http = new KyHttpClient({
    config: {
      apiBase: base,
      authorization: opts.authorization ?? 'Bearer onkure-test',
      timeoutMs: opts.timeoutMs ?? 5000,
      retryDelayMs: 0,
    },
    target: opts.target ?? 'web',
    session,
    signals,
    logoutGuard: new CookieLogoutGuard(() => opts.cookies ?? ''),
  });
  return { http, session, received };
}

describe('KyHttpClient (the transport under every service call), against a real HTTP peer', () => {
  it('[R7-1] sends every call under the configured API base', async () => {
    const { http } = client();
    await firstValueFrom(http.post('user/tc', {}, answer, 'tc'));
    expect(seen[0]?.url).toBe('/api/user/tc');
  });

  it('[R7-2] sends the JSON content type, the XMLHttpRequest marker and the configured authorization', async () => {
    const { http } = client({ authorization: 'Basic b25rdXJlOnNlY3JldA==' });
    await firstValueFrom(http.post('user/tc', {}, answer, 'tc'));
    const headers = seen[0]!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(headers.authorization).toBe('Basic b25rdXJlOnNlY3JldA==');
    // The runtime negotiates compression itself (a forbidden header for fetch): it offers gzip and deflate.
    expect(headers['accept-encoding']).toMatch(/gzip/);
  });

  it('[R7-4] [R3-1] sends POST bodies as JSON carrying user_id and access_token from the session', async () => {
    const { http } = client();
    await firstValueFrom(http.post('user/set_volume', { set_volume: { volume: 1 } }, answer, 'set_volume'));
    expect(JSON.parse(seen[0]!.body)).toEqual({
      set_volume: { volume: 1 },
      user_id: 42,
      access_token: 'tok_0123456789abcdefghijklmnop',
    });
  });

  it('sends the access token in a header on GET calls, which have no body', async () => {
    const { http } = client();
    await firstValueFrom(http.get('purchase/pay_method_list/42', answer, 'pay_method_list'));
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers['x-access-token']).toBe('tok_0123456789abcdefghijklmnop');
  });

  it('refuses locally, sending nothing, a call that needs a user when nobody is signed in', async () => {
    const { http } = client({ signedIn: false });
    const error = await firstValueFrom(http.post('user/tc', {}, answer, 'tc', { identity: 'required' })).catch(
      (e: unknown) => e,
    );
    expect(isNotSignedInError(error)).toBe(true);
    expect(seen).toHaveLength(0);
  });

  // The spec's list (§7), written out here so a change to the production constant cannot pass unnoticed.
  it.each([408, 409, 425, 429, 500, 502, 503, 504])('[R7-5] retries a GET exactly once on %i', async (status) => {
    respond = (_req, res) => json(res, status, { error_code: status, error_info: '混み合っています' });
    const { http } = client();
    await firstValueFrom(http.get('store/new_arrivals', answer, 'new_arrivals')).catch(() => undefined);
    expect(seen.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('[R7-5] succeeds when the one GET retry succeeds', async () => {
    respond = (_req, res) =>
      seen.length === 1
        ? json(res, 503, { error_code: 503, error_info: '' })
        : json(res, 200, { error_code: 200, error_info: '', value: 7 });
    const { http } = client();
    expect(await firstValueFrom(http.get('store/new_arrivals', answer, 'new_arrivals'))).toMatchObject({ value: 7 });
    expect(seen).toHaveLength(2);
  });

  it('[R7-5] does not retry a GET whose connection fails (only the listed statuses are retried)', async () => {
    respond = (_req, res) => res.socket?.destroy();
    const { http } = client();
    const error = await firstValueFrom(http.get('store/new_arrivals', answer, 'new_arrivals')).catch((e: unknown) => e);
    expect(isTransportError(error)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('[R8-7] a call with no usable answer is a PostResponseError too, carrying the request and the raw answer', async () => {
    respond = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
    const { http } = client();
    const error = (await firstValueFrom(http.post('user/tc', { a: 1 }, answer, 'tc')).catch(
      (e: unknown) => e,
    )) as PostResponseError;
    expect(isPostResponseError(error)).toBe(true);
    expect(error.name).toBe('PostResponseError');
    expect(error.kind).toBe('transport');
    expect(error.detail.request).toEqual({ method: 'POST', url: `${base}user/tc` });
    expect(JSON.parse(error.detail.rawRequestBody)).toMatchObject({ a: 1, user_id: 42 });
    expect(error.detail.rawResponse).toBe('<html>Bad Gateway</html>');
    expect(error.detail.context).toBe('tc');
  });

  it.each([400, 401, 403, 404, 410, 422, 501, 505])(
    '[R7-5] does not retry a GET on %i, a status off the list',
    async (status) => {
      respond = (_req, res) => json(res, status, { error_code: status, error_info: '見つかりません' });
      const { http } = client();
      await firstValueFrom(http.get('store/new_arrivals', answer, 'new_arrivals')).catch(() => undefined);
      expect(seen).toHaveLength(1);
    },
  );

  it('[R7-5] never retries POST, even on a retryable status', async () => {
    respond = (_req, res) => json(res, 503, { error_code: 503, error_info: '混み合っています' });
    const { http } = client();
    await firstValueFrom(http.post('user/tc', {}, answer, 'tc')).catch(() => undefined);
    expect(seen).toHaveLength(1);
  });

  it.each(['put', 'patch', 'delete'] as const)('[R7-5] never retries %s on the shared ky instance', async (method) => {
    respond = (_req, res) => json(res, 503, { error_code: 503, error_info: '' });
    const ky = createKy({ apiBase: base, authorization: '', retryDelayMs: 0 });
    await ky[method]('x', { body: '{}' }).catch(() => undefined);
    expect(seen).toHaveLength(1);
  });

  it('[R7-3] aborts a call that takes longer than the configured timeout', async () => {
    respond = (_req, res) => hanging.push(res);
    const { http } = client({ timeoutMs: 80 });
    const error = await firstValueFrom(http.post('user/tc', {}, answer, 'tc')).catch((e: unknown) => e);
    expect(isTransportError(error)).toBe(true);
    expect((error as Error & { cause?: Error }).cause?.name).toBe('TimeoutError');
  });

  it('cancels the request when the subscriber unsubscribes', async () => {
    let closed: () => void = () => undefined;
    const closedOnServer = new Promise<void>((resolve) => (closed = resolve));
    respond = (_req, res) => {
      hanging.push(res);
      res.on('close', () => closed());
    };
    const { http } = client();
    const seenRequest = new Promise<void>((resolve) => {
      const prev = respond;
      respond = (req, res) => (prev(req, res), resolve());
    });
    const subscription: Subscription = http.post('user/tc', {}, answer, 'tc').subscribe();
    await seenRequest;
    subscription.unsubscribe();
    await closedOnServer;
    expect(seen).toHaveLength(1);
  });

  it('[R8-1] [R8-7] raises PostResponseError with the request, raw body, parsed and raw response and context', async () => {
    respond = (_req, res) => json(res, 400, { error_code: 569, error_info: 'VIP限定です' });
    const { http } = client();
    const error = (await firstValueFrom(http.post('v2/play/reserve', { station_id: 3 }, answer, 'reserve')).catch(
      (e: unknown) => e,
    )) as PostResponseError;
    expect(isPostResponseError(error)).toBe(true);
    expect(error.kind).toBe('refused');
    expect(error.code).toBe(569);
    expect(error.info).toBe('VIP限定です');
    expect(error.detail.request).toEqual({ method: 'POST', url: `${base}v2/play/reserve` });
    expect(JSON.parse(error.detail.rawRequestBody)).toMatchObject({ station_id: 3, user_id: 42 });
    expect(error.detail.response).toEqual({ error_code: 569, error_info: 'VIP限定です' });
    expect(error.detail.rawResponse).toBe('{"error_code":569,"error_info":"VIP限定です"}');
    expect(error.detail.context).toBe('reserve');
  });

  it('[R8-1] treats error_code other than 200 as failure even with HTTP 200', async () => {
    respond = (_req, res) => json(res, 200, { error_code: 404, error_info: 'ありません' });
    const { http } = client();
    const error = await firstValueFrom(http.post('user/tc', {}, answer, 'tc')).catch((e: unknown) => e);
    expect(isPostResponseError(error)).toBe(true);
  });

  it('turns an answer that breaks the contract into InvalidResponseError', async () => {
    respond = (_req, res) => json(res, 200, { error_code: 200, error_info: '', value: 'many' });
    const { http } = client();
    const error = await firstValueFrom(http.post('user/tc', {}, answer, 'tc')).catch((e: unknown) => e);
    expect(isInvalidResponseError(error)).toBe(true);
    expect((error as Error).message).toContain('value');
    // [R8-7] still a PostResponseError, with what was sent and what came back.
    expect(isPostResponseError(error)).toBe(true);
    expect((error as PostResponseError).detail.response).toEqual({ error_code: 200, error_info: '', value: 'many' });
  });

  it('[R8-5] publishes emergency and invaliduser answers on the one signal stream with stop-and-show effects', async () => {
    for (const code of [9001, 9002]) {
      respond = (_req, res) => json(res, 503, { error_code: code, error_info: 'ただいまメンテナンス中です' });
      const { http, received } = client();
      await firstValueFrom(http.post('contents/playing', {}, answer, 'playing')).catch(() => undefined);
      expect(received).toEqual([
        {
          kind: 'maintenance',
          code: code === 9001 ? 'emergency' : 'invaliduser',
          error_code: code,
          effects: [
            { type: 'stopSound' },
            { type: 'resetStream' },
            { type: 'stopPolling' },
            { type: 'showMaintenanceScreen', code, info: 'ただいまメンテナンス中です' },
          ],
        },
      ]);
    }
  });

  it('[R8-6] publishes reloaderror with the reload alert and the modal stop', async () => {
    respond = (_req, res) => json(res, 409, { error_code: 9003, error_info: '' });
    const { http, received } = client();
    await firstValueFrom(http.post('contents/playing', {}, answer, 'playing')).catch(() => undefined);
    expect(received[0]).toMatchObject({ kind: 'maintenance', code: 'reloaderror' });
    const effects = (received[0] as Extract<ServiceSignal, { kind: 'maintenance' }>).effects.map((e) => e.type);
    expect(effects).toEqual(['stopSound', 'resetStream', 'stopPolling', 'showAlert', 'stopModal']);
  });

  it('[R6-9] on web, the logout cookie blocks the call before it is sent and raises the reload alert', async () => {
    const { http, received } = client({ cookies: 'theme=dark; onkure_logout=1' });
    const error = await firstValueFrom(http.post('user/tc', {}, answer, 'tc')).catch((e: unknown) => e);
    expect(isLoggedOutError(error)).toBe(true);
    expect(seen).toHaveLength(0);
    expect(received).toEqual([{ kind: 'loggedOut' }]);
  });

  it('[R6-9] the logout cookie blocks nothing on other targets', async () => {
    const { http } = client({ target: 'ios', cookies: 'onkure_logout=1' });
    await firstValueFrom(http.post('user/tc', {}, answer, 'tc'));
    expect(seen).toHaveLength(1);
  });
});
