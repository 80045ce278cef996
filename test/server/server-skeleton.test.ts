import { firstValueFrom } from 'rxjs';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, type PrizeCatalogPort } from '../../src/application';
import { isPostResponseError } from '../../src/infrastructure';
import { createAppContainer } from '../../src/main/container';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';

const HOST_STUB = { storage: null, cookies: () => '', navigator: { reload: () => undefined, goTo: () => undefined } };

describe('the reference server skeleton', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ listen: true, inMemory: true, env: { API_AUTHORIZATION: 'Bearer onkure-secret' } });
  });
  afterAll(async () => t?.close());

  it('serves socket.io at /socket.io on the same port as the API (websocket transport)', async () => {
    const socket: Socket = io(t.origin, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      timeout: 5000,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      expect(socket.connected).toBe(true);
      expect(socket.io.engine.transport.name).toBe('websocket');
    } finally {
      socket.close();
    }
  });

  it('[R7-2] refuses API calls without the configured Authorization header, with a Japanese error_info', async () => {
    const res = await fetch(`${t.apiBase}contents/top_page_prize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop_id: 1, is_top_page: 1 }),
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error_code: number; error_info: string };
    expect(body.error_code).toBe(403);
    expect(body.error_info).toMatch(/[\u3040-\u30ff]/);
  });

  it('[R7-2] answers the client that sends the configured Authorization header, and refuses a wrong one', async () => {
    const client = (authorization: string) =>
      createAppContainer(
        { ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, authorization },
        [],
        HOST_STUB,
      ).get<PrizeCatalogPort>(TOKENS.PrizeCatalogPort);
    const page = await firstValueFrom(client('Bearer onkure-secret').topPage({ shopId: 1 }));
    expect(page.tab_list.length).toBeGreaterThan(0);
    const error = await firstValueFrom(client('Bearer wrong').topPage({ shopId: 1 })).catch((e: unknown) => e);
    expect(isPostResponseError(error) && error.code).toBe(403);
  });

  it('keeps /healthz outside the API prefix and its Authorization check', async () => {
    const res = await fetch(`${t.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
