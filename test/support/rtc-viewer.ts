import { RTCPeerConnection, RTCRtpCodecParameters, type RtpPacket } from 'werift';
import WebSocket from 'ws';

/** What a signaling connection saw: the server's messages in order, and how it closed. */
export interface SignalingLog {
  readonly messages: Record<string, unknown>[];
  closed: { code: number; reason: string } | null;
}

/** A raw signaling WebSocket (no peer connection): for protocol and refusal tests. */
export function openSignaling(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; log: SignalingLog; closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const log: SignalingLog = { messages: [], closed: null };
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      ws.on('close', (code, reason) => {
        log.closed = { code, reason: reason.toString() };
        done(log.closed);
      });
    });
    ws.on('message', (data) => log.messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.once('open', () => resolve({ ws, log, closed }));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The connect message sora-js-sdk sends for a receive-only, video-only VP8 connection. */
export const recvonlyConnect = (channelId: string, extra: Record<string, unknown> = {}) => ({
  type: 'connect',
  role: 'recvonly',
  channel_id: channelId,
  sdk_type: 'JavaScript',
  sdk_version: '2026.1.0',
  audio: false,
  video: { codec_type: 'VP8' },
  sdp: 'v=0\r\n',
  ...extra,
});

/**
 * A werift peer connection that receives VP8 on loopback, as a viewer's browser would. (werift's
 * full agent asks a public STUN fallback while gathering: RtcViewer turns that off.)
 */
export function recvonlyPeer(): RTCPeerConnection {
  return new RTCPeerConnection({
    codecs: {
      video: [new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96 })],
      audio: [],
    },
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceUseIpv6: false,
    iceServers: [],
  });
}

/**
 * A receive-only viewer in Node, speaking the same signaling as sora-js-sdk (connect → offer →
 * answer, pong to ping, disconnect) with a werift peer connection: the test and benchmark
 * stand-in for a browser. Counts the RTP packets and VP8 keyframes it receives.
 */
export class RtcViewer {
  packets = 0;
  /** VP8 frames begun (first packet of a frame's first partition) and how many were keyframes. */
  frames = 0;
  keyframes = 0;
  /** When the offer came, the answer went, and the media connected (performance.now(); the benchmark's join stages). */
  offerAt: number | null = null;
  answeredAt: number | null = null;
  connectedAt: number | null = null;
  /** When the first packet and the first keyframe packet arrived (performance.now()). */
  firstPacketAt: number | null = null;
  firstKeyframeAt: number | null = null;
  /** The RTP timestamp (90 kHz) of each keyframe received. */
  readonly keyframeTimestamps: number[] = [];
  /** Every frame begun, in order: its RTP timestamp and whether it is a keyframe. */
  readonly frameLog: { readonly timestamp: number; readonly keyframe: boolean }[] = [];
  readonly startedAt = performance.now();
  offer: Record<string, unknown> | null = null;
  notify: Record<string, unknown> | null = null;
  private pc: RTCPeerConnection | null = null;
  private constructor(
    readonly ws: WebSocket,
    readonly log: SignalingLog,
    readonly closed: Promise<{ code: number; reason: string }>,
  ) {}

  /** Connects to `channelId` and resolves once the offer is answered. */
  static async connect(url: string, channelId: string, onPacket?: (rtp: RtpPacket) => void): Promise<RtcViewer> {
    const { ws, log, closed } = await openSignaling(url);
    const viewer = new RtcViewer(ws, log, closed);
    const offered = new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Record<string, unknown>;
        if (message.type === 'offer') resolve(message);
        else if (message.type === 'notify') viewer.notify = message;
        else if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
        else if (message.type === 're-offer') void viewer.reAnswer(String(message.sdp));
      });
      void closed.then((c) => reject(new Error(`closed ${c.code} ${c.reason}`)));
    });
    ws.send(JSON.stringify(recvonlyConnect(channelId)));
    viewer.offer = await offered;
    viewer.offerAt = performance.now();
    const pc = recvonlyPeer();
    viewer.pc = pc;
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') viewer.connectedAt ??= performance.now();
    });
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => {
        viewer.packets += 1;
        viewer.firstPacketAt ??= performance.now();
        // VP8 payload descriptor (RFC 7741): S bit and partition 0 start a frame; P = 0 is a keyframe.
        const payload = rtp.payload;
        const extended = (payload[0]! & 0x80) !== 0;
        let offset = 1;
        if (extended) {
          const flags = payload[1]!;
          offset =
            2 + (flags & 0x80 ? (payload[2]! & 0x80 ? 2 : 1) : 0) + (flags & 0x40 ? 1 : 0) + (flags & 0x30 ? 1 : 0);
        }
        const startOfPartition = (payload[0]! & 0x10) !== 0 && (payload[0]! & 0x07) === 0;
        const keyframe = startOfPartition && (payload[offset]! & 0x01) === 0;
        if (startOfPartition) {
          viewer.frames += 1;
          viewer.frameLog.push({ timestamp: rtp.header.timestamp, keyframe });
        }
        if (keyframe) {
          viewer.keyframes += 1;
          viewer.keyframeTimestamps.push(rtp.header.timestamp);
          viewer.firstKeyframeAt ??= performance.now();
        }
        onPacket?.(rtp);
      });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: String(viewer.offer.sdp) });
    // No STUN query while gathering, as a browser with no ICE servers makes none: werift's full
    // agent falls back to a public one, and under load its failing lookup held the answer 5 s
    // (a resolver retry), which `bench:feed` counted as the server's join time.
    for (const transport of pc.iceTransports)
      (transport.connection as unknown as { stunServer: unknown }).stunServer = undefined;
    await pc.setLocalDescription(await pc.createAnswer());
    ws.send(JSON.stringify({ type: 'answer', sdp: pc.localDescription?.sdp }));
    viewer.answeredAt = performance.now();
    return viewer;
  }

  private async reAnswer(sdp: string): Promise<void> {
    if (!this.pc) return;
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    this.ws.send(JSON.stringify({ type: 're-answer', sdp: this.pc.localDescription?.sdp }));
  }

  /** Sends disconnect (as the SDK does) and resolves with the close. */
  async disconnect(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'disconnect', reason: 'NO-ERROR' }));
    const closed = await this.closed;
    await this.pc?.close();
    return closed;
  }

  async close(): Promise<void> {
    this.ws.terminate();
    await this.pc?.close();
  }
}
