import { BehaviorSubject, distinctUntilChanged, Observable, type Subscriber } from 'rxjs';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import type {
  RealtimeChannel,
  RealtimeConnectionState,
  RealtimeEvent,
  RealtimePort,
  ServiceSignal,
  SessionPort,
} from '../../application';
import {
  classifyResponse,
  DOMAIN_MESSAGES,
  REALTIME_SOCKET_SETTINGS,
  type BuildTarget,
  type AuthIdentity,
  type ControlAnswer,
  type CraneButton,
  type CraneCommand,
  type WatchKind,
} from '../../domain';
import { toChatMessage } from '../wire/chat-wire';
import {
  CHANNELS,
  chatMessageSchema,
  REALTIME_PATH,
  serviceMessagePushSchema,
  type ClientToServerEvents,
  type RealtimeUpdate,
  type ServerToClientEvents,
} from '../../contract';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Makes the socket (not yet connected); may load the client library first. */
export type SocketFactory = (
  url: string,
  options: Partial<ManagerOptions & SocketOptions>,
) => ClientSocket | Promise<ClientSocket>;

/**
 * The default factory: socket.io-client is loaded the first time a channel or a control needs it,
 * so it is not part of the code a page needs before it is live (issue 27).
 */
const loadSocketClient: SocketFactory = async (url, options) => {
  const { io } = await import('socket.io-client');
  return url ? io(url, options) : io(options);
};

/**
 * The default factory, once `ready` resolves (in a browser: once the page has loaded): the
 * library and the connection then do not compete with the page's own pictures and scripts for a
 * slow network, and the page's first data came rendered with it anyway (issue 27).
 */
export function socketClientAfter(ready: () => Promise<void>): SocketFactory {
  return async (url, options) => {
    await ready();
    return loadSocketClient(url, options);
  };
}

export interface SocketRealtimeConfig {
  /** The socket server's address (the public setting for the websocket server); '' = this origin [R7-10]. */
  readonly url: string;
  /** The configured channel beside top (spec §7). */
  readonly configuredChannel: string;
  /**
   * Where service messages pushed by the operator go (emergency, invaliduser, reloaderror,
   * cancellation; §8): the same signal bus the HTTP transport publishes answers on, with the
   * build target that decides what a cancellation does [R4.6-2]. None: pushes are not heeded.
   */
  readonly serviceSignals?: {
    readonly target: BuildTarget;
    publish(signal: ServiceSignal): void;
  };
}

/** The error_code of a control refused because the connection is down (HTTP's "unavailable"). */
export const CONTROL_OFFLINE_CODE = 503;

/** How long a control waits for its acknowledgement. */
const CONTROL_ACK_TIMEOUT_MS = 5_000;

/** The socket.io options of R9-14 and R7-10: websocket only, /socket.io, timeouts and backoff. */
export function socketOptions(identity: () => AuthIdentity | null): Partial<ManagerOptions & SocketOptions> {
  const s = REALTIME_SOCKET_SETTINGS;
  return {
    path: REALTIME_PATH,
    transports: ['websocket'],
    timeout: s.connectTimeoutMs,
    reconnection: s.reconnection,
    reconnectionAttempts: s.reconnectionAttempts,
    reconnectionDelay: s.reconnectionDelayMs,
    reconnectionDelayMax: s.reconnectionDelayMaxMs,
    randomizationFactor: s.randomizationFactor,
    perMessageDeflate: { threshold: s.perMessageDeflateThresholdBytes },
    autoConnect: false,
    // Read at every (re)connection, so signing in or out takes effect on the next handshake.
    auth: (cb: (data: object) => void) => {
      const who = identity();
      cb(who ? { user_id: who.user_id, access_token: who.access_token } : {});
    },
  };
}

/**
 * The real-time port on socket.io-client (spec §7, R7-10, R4.8, R9-14). The connection opens with
 * the first channel or control, closes when the last channel is left, and carries the signed-in
 * identity; a change of identity reconnects.
 * Channels are joined on subscribe, left on the last unsubscribe, and joined again after every
 * reconnection. Station and kuji events are filtered by the ids they carry.
 */
