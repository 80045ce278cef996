import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  type MediaStreamTrack,
  type RTCRtpTransceiver,
  type RtpPacket,
} from 'werift';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraSource } from './camera-channel';

/** The codecs a publisher may send: VP8 is forwarded as it is, H.264 transcoded once per camera. */
export type PublishedCodec = 'VP8' | 'H264';

/** Why an offer cannot be taken, as the WHIP answer says it (docs/live-feed.md "Cameras from WHIP"). */
export type OfferProblem = 'not-sdp' | 'no-video' | 'no-codec' | 'not-sending' | 'too-many-media';

/** At most this many media sections in an offer (OBS sends audio and video; a browser the same). */
const MAX_MEDIA_SECTIONS = 4;
/** Trickled candidates a publisher may add over its life. */
export const MAX_PUBLISHER_CANDIDATES = 50;
/**
 * A connected publisher from which nothing comes (no RTP, no RTCP) for this many connect timeouts
 * (30 s by default, ICE consent's own expiry, RFC 7675) has gone without a DELETE: crashed, cut off,
 * asleep. ICE lite never checks the publisher, so without this its session stayed forever.
 */
const SILENT_CONNECT_TIMEOUTS = 3;

const feedback = [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'ccm', parameter: 'fir' }];

/**
 * Checks an offer before any peer connection is made: SDP text, a video section that sends, VP8 or
 * H.264 among its codecs (packetization-mode 1 for H.264), and few sections. Null when it may be
 * taken.
 */
export function offerProblem(sdp: string): OfferProblem | null {
  if (!/^v=0\r?\n/.test(sdp) || !/\r?\no=/.test(sdp)) return 'not-sdp';
  const sections = sdp.split(/\r?\n(?=m=)/).slice(1);
  if (sections.length > MAX_MEDIA_SECTIONS) return 'too-many-media';
  const video = sections.find((section) => /^m=video [1-9]\d* /.test(section));
  if (!video) return 'no-video';
  if (/\r?\na=(recvonly|inactive)\r?$/m.test(video)) return 'not-sending';
  if (!chooseCodec(video)) return 'no-codec';
  return null;
}

/** The codec the answer keeps: VP8 when offered (no transcoding), else H.264 in packetization mode 1. */
function chooseCodec(videoSection: string): PublishedCodec | null {
  if (/^a=rtpmap:\d+ VP8\/90000/im.test(videoSection)) return 'VP8';
  for (const [, pt] of videoSection.matchAll(/^a=rtpmap:(\d+) H264\/90000/gim)) {
    if (new RegExp(`^a=fmtp:${pt} .*packetization-mode=1`, 'im').test(videoSection)) return 'H264';
  }
  return null;
}

/**
 * The extra host addresses a publisher's answer offers: RTC_ICE_HOSTS without loopback ones, unless
 * the machine has no other address. A browser publishing from this machine checks its own
 * interface address against 127.0.0.1 too; werift's ICE-lite agent took that first nominated pair
 * and answered the DTLS handshake from 127.0.0.1, which the browser's selected pair did not accept:
 * ICE connected, DTLS never did (seen with Chromium 156).
 */
function publisherHosts(hosts: readonly string[]): string[] {
  const outside = Object.values(networkInterfaces())
    .flat()
    .some((address) => address !== undefined && !address.internal && address.family === 'IPv4');
  return outside ? hosts.filter((host) => !host.startsWith('127.') && host !== '::1') : [...hosts];
}

export interface WhipPublisherOptions {
  readonly clock: Clock;
  /** Extra ICE host addresses to answer besides the machine's interfaces. */
  readonly iceHosts: readonly string[];
  /** ICE gathering's longest wait before the answer goes without all candidates. */
  readonly gatherMs: number;
  /** The media must connect this long after the answer, or the session ends. */
  readonly connectMs: number;
}

/**
 * One WHIP publisher (RFC 9725) of a station camera: the server's side of its peer connection,
 * receive-only, ICE lite (as for the viewers: host candidates, no STUN), keeping one video codec.
 * Its RTP packets go to `onPacket`; it ends (onEnded, once) when the publisher deletes it, its media
 * fails or never connects, or it is replaced.
 */
export class WhipPublisher implements CameraSource {
  readonly kind = 'whip';
  /** The resource's id in its URL: 128 random bits (not guessable; the key is checked as well). */
  readonly id = randomBytes(16).toString('base64url');
  readonly etag = `"${randomBytes(9).toString('base64url')}"`;
  readonly codec: PublishedCodec;
  private readonly pc: RTCPeerConnection;
  private transceiver: RTCRtpTransceiver | null = null;
  private track: MediaStreamTrack | null = null;
  private deadline: ScheduledTask | null = null;
  private watchdog: ScheduledTask | null = null;
  private lastHeardAt = 0;
  private ended = false;
  private candidates = 0;
  connected = false;
  onPacket: (packet: RtpPacket) => void = () => undefined;
  onEnded: (reason: string) => void = () => undefined;

