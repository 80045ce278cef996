import { SrtpWriter } from './srtp-writer';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { MediaStreamTrack, type RTCPeerConnection, type RTCRtpSender } from 'werift';
import type { RawData, WebSocket } from 'ws';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { StationCameras } from '../play/cameras/station-cameras';
import type { CameraChannel, CameraViewer } from './camera-channel';
import type { RtcFeed } from './rtc-feed';
import { gatheredOffer, offerMessages, openFeedPeer, reOffer } from './signaling-peer';
import {
  candidateMessage,
  CHANNEL_ID,
  closeReason,
  connectMessage,
  MAX_CANDIDATES,
  otherMessage,
  SIGNALING_CLOSE,
  sdpMessage,
  type ConnectMessage,
  type SignalingTimings,
} from './signaling-protocol';

/** What every signaling connection of a server shares. */
export interface SessionContext {
  readonly feed: RtcFeed;
  readonly cameras: StationCameras;
  /** The signaling deadlines and pings run on it. */
  readonly clock: Clock;
  readonly timings: SignalingTimings;
  /** Extra ICE host addresses to offer besides the machine's interfaces. */
  readonly iceHosts: readonly string[];
  readonly log: (message: string) => void;
}

/** What the signaling address said: the viewer's media token and the station it names (or null). */
export interface SessionAddress {
  readonly mediaToken: string | undefined;
  /** The station the signaling address named (it was routed to this instance for it), or null. */
  readonly station: number | null;
}

type SessionState = 'awaiting-connect' | 'offering' | 'awaiting-answer' | 'connected' | 'closed';

/**
 * One receive-only connection: its WebSocket, its peer connection, its place among the camera's
 * viewers. connect → offer and notify connection.created → answer and trickled candidates →
 * ping/pong → disconnect (close 1000); the camera's track goes off and on with re-offers.
 */
export class SignalingSession {
  private state: SessionState = 'awaiting-connect';
  /** The station of the channel, once connect named it. */
  stationId: number | null = null;
  private readonly connectionId = randomBytes(13).toString('base64url');
  private pc: RTCPeerConnection | null = null;
  private sender: RTCRtpSender | null = null;
  /** Writes the channel's packets to the sender (the short path of srtp-writer.ts). */
  private writer: SrtpWriter | null = null;
  private readonly track = new MediaStreamTrack({ kind: 'video' });
  private broadcast: CameraChannel | null = null;
  private camera: CameraName | null = null;
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
    private readonly address: SessionAddress,
    private readonly context: SessionContext,
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
    this.expect(context.timings.connectMs, 'no connect message in time');
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
    this.deadline = this.context.clock.setTimeout(() => this.end(SIGNALING_CLOSE.timeout, reason), ms);
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