export class SocketRealtime implements RealtimePort {
  private socket: ClientSocket | null = null;
  /** The socket while its client library loads. */
  private loading: Promise<ClientSocket> | null = null;
  /** Controls waiting for the socket to load. */
  private waitingControls = 0;
  /** The socket was connected once: a disconnected socket now is a lost connection, not one still opening. */
  private connectedOnce = false;
  private readonly joined = new Map<string, number>();
  /** Channels the server has acknowledged joining on the current connection. */
  private readonly acked = new Set<string>();
  /** Who hears a channel's `joined` event. */
  private readonly joinListeners = new Map<string, Set<(event: RealtimeEvent) => void>>();
  private readonly state = new BehaviorSubject<RealtimeConnectionState>('closed');
  /** What this page shows of a station now (the latest `watch` subscription), or null. */
  private watching: { readonly stationId: number; readonly kind: WatchKind } | null = null;
  /** The report the server holds for this connection (null: none sent, or withdrawn). */
  private watchSent: string | null = null;
  private watchFlushQueued = false;
  readonly connection$ = this.state.pipe(distinctUntilChanged());

  constructor(
    private readonly config: SocketRealtimeConfig,
    private readonly session: SessionPort,
    private readonly connect: SocketFactory = loadSocketClient,
  ) {
    let last = session.current()?.user_id ?? null;
    session.identity$.subscribe((who) => {
      const next = who?.user_id ?? null;
      if (next === last) return;
      last = next;
      // Another user (or a guest): a new handshake with the new identity.
      if (this.socket) {
        this.socket.disconnect();
        this.state.next('opening');
        this.socket.connect();
      }
    });
  }

  /**
   * Runs `use` with the connection, opening it when it is closed: at once when the socket exists,
   * else once its client library has loaded (unless `cancelled` says the caller went away).
   */
  private withSocket(use: (socket: ClientSocket) => void, cancelled: () => boolean = () => false): void {
    if (this.socket) {
      if (!this.socket.active) {
        this.state.next('opening');
        this.socket.connect();
      }
      use(this.socket);
      return;
    }
    if (!this.loading) {
      this.state.next('opening');
      this.loading = Promise.resolve(
        this.connect(
          this.config.url,
          socketOptions(() => this.session.current()),
        ),
      ).then((socket) => this.wire(socket));
      this.loading.catch(() => {
        // The library could not load (offline, a deployment moved it): closed, and tried again next time.
        this.loading = null;
        this.state.next('closed');
      });
    }
    void this.loading.then(
      (socket) => {
        if (!cancelled()) use(socket);
      },
      () => undefined,
    );
  }

  /** Hooks a new socket's lifecycle to the state and the channels, and connects it when anything still needs it. */
  private wire(socket: ClientSocket): ClientSocket {
    socket.on('connect', () => {
      this.connectedOnce = true;
      this.state.next('open');
      for (const channel of this.joined.keys()) this.join(socket, channel);
      // A new connection holds no report: the page's is sent again, after the joins it names.
      this.watchSent = null;
      this.flushWatch();
    });
    socket.on('disconnect', () => {
      this.acked.clear();
      this.state.next(socket.active ? 'opening' : 'closed');
    });
    socket.on('connect_error', () => this.state.next(socket.active ? 'opening' : 'closed'));
    // An operator's service message reaches every open connection, whatever channels it is in.
    socket.on('service', (message) => this.serviceMessage(message));
    socket.io.on('reconnect_attempt', () => this.state.next('opening'));
    this.socket = socket;
    this.loading = null;
    // Every channel was left while the library loaded: nothing to connect for until the next one.
    if (this.joined.size === 0 && this.waitingControls === 0) this.state.next('closed');
    else socket.connect();
    // Every control that waited was waiting for this socket.
    this.waitingControls = 0;
    return socket;
  }

