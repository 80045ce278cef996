import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  MediaStream,
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpHeaderExtensionParameters,
  type RTCRtpSender,
} from 'werift';
import { PLAYOUT_DELAY } from './playout-delay';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod/mini';
import type { CameraName } from '../play/cameras/camera-renderer';
import type { StationCameras } from '../play/cameras/station-cameras';
import type { CameraBroadcast, CameraViewer } from './camera-broadcast';
import type { RtcFeed } from './rtc-feed';
import { FEED_HOP_HEADER, forwardUpgrade, type FeedOwners } from './feed-forward';

/** Limits and timings of the signaling endpoint. */
export interface SignalingOptions {
  /** The server's clock: the signaling deadlines and pings run on it. */
  readonly clock: Clock;
  /** The path the endpoint answers (the stations' webrtc_url when it is a path). */
  readonly path: string;
  /** Signaling connections open at once from one client address. */
  readonly maxConnectionsPerClient: number;
  /** Extra ICE host addresses to offer besides the machine's interfaces (e.g. 127.0.0.1). */
  readonly iceHosts: readonly string[];
  /** Whether a request's Origin may open a connection (the app's own origins only). */
  readonly originAllowed: (request: IncomingMessage) => boolean;
  /** The client's address: the socket's, or the trusted load balancer's or instance's X-Forwarded-For. */
  readonly clientAddress: (request: IncomingMessage) => string;
  /** Where each station's feed is drawn (several instances): forwarded to the instance running it. */
  readonly owners?: Pick<FeedOwners, 'route' | 'forget'>;
  readonly log: (message: string) => void;
  readonly timings?: Partial<SignalingTimings>;
}

export interface SignalingTimings {
  /** The client must send connect within this after the socket opens. */
  readonly connectMs: number;
  /** The client must answer the offer within this. */
  readonly answerMs: number;
  /** The server pings this often; no pong for two pings ends the connection. */
  readonly pingMs: number;
  /** ICE gathering of the offer waits at most this. */
  readonly gatherMs: number;
}

const DEFAULT_TIMINGS: SignalingTimings = { connectMs: 5_000, answerMs: 10_000, pingMs: 5_000, gatherMs: 3_000 };

/** Close codes: 1000 is the normal end the SDK expects; 4xxx say what was wrong. */
export const SIGNALING_CLOSE = {
  normal: 1000,
  badMessage: 4400,
  forbidden: 4403,
  unknownChannel: 4404,
  timeout: 4408,
  limit: 4429,
  unavailable: 4503,
} as const;

/** The largest signaling message (an SDP is a few KB). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Trickled candidates one connection may send (a browser sends a handful). */
const MAX_CANDIDATES = 50;
/** VP8 as the offer names it: payload type 96, 90 kHz, with the feedback Chromium uses. */
const VP8_PAYLOAD_TYPE = 96;

/** A station camera's channel id, as station info gives it: station-{id}-{front|side}. */
const CHANNEL_ID = /^station-([1-9]\d{0,8})-(front|side)$/;

