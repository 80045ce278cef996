import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/contract';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A real socket.io client on `origin` (websocket only, no reconnection), as a guest, signed in as
 * `user`, or as an operator's console (`{ operator_token }`); resolves once connected, rejects with the server's refusal. Pushed to `open` so the test
 * closes it after.
 */
export async function connectSocket(
  origin: string,
  user: { readonly user_id: number; readonly access_token: string } | { readonly operator_token: string } | undefined,
  open: TestSocket[],
): Promise<TestSocket> {
  const auth = !user
    ? {}
    : 'operator_token' in user
      ? { auth: { operator_token: user.operator_token } }
      : { auth: { user_id: user.user_id, access_token: user.access_token } };
  const socket: TestSocket = io(origin, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    timeout: 5000,
    ...auth,
  });
  open.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}
