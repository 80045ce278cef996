import { afterAll, afterEach, beforeAll } from 'vitest';
import { connectSocket } from './socket-client';
import { type Socket } from 'socket.io-client';
import { type ClientToServerEvents, type JoinAck, type ServerToClientEvents } from '../../src/contract';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import type { Answer } from '../server/user-helpers';
import type { ManualServerClock } from './manual-server-clock';
import { startTestServer, type TestServer } from './test-server';

export type UserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The server of a test file that calls the operator API and opens players' sockets: a listening
 * test server on a pinned clock with ONKURE_OPERATOR_TOKEN set. Call it at the top of the file: it
 * starts the server before all tests (then runs `started` with it), closes the sockets `connect`
 * opened after each test, and closes the server after all.
 */
export function setUpOperatorServer(options: {
  readonly clock: ManualServerClock;
  readonly token: string;
  readonly started: (t: TestServer) => void | Promise<void>;
}) {
  let t: TestServer | undefined;
  const sockets: UserSocket[] = [];
  // A pinned clock migrates and seeds a store of its own (no copied template): slow on a busy machine.
  beforeAll(async () => {
    t = await startTestServer({
      listen: true,
      inMemory: true,
      clock: options.clock,
      env: { ONKURE_OPERATOR_TOKEN: options.token },
    });
    await options.started(t);
  }, 120_000);
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => t?.close());
  const running = (): TestServer => {
    if (!t) throw new Error('the test server has not started');
    return t;
  };

  return {
    /** POSTs `body` to the operator API, /api/operator/<path>, with the operator token. */
    async operator(path: string, body: object): Promise<Answer> {
      const res = await running().server.app.inject({
        method: 'POST',
        url: `/api/operator/${path}`,
        payload: body,
        headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${options.token}` },
      });
      return { status: res.statusCode, json: res.json() };
    },

    /** A socket signed in as `u`; resolves once connected (or rejects with the refusal). */
    connect(u: { readonly user_id: number; readonly access_token: string }): Promise<UserSocket> {
      return connectSocket(running().origin, u, sockets);
    },

    /** Joins `channel` on the socket; resolves with the server's answer. */
    join: (s: UserSocket, channel: string) => new Promise<JoinAck>((resolve) => s.emit('join', channel, resolve)),
  };
}
