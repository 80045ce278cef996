import { Observable } from 'rxjs';
import { io, type Socket } from 'socket.io-client';
import type { FloorFeedEvent, OperatorFloorFeedPort } from '../../application/operator';
import { REALTIME_SOCKET_SETTINGS } from '../../domain';
import { CHANNELS, REALTIME_PATH, type ClientToServerEvents, type ServerToClientEvents } from '../../contract';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface OperatorFloorSocketConfig {
  /** The socket server's address; '' = this page's origin. */
  readonly url: string;
}

/**
 * The live floor over socket.io: one websocket per subscription at /socket.io, the operator session
 * token in the handshake (`auth.operator_token`), joined to the operator floor channel on every
 * (re)connection. Emits `connected` once joined, `disconnected` when the connection or the join is
 * lost, and `change` for every `floor_change`. Unsubscribing closes the socket.
 */
export class SocketIoOperatorFloor implements OperatorFloorFeedPort {
  constructor(private readonly config: OperatorFloorSocketConfig) {}

  watch(token: string): Observable<FloorFeedEvent> {
    return new Observable<FloorFeedEvent>((subscriber) => {
      const s = REALTIME_SOCKET_SETTINGS;
      const options = {
        path: REALTIME_PATH,
        transports: ['websocket'],
        timeout: s.connectTimeoutMs,
        reconnection: true,
        reconnectionDelay: s.reconnectionDelayMs,
        reconnectionDelayMax: s.reconnectionDelayMaxMs,
        autoConnect: false,
        auth: { operator_token: token },
      };
      const socket: ClientSocket = this.config.url ? io(this.config.url, options) : io(options);
      socket.on('connect', () => {
        socket.emit('join', CHANNELS.operatorFloor, (answer) => {
          subscriber.next(answer.ok ? { kind: 'connected' } : { kind: 'disconnected' });
        });
      });
      socket.on('disconnect', () => subscriber.next({ kind: 'disconnected' }));
      socket.on('connect_error', () => subscriber.next({ kind: 'disconnected' }));
      socket.on('floor_change', (message) => subscriber.next({ kind: 'change', stationId: message.station_id }));
      socket.connect();
      return () => {
        socket.removeAllListeners();
        socket.close();
      };
    });
  }
}