  private async connect(message: ConnectMessage): Promise<void> {
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
    if (this.address.station !== null && stationId !== this.address.station)
      return this.end(SIGNALING_CLOSE.unknownChannel, 'channel_id names another station than the address');
    const camera = channel[2] as CameraName;
    this.stationId = stationId;
    this.state = 'offering';
    const { timings } = this.context;
    this.expect(timings.gatherMs + timings.connectMs, 'offer could not be made in time');
    const access = await this.context.cameras.mayView(stationId, this.address.mediaToken);
    if (this.state !== 'offering') return;
    if (access === 'unknown') return this.end(SIGNALING_CLOSE.unknownChannel, 'unknown channel_id');
    if (access === 'forbidden') return this.end(SIGNALING_CLOSE.forbidden, 'this camera needs a media token');
    const broadcast = this.context.feed.broadcastFor(stationId, camera);
    if (broadcast === 'camera-full') return this.end(SIGNALING_CLOSE.limit, 'this camera has too many viewers');
    const viewer: CameraViewer = {
      write: (rtp) => (this.writer ? this.writer.write(rtp) : this.track.writeRtp(rtp)),
      onLive: (live) => {
        this.wantLive = live;
        void this.renegotiate();
      },
      onFailed: (reason) => {
        this.context.log(`live video of station ${stationId} (${camera}) stopped: ${reason}`);
        this.broadcast = null;
        this.end(SIGNALING_CLOSE.unavailable, 'the camera encoder stopped');
      },
    };
    this.broadcast = broadcast;
    this.camera = camera;
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
    const { pc, sender } = openFeedPeer(this.track, message.channel_id, this.context.iceHosts);
    this.pc = pc;
    this.sender = sender;
    this.writer = new SrtpWriter(sender, (rtp) => this.track.writeRtp(rtp));
    // A viewer that lost a picture asks for a keyframe: the camera's source is asked (rate-limited).
    sender.onPictureLossIndication.subscribe(() => this.broadcast?.keyframeWanted());
    // 1000 is the SDK's normal end: a failed connection is an abnormal one.
    pc.connectionStateChange.subscribe((state) => {
      // Failing before the media ever connected means the answer was unusable (4400); after, the
      // media connection broke (4503).
      if (state === 'failed') {
        if (this.mediaConnected) this.end(SIGNALING_CLOSE.unavailable, 'peer connection failed');
        else this.end(SIGNALING_CLOSE.badMessage, 'signaling failed: the answer was not accepted');
      } else if (state === 'connected') {
        this.mediaConnected = true;
        // Packets written before DTLS was up never left: start this viewer again at a keyframe.
        if (this.viewer) this.broadcast?.resync(this.viewer);
        // A camera dark since the join has its track taken off now.
        void this.renegotiate();
      }
      if (state === 'connected' && this.state === 'connected' && this.deadline) {
        this.deadline.cancel();
        this.deadline = null;
      }
    });
    const offer = await gatheredOffer(pc, this.context.clock, timings.gatherMs);
    if (this.state !== 'offering') return;
    const messages = offerMessages({
      sdp: offer,
      connectionId: this.connectionId,
      channelId: message.channel_id,
      viewers: broadcast.viewerCount,
    });
    for (const sent of messages) this.send(sent);
    this.state = 'awaiting-answer';
    this.expect(timings.answerMs, 'no answer in time');
  }

  private answered(): void {
    this.state = 'connected';
    // Pongs alone do not keep a connection: its media must connect too, or it would hold an
    // encoder while nothing flows.
    if (this.pc?.connectionState === 'connected') {
      this.deadline?.cancel();
      this.deadline = null;
    } else {
      this.expect(this.context.timings.answerMs, 'media did not connect in time');
    }
    this.pinger = repeatEvery(this.context.clock, this.context.timings.pingMs, () => {
      if (this.unanswered >= 2) return this.end(SIGNALING_CLOSE.timeout, 'no pong');
      this.unanswered += 1;
      this.send({ type: 'ping', stats: false });
    });
    // The camera may have gone dark while the client answered (renegotiated once the media is up).
    void this.renegotiate();
  }

  /**
   * Puts the camera's track on or off the connection with a re-offer (the SDK answers re-answer):
   * off while the station is down, so the browser's stream loses the track and the page shows the
   * still pictures; on again when it is up. One renegotiation at a time; the last wish wins. Only
   * once the media connection is up: a re-offer while ICE still checks made werift's side of it fail.
   */
  private async renegotiate(): Promise<void> {
    if (
      this.state !== 'connected' ||
      !this.mediaConnected ||
      this.renegotiating ||
      this.wantLive === this.isLive ||
      !this.pc ||
      !this.sender
    )
      return;
    const transceiver = this.pc.getTransceivers().find((t) => t.sender === this.sender);
    if (!transceiver) return;
    this.renegotiating = true;
    this.isLive = this.wantLive;
    const sdp = await reOffer(this.pc, transceiver, this.isLive);
    this.send({ type: 're-offer', sdp });
    this.expect(this.context.timings.answerMs, 'no re-answer in time');
  }

  private reAnswered(): void {
    this.renegotiating = false;
    this.deadline?.cancel();
    this.deadline = null;
    void this.renegotiate();
  }
}