const connectMessage = z.looseObject({
  type: z.literal('connect'),
  role: z.string().check(z.maxLength(16)),
  channel_id: z.string().check(z.maxLength(255)),
  audio: z.optional(z.union([z.boolean(), z.looseObject({})])),
  video: z.optional(
    z.union([z.boolean(), z.looseObject({ codec_type: z.optional(z.string().check(z.maxLength(16))) })]),
  ),
  metadata: z.optional(z.unknown()),
  sdp: z.optional(z.string().check(z.maxLength(MAX_MESSAGE_BYTES))),
});
const sdpMessage = z.looseObject({
  type: z.enum(['answer', 're-answer']),
  sdp: z.string().check(z.minLength(1)).check(z.maxLength(MAX_MESSAGE_BYTES)),
});
const candidateMessage = z.looseObject({
  type: z.literal('candidate'),
  candidate: z.string().check(z.maxLength(2048)),
  sdpMid: z.nullish(z.string().check(z.maxLength(64))),
  sdpMLineIndex: z.nullish(z.int().check(z.gte(0)).check(z.lte(64))),
});
const otherMessage = z.looseObject({ type: z.enum(['pong', 'disconnect', 'stats']) });

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
  private readonly perClient = new Map<string, number>();
  private readonly sessions = new Set<SignalingSession>();
  private readonly timings: SignalingTimings;

  constructor(
    private readonly feed: RtcFeed,
    private readonly cameras: StationCameras,
    private readonly options: SignalingOptions,
  ) {
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
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
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, client, mediaToken, station));
  }

  /** Open signaling connections (tests and the benchmark read it). */
  get connections(): number {
    return this.sessions.size;
  }

  close(): void {
    for (const session of [...this.sessions]) session.end(1001, 'server shutting down');
    this.wss.close();
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

  private open(ws: WebSocket, client: string, mediaToken: string | undefined, station: number | null): void {
    // Counted at once, before any slow step, so a burst of sockets cannot pass the limit together.
    const open = this.perClient.get(client) ?? 0;
    if (open >= this.options.maxConnectionsPerClient) {
      ws.close(SIGNALING_CLOSE.limit, 'too many connections from this client');
      return;
    }
    this.perClient.set(client, open + 1);
    const session = new SignalingSession(
      ws,
      mediaToken,
      station,
      this.feed,
      this.cameras,
      this.options,
      this.timings,
      () => {
        this.sessions.delete(session);
        const left = (this.perClient.get(client) ?? 1) - 1;
        if (left <= 0) this.perClient.delete(client);
        else this.perClient.set(client, left);
      },
    );
    this.sessions.add(session);
  }
}

/** The request's address, or null when it does not parse (a raw request line can hold anything). */
export function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** Cuts a close reason to the WebSocket limit of 123 bytes on a character boundary. */
export function closeReason(reason: string): string {
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  return cut;
}

export function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

type SessionState = 'awaiting-connect' | 'offering' | 'awaiting-answer' | 'connected' | 'closed';

