import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock } from '../clock';
import type { ConnectionLeases } from '../limits/connection-leases';
import { refuseUpgrade, requestUrl } from '../http/upgrade-request';
import type { StationCameras } from '../play/cameras/station-cameras';
import { FEED_HOP_HEADER, forwardUpgrade, type FeedOwners } from './feed-forward';
import type { RtcFeed } from './rtc-feed';
import {
  DEFAULT_SIGNALING_TIMINGS,
  MAX_MESSAGE_BYTES,
  SIGNALING_CLOSE,
  type SignalingTimings,
} from './signaling-protocol';
import { SignalingSession, type SessionContext } from './signaling-session';

export { SIGNALING_CLOSE, type SignalingTimings } from './signaling-protocol';

/** Limits and timings of the signaling endpoint. */
export interface SignalingOptions {
  /** The server's clock: the signaling deadlines and pings run on it. */
  readonly clock: Clock;
  /** The path the endpoint answers (the stations' webrtc_url when it is a path). */
  readonly path: string;
  /**
   * Signaling connections open at once from one client address (RTC_MAX_CONNECTIONS_PER_CLIENT),
   * leased in the store so the limit holds for every instance.
   */
  readonly perClient: Pick<ConnectionLeases, 'take' | 'close'>;
  /** Extra ICE host addresses to offer besides the machine's interfaces (e.g. 127.0.0.1). */
  readonly iceHosts: readonly string[];
  /** Whether a request's Origin may open a connection (the app's own origins only). */
  readonly originAllowed: (request: IncomingMessage) => boolean;
  /** The client's address: the socket's, or the trusted load balancer's or instance's X-Forwarded-For. */
  readonly clientAddress: (request: IncomingMessage) => string;
  /** Where each station's feed is drawn (several instances): forwarded to the instance running it. */
  readonly owners?: Pick<FeedOwners, 'route' | 'forget'>;
  /** With an error: a failure (an error line); without: a warning (server/logging/log-context.ts serviceLog). */
  readonly log: (message: string, error?: unknown) => void;
  readonly timings?: Partial<SignalingTimings>;
}

/**
 * The Sora-compatible signaling endpoint of the rtc live feed (docs/live-feed.md): the part of the
 * protocol sora-js-sdk speaks for a receive-only connection. One WebSocket per camera connection:
 * connect → offer (the server offers, its ICE candidates inside the SDP) and notify
 * connection.created → answer and trickled candidates → ping/pong → disconnect (close 1000). The
 * server's peer connection sends one VP8 track fed by the camera's shared encoder.
 */
export class SignalingServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  private readonly sessions = new Set<SignalingSession>();
  private readonly context: SessionContext;

  constructor(
    feed: RtcFeed,
    cameras: StationCameras,
    private readonly options: SignalingOptions,
  ) {
    this.context = {
      feed,
      cameras,
      clock: options.clock,
      timings: { ...DEFAULT_SIGNALING_TIMINGS, ...options.timings },
      iceHosts: options.iceHosts,
      log: options.log,
    };
  }

  /** Takes the HTTP server's upgrades for the signaling path; other paths are left to their owners. */
  attach(server: Server, ready: () => boolean): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = requestUrl(request);
      // An address that does not parse is answered (400) by the server's catch-all listener.
      if (!url || url.pathname !== this.options.path) return;
      if (!ready()) return refuseUpgrade(socket, '503 Service Unavailable');
      if (!this.options.originAllowed(request)) return refuseUpgrade(socket, '403 Forbidden');
      const client = this.options.clientAddress(request);
      const mediaToken = url.searchParams.get('k') ?? undefined;
      // The station the address names (station info adds it): its feed is drawn where its room runs.
      const named = url.searchParams.get('s');
      const station = named !== null && /^[1-9]\d{0,8}$/.test(named) ? Number(named) : null;
      if (named !== null && station === null) return refuseUpgrade(socket, '404 Not Found');
      const owners = this.options.owners;
      if (station === null || !owners) return this.accept(request, socket, head, client, mediaToken, station);
      // The lookup waits on the store: a client resetting meanwhile must not reach an unheard 'error'.
      const dropped = () => socket.destroy();
      socket.on('error', dropped);
      owners
        .route(station, request.headers[FEED_HOP_HEADER] !== undefined)
        .then((route) => {
          socket.off('error', dropped);
          if (socket.destroyed) return;
          if (route.kind === 'here') return this.accept(request, socket, head, client, mediaToken, station);
          if (route.kind === 'gone') return refuseUpgrade(socket, '503 Service Unavailable');
          return forwardUpgrade(request, socket, head, new URL(`${url.pathname}${url.search}`, route.to), client, () =>
            owners.forget(station),
          );
        })
        .catch(() => {
          if (!socket.destroyed) refuseUpgrade(socket, '503 Service Unavailable');
        });
    });
  }

  private accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    client: string,
    mediaToken: string | undefined,
    station: number | null,
  ): void {
    // The client's place is taken in the store before any slow step (the peer connection), so a
    // burst of sockets on any number of instances cannot pass the limit together. The lease goes
    // with the socket: released when it closes, however it closes (a failed upgrade too).
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    this.options.perClient.take(client).then(
      (lease) => {
        socket.off('error', dropped);
        if (lease) socket.once('close', () => lease.release());
        if (socket.destroyed) return lease?.release();
        this.wss.handleUpgrade(request, socket, head, (ws) => {
          if (!lease) return ws.close(SIGNALING_CLOSE.limit, 'too many connections from this client');
          this.open(ws, mediaToken, station, () => lease.release());
        });
      },
      (error: unknown) => {
        socket.off('error', dropped);
        // Fail closed: a place that cannot be counted is not given.
        this.options.log('signaling: taking a connection lease failed', error);
        if (!socket.destroyed) refuseUpgrade(socket, '503 Service Unavailable');
      },
    );
  }

  /** Open signaling connections (tests and the benchmark read it). */
  get connections(): number {
    return this.sessions.size;
  }

  /** Ends every connection; answers once their leases are given back to the store. */
  async close(): Promise<void> {
    for (const session of [...this.sessions]) session.end(1001, 'server shutting down');
    this.wss.close();
    await this.options.perClient.close();
  }

  /**
   * Ends every connection (of one station, or all) as a media server that stops would: close
   * code 1011. Development only (the e2e's signaling failure, docs/live-feed.md).
   */
  drop(stationId: number | null): number {
    let dropped = 0;
    for (const session of [...this.sessions]) {
      if (stationId !== null && session.stationId !== stationId) continue;
      session.end(1011, 'signaling stopped');
      dropped += 1;
    }
    return dropped;
  }

  private open(ws: WebSocket, mediaToken: string | undefined, station: number | null, release: () => void): void {
    const session = new SignalingSession(ws, { mediaToken, station }, this.context, () => {
      this.sessions.delete(session);
      release();
    });
    this.sessions.add(session);
  }
}