  constructor(
    offer: string,
    private readonly options: WhipPublisherOptions,
  ) {
    const video = offer.split(/\r?\n(?=m=)/).find((section) => section.startsWith('m=video'));
    this.codec = chooseCodec(video ?? '') ?? 'VP8';
    this.pc = new RTCPeerConnection({
      codecs: {
        video: [
          this.codec === 'VP8'
            ? new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, rtcpFeedback: feedback })
            : new RTCRtpCodecParameters({
                mimeType: 'video/H264',
                clockRate: 90_000,
                parameters: 'packetization-mode=1',
                rtcpFeedback: feedback,
              }),
        ],
        // An offer's audio (OBS and browsers send it) is answered inactive: werift cannot answer a
        // section it has no codec for.
        audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
      },
      iceLite: true,
      iceServers: [],
      bundlePolicy: 'max-bundle',
      iceUseIpv6: false,
      iceAdditionalHostAddresses: publisherHosts(options.iceHosts),
    });
    this.pc.onTrack.subscribe((track) => {
      if (track.kind !== 'video' || this.track) return;
      this.track = track;
      track.onReceiveRtp.subscribe((packet) => {
        this.heard();
        if (!this.ended) this.onPacket(packet);
      });
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        this.connected = true;
        this.deadline?.cancel();
        this.deadline = null;
        this.heard();
        if (!this.ended)
          this.watchdog ??= repeatEvery(options.clock, options.connectMs, () => {
            const silentMs = options.clock.now().getTime() - this.lastHeardAt;
            if (silentMs >= SILENT_CONNECT_TIMEOUTS * options.connectMs) this.end('nothing came from the publisher');
          });
      } else if (state === 'failed' || state === 'closed') this.end('the publisher’s media connection ended');
    });
  }

  /** Takes the offer and answers it (every server candidate inside); rejects an offer werift cannot use. */
  async answer(offer: string): Promise<string> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offer });
    for (const transceiver of this.pc.getTransceivers()) {
      if (transceiver.kind === 'video' && !this.transceiver) {
        this.transceiver = transceiver;
        transceiver.setDirection('recvonly');
        // One codec, the one chosen: the publisher sends it and nothing else.
        const keep = transceiver.codecs.filter(
          (codec) =>
            codec.mimeType.toUpperCase() === `VIDEO/${this.codec}` &&
            (this.codec === 'VP8' || /packetization-mode=1/.test(codec.parameters ?? '')),
        );
        transceiver.codecs = keep.slice(0, 1);
        transceiver.receiver.onRtcp.subscribe(() => this.heard());
      } else transceiver.setDirection('inactive');
    }
    if (!this.transceiver || this.transceiver.codecs.length === 0) throw new Error('no usable video codec');
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    if (this.pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => {
        const timer = this.options.clock.setTimeout(resolve, this.options.gatherMs);
        this.pc.iceGatheringStateChange.subscribe((state) => {
          if (state === 'complete') {
            timer.cancel();
            resolve();
          }
        });
      });
    }
    if (!this.connected && !this.ended)
      this.deadline = this.options.clock.setTimeout(
        () => this.end('the publisher’s media did not connect in time'),
        this.options.connectMs,
      );
    return this.pc.localDescription?.sdp ?? '';
  }

  /**
   * Adds the candidates of a trickle-ice-sdpfrag (RFC 8840) PATCH. Only IP-literal candidates are
   * added (a browser's ….local names would stall werift, and ICE lite learns the publisher's
   * address from its checks anyway). Answers false when the publisher has sent too many.
   */
  async addCandidates(fragment: string): Promise<boolean> {
    const mid = this.transceiver?.mid ?? '0';
    for (const [, candidate] of fragment.matchAll(/^a=(candidate:[^\r\n]*)/gm)) {
      this.candidates += 1;
      if (this.candidates > MAX_PUBLISHER_CANDIDATES) return false;
      if (isIP(candidate!.split(' ')[4] ?? '') === 0) continue;
      await this.pc.addIceCandidate({ candidate: candidate!, sdpMid: mid, sdpMLineIndex: 0 }).catch(() => undefined);
    }
    return true;
  }

  private heard(): void {
    this.lastHeardAt = this.options.clock.now().getTime();
  }

  /** Asks the publisher for a keyframe (PLI). */
  requestKeyframe(): void {
    const ssrc = this.track?.ssrc;
    if (ssrc === undefined || !this.transceiver || this.ended) return;
    void this.transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
  }

  /** Ends the session (DELETE, replaced, failed); onEnded is told once. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.deadline?.cancel();
    this.deadline = null;
    this.watchdog?.cancel();
    this.watchdog = null;
    void this.pc.close().catch(() => undefined);
    this.onEnded(reason);
  }

  get isEnded(): boolean {
    return this.ended;
  }
}