/** One receive-only connection: its WebSocket, its peer connection, its place among the camera's viewers. */
class SignalingSession {
  private state: SessionState = 'awaiting-connect';
  /** The station of the channel, once connect named it. */
  stationId: number | null = null;
  private readonly connectionId = randomBytes(13).toString('base64url');
  private pc: RTCPeerConnection | null = null;
  private sender: RTCRtpSender | null = null;
  private readonly track = new MediaStreamTrack({ kind: 'video' });
  private broadcast: CameraBroadcast | null = null;
  private viewer: CameraViewer | null = null;
  private deadline: ScheduledTask | null = null;
  private pinger: ScheduledTask | null = null;
  private unanswered = 0;
  /** Whether the camera's track should be on the connection, and whether it is (renegotiated by re-offer). */
  private wantLive = true;
  private isLive = true;
  private renegotiating = false;
  private queue: Promise<void> = Promise.resolve();
  private candidates = 0;
  private mediaConnected = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly mediaToken: string | undefined,
    /** The station the signaling address named (it was routed to this instance for it), or null. */
    private readonly addressed: number | null,
    private readonly feed: RtcFeed,
    private readonly cameras: StationCameras,
    private readonly options: SignalingOptions,
    private readonly timings: SignalingTimings,
    private readonly onClosed: () => void,
  ) {
    // One message at a time, in order: a candidate that overtook its answer would be added before
    // the remote description is set.
    ws.on('message', (data, isBinary) => {
      this.queue = this.queue
        .then(() => this.receive(data, isBinary))
        .catch((error: unknown) => {
          this.end(
            SIGNALING_CLOSE.badMessage,
            `signaling failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
    });
    ws.on('close', () => this.cleanUp());
    ws.on('error', () => this.end(SIGNALING_CLOSE.badMessage, 'socket error'));
    this.expect(timings.connectMs, 'no connect message in time');
  }

  /** Ends the connection with a close code and a reason the client can read (≤ 123 bytes). */
  end(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    try {
      if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING)
        this.ws.close(code, closeReason(reason));
    } catch {
      this.ws.terminate();
    } finally {
      this.cleanUp();
    }
  }

  private cleanUp(): void {
    this.state = 'closed';
    this.deadline?.cancel();
    this.pinger?.cancel();
    this.deadline = null;
    this.pinger = null;
    if (this.broadcast && this.viewer) this.broadcast.leave(this.viewer);
    this.broadcast = null;
    this.viewer = null;
    const pc = this.pc;
    this.pc = null;
    if (pc) void pc.close().catch(() => undefined);
    if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate();
    this.onClosed();
  }

  private expect(ms: number, reason: string): void {
    this.deadline?.cancel();
    this.deadline = this.options.clock.setTimeout(() => this.end(SIGNALING_CLOSE.timeout, reason), ms);
  }

  private send(message: object): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  private async receive(data: RawData, isBinary: boolean): Promise<void> {
    if (this.state === 'closed') return;
    if (isBinary) return this.end(SIGNALING_CLOSE.badMessage, 'signaling messages are JSON text');
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return this.end(SIGNALING_CLOSE.badMessage, 'a signaling message is not JSON');
    }
    const type =
      typeof message === 'object' && message !== null && !Array.isArray(message)
        ? (message as { type?: unknown }).type
        : undefined;
    if (typeof type !== 'string')
      return this.end(SIGNALING_CLOSE.badMessage, 'a signaling message needs a string type');
    if (this.state === 'awaiting-connect' && type !== 'connect')
      return this.end(SIGNALING_CLOSE.badMessage, `expected connect, got ${type.slice(0, 40)}`);
    switch (type) {
      case 'connect': {
        if (this.state !== 'awaiting-connect') return this.end(SIGNALING_CLOSE.badMessage, 'connect was already sent');
        const parsed = connectMessage.safeParse(message);
        if (!parsed.success) return this.end(SIGNALING_CLOSE.badMessage, 'malformed connect message');
        return this.connect(parsed.data);
      }
      case 'answer':
      case 're-answer': {
        const parsed = sdpMessage.safeParse(message);
        if (!parsed.success) return this.end(SIGNALING_CLOSE.badMessage, `malformed ${type} message`);
        if (type === 'answer' && this.state !== 'awaiting-answer')
          return this.end(SIGNALING_CLOSE.badMessage, 'answer out of turn');
        if (type === 're-answer' && !this.renegotiating)
          return this.end(SIGNALING_CLOSE.badMessage, 're-answer without a re-offer');
        await this.pc!.setRemoteDescription({ type: 'answer', sdp: parsed.data.sdp });
        if (type === 'answer') this.answered();
        else this.reAnswered();
        return;
      }
      case 'candidate': {
        const parsed = candidateMessage.safeParse(message);
        if (!parsed.success) return this.end(SIGNALING_CLOSE.badMessage, 'malformed candidate message');
        if (this.state !== 'connected' && this.state !== 'awaiting-answer')
          return this.end(SIGNALING_CLOSE.badMessage, 'candidate before the answer');
        this.candidates += 1;
        if (this.candidates > MAX_CANDIDATES) return this.end(SIGNALING_CLOSE.badMessage, 'too many candidates');
        // Only a candidate whose address is an IP literal is added. An end-of-candidates marker
        // (empty string) needs nothing. A browser hides its addresses behind mDNS names (….local),
        // and werift would look any name up (stalling the connection for seconds); none is needed:
        // the browser's checks reach the candidates in our offer, and ICE learns its address from
        // them (peer-reflexive).
        if (isIP(parsed.data.candidate.split(' ')[4] ?? '') !== 0) {
          await this.pc!.addIceCandidate({
            candidate: parsed.data.candidate,
            sdpMid: parsed.data.sdpMid ?? '0',
            sdpMLineIndex: parsed.data.sdpMLineIndex ?? 0,
          }).catch(() => undefined);
        }
        return;
      }
      default: {
        const parsed = otherMessage.safeParse(message);
        if (!parsed.success)
          return this.end(SIGNALING_CLOSE.badMessage, `unknown message type ${JSON.stringify(type.slice(0, 40))}`);
        if (parsed.data.type === 'pong') this.unanswered = 0;
        else if (parsed.data.type === 'disconnect') this.end(SIGNALING_CLOSE.normal, 'disconnect');
        return;
      }
    }
  }

  private async connect(message: z.infer<typeof connectMessage>): Promise<void> {
    if (message.role !== 'recvonly')
      return this.end(SIGNALING_CLOSE.badMessage, 'this endpoint only sends video: role must be recvonly');
    const videoCodec = typeof message.video === 'object' ? message.video.codec_type : undefined;
    if (message.video === false)
      return this.end(SIGNALING_CLOSE.badMessage, 'video must be on: the feed is video only');
    if (videoCodec !== undefined && videoCodec !== 'VP8')
      return this.end(SIGNALING_CLOSE.badMessage, 'the feed is VP8 only');
    if (message.audio !== undefined && message.audio !== false)
      return this.end(SIGNALING_CLOSE.badMessage, 'the feed has no audio: audio must be false');
    const channel = CHANNEL_ID.exec(message.channel_id);
    if (!channel) return this.end(SIGNALING_CLOSE.unknownChannel, 'unknown channel_id');
    const stationId = Number(channel[1]);
    // Routed here for the station the address names: only that station's cameras.
    if (this.addressed !== null && stationId !== this.addressed)
      return this.end(SIGNALING_CLOSE.unknownChannel, 'channel_id names another station than the address');
    const camera = channel[2] as CameraName;
    this.stationId = stationId;
    this.state = 'offering';
    this.expect(this.timings.gatherMs + this.timings.connectMs, 'offer could not be made in time');
    const access = await this.cameras.mayView(stationId, this.mediaToken);
    if (this.state !== 'offering') return;
    if (access === 'unknown') return this.end(SIGNALING_CLOSE.unknownChannel, 'unknown channel_id');
    if (access === 'forbidden') return this.end(SIGNALING_CLOSE.forbidden, 'this camera needs a media token');
    const broadcast = this.feed.broadcastFor(stationId, camera);
    if (broadcast === 'unavailable')
      return this.end(SIGNALING_CLOSE.unavailable, 'live video is not available on this server');
    if (broadcast === 'camera-full') return this.end(SIGNALING_CLOSE.limit, 'this camera has too many viewers');
    if (broadcast === 'encoders-busy') return this.end(SIGNALING_CLOSE.limit, 'too many cameras are being watched');
    const viewer: CameraViewer = {
      track: this.track,
      onLive: (live) => {
        this.wantLive = live;
        void this.renegotiate();
      },
      onFailed: (reason) => {
        this.options.log(`live video of station ${stationId} (${camera}) stopped: ${reason}`);
        this.broadcast = null;
        this.end(SIGNALING_CLOSE.unavailable, 'the camera encoder stopped');
      },
    };
    this.broadcast = broadcast;
    this.viewer = viewer;
    try {
      await broadcast.join(viewer);
    } catch {
      this.broadcast = null;
      return this.end(SIGNALING_CLOSE.unavailable, 'the camera encoder could not start');
    }
    if (this.state !== 'offering') return;
    // Always offered sending: a dark camera's track is taken off once the connection is up (an
    // inactive first offer would leave ICE unstarted in werift).
    this.wantLive = broadcast.isLive;
    this.isLive = true;
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: 'video/VP8',
            clockRate: 90_000,
            payloadType: VP8_PAYLOAD_TYPE,
            rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }],
          }),
        ],
        audio: [],
      },
      headerExtensions: {
        video: [new RTCRtpHeaderExtensionParameters({ id: PLAYOUT_DELAY.id, uri: PLAYOUT_DELAY.uri })],
      },
      // ICE lite, as media servers run it: the server offers its host candidates (and
      // RTC_ICE_HOSTS) and answers the browser's checks; the browser controls. A full agent in
      // werift would also ask a STUN server, and with none configured it falls back to a public
      // one: a DNS lookup and requests out for every viewer, which a burst of connects turned
      // into a queue that starved later offers.
      iceLite: true,
      iceServers: [],
      bundlePolicy: 'max-bundle',
      iceUseIpv6: false,
      iceAdditionalHostAddresses: [...this.options.iceHosts],
    });
    this.pc = pc;
    // 1000 is the SDK's normal end: a failed connection is an abnormal one.
    pc.connectionStateChange.subscribe((state) => {
      // Failing before the media ever connected means the answer was unusable (4400); after, the
      // media connection broke (4503).
      if (state === 'failed') {
        if (this.mediaConnected) this.end(SIGNALING_CLOSE.unavailable, 'peer connection failed');
        else this.end(SIGNALING_CLOSE.badMessage, 'signaling failed: the answer was not accepted');
      } else if (state === 'connected') this.mediaConnected = true;
      if (state === 'connected' && this.state === 'connected' && this.deadline) {
        this.deadline.cancel();
        this.deadline = null;
      }
    });
    // The stream id is neither 'default' nor the connection id, or the SDK ignores the track.
    const stream = new MediaStream({ id: `${message.channel_id}-video` });
    const transceiver = pc.addTransceiver(this.track, { direction: 'sendonly', streams: [stream] });
    this.sender = transceiver.sender;
    const offer = await this.gatheredOffer(pc);
    if (this.state !== 'offering') return;
    this.send({
      type: 'offer',
      sdp: offer,
      client_id: this.connectionId,
      connection_id: this.connectionId,
      channel_id: message.channel_id,
      simulcast: false,
      spotlight: false,
      audio: false,
      video: true,
      config: { iceServers: [] },
    });
    this.send({
      type: 'notify',
      event_type: 'connection.created',
      role: 'recvonly',
      client_id: this.connectionId,
      connection_id: this.connectionId,
      channel_id: message.channel_id,
      channel_connections: broadcast.viewerCount,
      channel_recvonly_connections: broadcast.viewerCount,
    });
    this.state = 'awaiting-answer';
    this.expect(this.timings.answerMs, 'no answer in time');
  }

  /** Creates an offer and waits for ICE gathering, so every server candidate is in its SDP (the SDK ignores trickled server candidates). */
  private async gatheredOffer(pc: RTCPeerConnection): Promise<string> {
    await pc.setLocalDescription(await pc.createOffer());
    if (pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => {
        const timer = this.options.clock.setTimeout(resolve, this.timings.gatherMs);
        pc.iceGatheringStateChange.subscribe((state) => {
          if (state === 'complete') {
            timer.cancel();
            resolve();
          }
        });
      });
    }
    return pc.localDescription?.sdp ?? '';
  }

  private answered(): void {
    this.state = 'connected';
    // Pongs alone do not keep a connection: its media must connect too, or it would hold an
    // encoder while nothing flows.
    if (this.pc?.connectionState === 'connected') {
      this.deadline?.cancel();
      this.deadline = null;
    } else {
      this.expect(this.timings.answerMs, 'media did not connect in time');
    }
    this.pinger = repeatEvery(this.options.clock, this.timings.pingMs, () => {
      if (this.unanswered >= 2) return this.end(SIGNALING_CLOSE.timeout, 'no pong');
      this.unanswered += 1;
      this.send({ type: 'ping', stats: false });
    });
    // The camera may have gone dark while the client answered.
    void this.renegotiate();
  }

  /**
   * Puts the camera's track on or off the connection with a re-offer (the SDK answers re-answer):
   * off while the station is down, so the browser's stream loses the track and the page shows the
   * still pictures; on again when it is up. One renegotiation at a time; the last wish wins.
   */
  private async renegotiate(): Promise<void> {
    if (this.state !== 'connected' || this.renegotiating || this.wantLive === this.isLive || !this.pc || !this.sender)
      return;
    const transceiver = this.pc.getTransceivers().find((t) => t.sender === this.sender);
    if (!transceiver) return;
    this.renegotiating = true;
    const live = this.wantLive;
    // The direction, not removeTrack: werift's removeTrack stops the sender for good, and the
    // direction is what makes the browser remove (inactive) and add (sendonly) the remote track.
    transceiver.setDirection(live ? 'sendonly' : 'inactive');
    this.isLive = live;
    await this.pc.setLocalDescription(await this.pc.createOffer());
    // werift writes an inactive section with port 0, which rejects it: the browser would tear the
    // transport down. Port 9 (the usual discard port) keeps it, inactive, for the way back.
    const sdp = (this.pc.localDescription?.sdp ?? '').replace(/^m=video 0 /m, 'm=video 9 ');
    this.send({ type: 're-offer', sdp });
    this.expect(this.timings.answerMs, 'no re-answer in time');
  }

  private reAnswered(): void {
    this.renegotiating = false;
    this.deadline?.cancel();
    this.deadline = null;
    void this.renegotiate();
  }
}