  /** A pushed maintenance-class code, checked at the border, handled as if a call had answered it. */
  private serviceMessage(message: unknown): void {
    const sink = this.config.serviceSignals;
    const parsed = serviceMessagePushSchema.safeParse(message);
    if (!sink || !parsed.success) return;
    const decision = classifyResponse(parsed.data, sink.target);
    if (decision.kind !== 'maintenance') return;
    sink.publish({
      kind: 'maintenance',
      code: decision.code,
      error_code: parsed.data.error_code,
      effects: decision.effects,
      via: 'push',
    });
  }

  /** Joins `name`; once the server acknowledges, its subscribers hear `joined` (pushes reach them from now on). */
  private join(socket: ClientSocket, name: string): void {
    socket.emit('join', name, (answer) => {
      if (!answer?.ok || !this.joined.has(name)) return;
      this.acked.add(name);
      for (const listener of this.joinListeners.get(name) ?? []) listener({ type: 'joined' });
    });
  }

  private nameOf(channel: RealtimeChannel): string | null {
    switch (channel.kind) {
      case 'top':
        return CHANNELS.top;
      case 'configured':
        return this.config.configuredChannel;
      case 'station':
        return CHANNELS.station(channel.stationId);
      case 'kujiBox':
        return CHANNELS.kujiBox(channel.kujiId, channel.boxId);
      case 'user': {
        const who = this.session.current();
        return who ? CHANNELS.user(who.user_id) : null;
      }
    }
  }

  channel(channel: RealtimeChannel): Observable<RealtimeEvent> {
    return new Observable<RealtimeEvent>((subscriber) => {
      const name = this.nameOf(channel);
      if (!name) {
        subscriber.complete();
        return undefined;
      }
      const count = this.joined.get(name) ?? 0;
      this.joined.set(name, count + 1);
      const emit = (event: RealtimeEvent) => subscriber.next(event);
      const listeners = this.joinListeners.get(name) ?? new Set();
      listeners.add(emit);
      this.joinListeners.set(name, listeners);
      if (this.acked.has(name)) emit({ type: 'joined' });
      let active = true;
      let socket: ClientSocket | null = null;
      const handlers: [keyof ServerToClientEvents, (payload: never) => void][] = [];
      const on = <E extends keyof ServerToClientEvents>(
        event: E,
        handler: (payload: Parameters<ServerToClientEvents[E]>[0]) => void,
      ) => {
        handlers.push([event, handler as never]);
      };
      if (channel.kind === 'station') {
        on(
          'reserve_change',
          (m) => m.station_id === channel.stationId && emit({ type: 'reserveChange', stationId: m.station_id }),
        );
        on('play_state', (play) => play.station_id === channel.stationId && emit({ type: 'playState', play }));
      } else if (channel.kind === 'kujiBox') {
        on(
          'play_end',
          (m) =>
            m.kuji_id === channel.kujiId &&
            m.box_id === channel.boxId &&
            emit({ type: 'playEnd', kujiId: m.kuji_id, boxId: m.box_id }),
        );
        on(
          'kuji_reserve_change',
          (m) =>
            m.kuji_id === channel.kujiId &&
            m.box_id === channel.boxId &&
            emit({ type: 'kujiReserveChange', kujiId: m.kuji_id, boxId: m.box_id }),
        );
      } else if (channel.kind === 'user') {
        on('push', (push) => emit({ type: 'push', push }));
        on('crane_reserve_cancel', (m) =>
          emit({ type: 'craneReserveCancel', stationId: m.station_id, reason: m.reason }),
        );
        // A support-chat message: checked at the border like every answer; a malformed one is dropped.
        on('chat', (m) => {
          const parsed = chatMessageSchema.safeParse(m);
          if (parsed.success) emit({ type: 'chat', message: toChatMessage(parsed.data) });
        });
      } else {
        on('update', (update: RealtimeUpdate) => {
          if (update.channel !== name) return;
          if (update.maintenance)
            emit({
              type: 'maintenance',
              stationId: update.maintenance.station_id,
              stationStatus: update.maintenance.station_status,
            });
          if (update.list) emit({ type: 'list', stations: update.list });
          if (update.get) emit({ type: 'winner', announcement: update.get });
        });
      }
      this.withSocket(
        (ready) => {
          socket = ready;
          for (const [event, handler] of handlers) ready.on(event, handler as never);
          if (count === 0 && ready.connected) this.join(ready, name);
        },
        () => !active,
      );
      return () => {
        active = false;
        listeners.delete(emit);
        const left = (this.joined.get(name) ?? 1) - 1;
        if (left > 0) this.joined.set(name, left);
        else {
          this.joined.delete(name);
          this.acked.delete(name);
        }
        // Left before the library loaded: the socket, once made, connects only if something else needs it.
        if (!socket) return;
        for (const [event, handler] of handlers) socket.off(event, handler as never);
        if (left <= 0) {
          if (socket.connected) socket.emit('leave', name, () => undefined);
          // No page listens any more: the connection closes (a player leaving the play screen is
          // away for the play loop) and opens again with the next channel.
          if (this.joined.size === 0) {
            this.state.next('closing');
            socket.disconnect();
            this.state.next('closed');
          }
        }
      };
    });
  }

