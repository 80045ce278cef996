import {
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  type RtpPacket,
  type RTCRtpTransceiver,
} from 'werift';

/** A WHIP endpoint refused the offer: its HTTP status and what it said (the `error_info`, when JSON). */
export class WhipRefused extends Error {
  constructor(
    readonly status: number,
    readonly info: string,
  ) {
    super(`WHIP endpoint answered ${status}${info ? `: ${info}` : ''}`);
    this.name = 'WhipRefused';
  }
}

export interface WhipClientOptions {
  /** The endpoint's address (POST). */
  readonly endpoint: string;
  /** The Bearer token (the station's key). */
  readonly token: string;
  /** The codec to send: VP8 (forwarded as it is) or H.264 (packetization mode 1). */
  readonly codec?: 'VP8' | 'H264';
  /** Extra host addresses to offer (e.g. 127.0.0.1 on one machine). */
  readonly iceHosts?: readonly string[];
  /** How long the POST and the media connection may take. */
  readonly timeoutMs?: number;
}

const PAYLOAD_TYPE = { VP8: 96, H264: 102 } as const;

/**
 * One WHIP publishing session (RFC 9725) from Node, on werift: a sendonly video track whose RTP
 * packets the caller writes (already encoded and packetized), offered with every candidate inside
 * (no trickle), POSTed with the Bearer token; the answer's resource address ends it (DELETE). The
 * endpoint's keyframe requests (PLI, FIR) reach `onKeyframeRequest`. Used by the sim agent for its
 * painted cameras and by tests as a publisher.
 */
export class WhipSession {
  /** Called when the endpoint asks for a keyframe. */
  onKeyframeRequest: () => void = () => undefined;
  /** Called once when the media connection fails or closes (not after stop()). */
  onEnded: (reason: string) => void = () => undefined;
  private stopped = false;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly track: MediaStreamTrack,
    /** The session's resource address (from the answer's Location). */
    readonly resource: URL,
    readonly etag: string | null,
    private readonly token: string,
  ) {}

  /** Offers, POSTs and waits until the media connects; rejects (leaving nothing open) otherwise. */
  static async publish(options: WhipClientOptions): Promise<WhipSession> {
    const codec = options.codec ?? 'VP8';
    const timeoutMs = options.timeoutMs ?? 10_000;
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: `video/${codec}`,
            clockRate: 90_000,
            payloadType: PAYLOAD_TYPE[codec],
            rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'ccm', parameter: 'fir' }],
            ...(codec === 'H264'
              ? { parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f' }
              : {}),
          }),
        ],
        audio: [],
      },
      iceServers: [],
      iceUseIpv6: false,
      bundlePolicy: 'max-bundle',
      iceAdditionalHostAddresses: [...(options.iceHosts ?? [])],
    });
    const track = new MediaStreamTrack({ kind: 'video' });
    let transceiver: RTCRtpTransceiver;
    try {
      transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc, timeoutMs);
      const answer = await fetch(options.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${options.token}` },
        body: pc.localDescription?.sdp ?? '',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await answer.text();
      if (answer.status !== 201) throw new WhipRefused(answer.status, errorInfo(text));
      const location = answer.headers.get('location');
      if (!location) throw new WhipRefused(answer.status, 'no Location in the answer');
      const session = new WhipSession(
        pc,
        track,
        new URL(location, options.endpoint),
        answer.headers.get('etag'),
        options.token,
      );
      transceiver.sender.onPictureLossIndication.subscribe(() => session.onKeyframeRequest());
      transceiver.sender.onRtcp.subscribe((packet) => {
        // A FIR (payload-specific feedback, format 4) asks for a keyframe too.
        if (packet.type === 206 && (packet as { feedback?: { count?: number } }).feedback?.count === 4)
          session.onKeyframeRequest();
      });
      await pc.setRemoteDescription({ type: 'answer', sdp: text });
      await connected(pc, timeoutMs);
      pc.connectionStateChange.subscribe((state) => {
        if ((state === 'failed' || state === 'closed') && !session.stopped) {
          session.stopped = true;
          session.onEnded(`media connection ${state}`);
        }
      });
      return session;
    } catch (error) {
      await pc.close().catch(() => undefined);
      throw error;
    }
  }

  /** Sends one RTP packet (the sender sets its own SSRC and sequence numbers' offset). */
  write(packet: RtpPacket): void {
    if (!this.stopped) this.track.writeRtp(packet);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Ends the session: DELETE on its resource (best effort), then the peer connection closes. */
  async stop(): Promise<void> {
    if (this.stopped) return void (await this.pc.close().catch(() => undefined));
    this.stopped = true;
    await fetch(this.resource, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(3_000),
    })
      .then((answer) => answer.body?.cancel())
      .catch(() => undefined);
    await this.pc.close().catch(() => undefined);
  }
}

function errorInfo(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error_info?: unknown };
    return typeof parsed.error_info === 'string' ? parsed.error_info : text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

function gathered(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    pc.iceGatheringStateChange.subscribe((state) => {
      if (state === 'complete') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

function connected(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.connectionState === 'connected') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the media did not connect in time')), timeoutMs);
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        clearTimeout(timer);
        resolve();
      } else if (state === 'failed' || state === 'closed') {
        clearTimeout(timer);
        reject(new Error(`the media connection ${state}`));
      }
    });
  });
}
