import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FloorFeedEvent } from '../../../src/application/operator';
import { KyOperatorApi } from '../../../src/infrastructure/operator/ky-operator-api.adapter';
import { SessionStorageOperatorToken } from '../../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { SocketIoOperatorFloor } from '../../../src/infrastructure/operator/socket-io-operator-floor.adapter';
import { startTestServer, type TestServer } from '../../support/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true });
  await t.server.services().operators.add('sfloor', 'フロア', 'floor', 'socket-floor-password');
});
afterAll(async () => t?.close());

async function signedInApi() {
  const tokens = new SessionStorageOperatorToken(null);
  const api = new KyOperatorApi({ apiBase: t.apiBase }, tokens);
  tokens.write((await api.login('sfloor', 'socket-floor-password')).token);
  return { api, token: tokens.read()! };
}

describe('SocketIoOperatorFloor against the reference server', () => {
  it('[R10-9] joins the operator floor channel with the session token and hears floor_change for a station action', async () => {
    const { api, token } = await signedInApi();
    const events: FloorFeedEvent[] = [];
    const subscription = new SocketIoOperatorFloor({ url: t.origin }).watch(token).subscribe((e) => events.push(e));
    try {
      await vi.waitFor(() => expect(events).toContainEqual({ kind: 'connected' }), { timeout: 10_000 });
      await api.pause(3, true);
      await vi.waitFor(() => expect(events).toContainEqual({ kind: 'change', stationId: 3 }), { timeout: 10_000 });
      await api.pause(3, false);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('[R10-9] a token the server does not know never joins the floor', async () => {
    const events: FloorFeedEvent[] = [];
    const subscription = new SocketIoOperatorFloor({ url: t.origin })
      .watch('not-a-session-token-0123456789')
      .subscribe((e) => events.push(e));
    try {
      await vi.waitFor(() => expect(events).toContainEqual({ kind: 'disconnected' }), { timeout: 10_000 });
      expect(events).not.toContainEqual({ kind: 'connected' });
    } finally {
      subscription.unsubscribe();
    }
  });
});