  control(command: {
    readonly playId: number;
    readonly button: CraneButton;
    readonly command: CraneCommand;
  }): Observable<ControlAnswer> {
    return new Observable<ControlAnswer>((subscriber) => {
      if (!this.socket) this.waitingControls += 1;
      let active = true;
      this.withSocket(
        (socket) => this.send(socket, command, subscriber),
        () => !active,
      );
      return () => {
        active = false;
      };
    });
  }

  private send(
    socket: ClientSocket,
    command: { readonly playId: number; readonly button: CraneButton; readonly command: CraneCommand },
    subscriber: Subscriber<ControlAnswer>,
  ): void {
    // While the connection is down a button is not queued to reach the machine seconds later,
    // when the player no longer holds it: it is refused at once, and pressed again once back.
    if (this.connectedOnce && !socket.connected) {
      subscriber.next({ ok: false, error_code: CONTROL_OFFLINE_CODE, error_info: DOMAIN_MESSAGES.controlOffline });
      subscriber.complete();
      return;
    }
    socket
      .timeout(CONTROL_ACK_TIMEOUT_MS)
      .emit(
        'control',
        { play_id: command.playId, button: command.button, command: command.command },
        (error: Error | null, answer: ControlAnswer) => {
          if (error) subscriber.error(error);
          else {
            subscriber.next(answer);
            subscriber.complete();
          }
        },
      );
  }

  watch(report: { readonly stationId: number; readonly kind: WatchKind }): Observable<never> {
    return new Observable<never>(() => {
      this.watching = report;
      this.queueWatchFlush();
      return () => {
        if (this.watching !== report) return;
        this.watching = null;
        this.queueWatchFlush();
      };
    });
  }

  /**
   * Sends the report once the current task is done: a page moving from one kind to the next
   * (unsubscribe, then subscribe) sends only the new one, not a withdrawal in between.
   */
  private queueWatchFlush(): void {
    if (this.watchFlushQueued) return;
    this.watchFlushQueued = true;
    queueMicrotask(() => {
      this.watchFlushQueued = false;
      this.flushWatch();
    });
  }

  /** Tells the server the page's report if it differs from what the connection holds (not when offline: `connect` does). */
  private flushWatch(): void {
    const socket = this.socket;
    if (!socket?.connected) return;
    const report = this.watching;
    const key = report === null ? null : `${report.stationId}:${report.kind}`;
    if (key === this.watchSent) return;
    this.watchSent = key;
    // The answer matters to nobody here: a refused report (the channel not joined yet) is sent
    // again with the next connection, and a count is only ever the consoles' view.
    socket.emit(
      'watching',
      report === null ? null : { station_id: report.stationId, kind: report.kind },
      () => undefined,
    );
  }

  /** Closes the connection (the app is leaving). */
  close(): void {
    if (!this.socket) return;
    this.state.next('closing');
    this.socket.disconnect();
    this.state.next('closed');
  }
}
