import type { RtpPacket } from 'werift';
import { repeatEvery, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel, CameraSource } from './camera-channel';
import { H264Depacketizer, holdsIdr, nalType } from './h264-rtp';
import type { RtcFeed } from './rtc-feed';
import { VP8_SETTINGS, Vp8Encoder } from '../../media/vp8-encoder';
import { WhipPublisher, type WhipPublisherOptions } from './whip-publisher';

/** A publisher sending H.264 is asked for an IDR this often until one comes (the decoder starts there). */
const IDR_ASK_MS = 500;
/**
 * The most bytes taken since the last whole NAL unit (the transcoder's own backlog limit): past it
 * the unit being put together is dropped. An FU-A whose end never came was kept without bound.
 */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * A publisher's H.264, transcoded once for the camera (never per viewer) to VP8 (spec §9): its RTP
 * depacketized to Annex B, one ffmpeg decoding it and encoding libvpx (a keyframe every 0.5 s),
 * the VP8 packetized into the camera's channel.
 */
class H264Transcoder implements CameraSource {
  readonly kind = 'whip';
  readonly codec = 'H264';
  private depacketizer = new H264Depacketizer();
  private pendingBytes = 0;
  private readonly encoder: Vp8Encoder;
  private idrSeen = false;
  /** The last SPS (7) and PPS (8) seen before the first IDR. */
  private readonly parameterSets = new Map<number, Buffer>();
  private askIdr: ScheduledTask | null;
  channel: CameraChannel | null = null;

  constructor(
    private readonly publisher: WhipPublisher,
    ffmpeg: string,
    options: WhipPublisherOptions,
  ) {
    this.encoder = new Vp8Encoder(
      ffmpeg,
      VP8_SETTINGS,
      (packet) => this.channel?.push(this, packet),
      (reason) => publisher.end(`the H.264 transcoder stopped: ${reason}`),
      'h264',
    );
    void this.encoder.start();
    this.askIdr = repeatEvery(options.clock, IDR_ASK_MS, () => publisher.requestKeyframe());
    publisher.requestKeyframe();
  }

  /** The transcoder makes a VP8 keyframe every 0.5 s by itself. */
  requestKeyframe(): void {}

  push(packet: RtpPacket): void {
    const bytes = this.depacketizer.push(packet);
    if (bytes.length === 0) {
      this.pendingBytes += packet.payload.length;
      if (this.pendingBytes > MAX_PENDING_BYTES) {
        this.depacketizer = new H264Depacketizer();
        this.pendingBytes = 0;
      }
      return;
    }
    this.pendingBytes = 0;
    if (!this.idrSeen) {
      // Before the first IDR only the parameter sets are kept (the decoder needs them before it).
      const kind = nalType(bytes);
      if (kind === 7 || kind === 8) this.parameterSets.set(kind, bytes);
      if (!holdsIdr(bytes)) return;
      this.idrSeen = true;
      this.askIdr?.cancel();
      this.askIdr = null;
      for (const set of [7, 8]) {
        const known = this.parameterSets.get(set);
        if (known) this.encoder.writeStream(known);
      }
      this.parameterSets.clear();
    }
    this.encoder.writeStream(bytes);
  }

  stop(): void {
    this.askIdr?.cancel();
    this.askIdr = null;
    this.encoder.stop();
  }

  get pid(): number | undefined {
    return this.encoder.pid;
  }
}

interface Published {
  readonly publisher: WhipPublisher;
  readonly source: CameraSource;
  /** The station key it was published with (its revocation ends the session), if known. */
  readonly keyId: string | null;
  /** A stand-in for the camera (the sim agent's painted picture), which a real camera replaces. */
  readonly standIn: boolean;
}

/** Why a publisher is refused: H.264 with no ffmpeg here; a stand-in while a real camera publishes. */
export type PublishRefusal = 'no-transcoder' | 'camera-present';

/**
 * The cameras' WHIP sessions on this instance (docs/live-feed.md "Cameras from WHIP"): one publisher
 * per station camera. A new publisher replaces the camera's current one (a camera that reconnects
 * after a network cut, or an operator who remounts a phone, is never locked out by its own stale
 * session); the replaced one's peer connection is closed.
 */
export class CameraIngest {
  private readonly published = new Map<string, Published>();

  constructor(
    private readonly feed: RtcFeed,
    private readonly options: WhipPublisherOptions & {
      /** The ffmpeg that transcodes H.264, or null: H.264 publishers are refused. */
      readonly ffmpeg: string | null;
      readonly log: (message: string) => void;
      /** A station's real cameras changed (one began or ended publishing): its camera demand is told again. */
      readonly onRealCameras?: (stationId: number) => void;
    },
  ) {}

  /** Whether a real camera (not a stand-in) publishes the station's camera now. */
  hasRealCamera(stationId: number, camera: CameraName): boolean {
    const published = this.published.get(`${stationId}:${camera}`);
    return published !== undefined && !published.standIn;
  }

  /**
   * Takes a publisher's offer for a camera and answers it; rejects an offer the peer connection
   * cannot use (nothing is left open then). A stand-in (the sim agent's painted camera) never
   * replaces a real camera; a real one replaces anything.
   */
  async publish(
    stationId: number,
    camera: CameraName,
    offer: string,
    keyId: string | null = null,
    standIn = false,
  ): Promise<{ publisher: WhipPublisher; answer: string } | PublishRefusal> {
    if (standIn && this.hasRealCamera(stationId, camera)) return 'camera-present';
    const publisher = new WhipPublisher(offer, this.options);
    const ffmpeg = this.options.ffmpeg;
    if (publisher.codec === 'H264' && !ffmpeg) {
      publisher.end('no transcoder');
      return 'no-transcoder';
    }
    let answer: string;
    try {
      answer = await publisher.answer(offer);
    } catch (error) {
      publisher.end('the offer was not usable');
      throw error;
    }
    if (publisher.isEnded) throw new Error('the publisher ended while its offer was answered');
    const key = `${stationId}:${camera}`;
    const transcoder = publisher.codec === 'H264' ? new H264Transcoder(publisher, ffmpeg!, this.options) : null;
    const source: CameraSource = transcoder ?? publisher;
    const previous = this.published.get(key);
    if (standIn && previous && !previous.standIn) {
      // A real camera came while this stand-in's offer was answered: it stays.
      publisher.end('a real camera publishes this camera');
      return 'camera-present';
    }
    this.published.set(key, { publisher, source, keyId, standIn });
    const channel = this.feed.publish(stationId, camera, source);
    if (transcoder) transcoder.channel = channel;
    publisher.onPacket = transcoder ? (packet) => transcoder.push(packet) : (packet) => channel.push(publisher, packet);
    publisher.onEnded = (reason) => {
      transcoder?.stop();
      if (this.published.get(key)?.publisher === publisher) {
        this.published.delete(key);
        if (!standIn) this.options.onRealCameras?.(stationId);
      }
      this.feed.unpublish(stationId, camera, source);
      this.options.log(
        `camera ${camera} of station ${stationId}: publisher ${publisher.id.slice(0, 6)}… ended (${reason})`,
      );
    };
    previous?.publisher.end('replaced by a new publisher');
    if (!standIn) this.options.onRealCameras?.(stationId);
    this.options.log(
      `camera ${camera} of station ${stationId}: publishing ${publisher.codec} (${publisher.id.slice(0, 6)}…)`,
    );
    return { publisher, answer };
  }

  /** The camera's current session if its id is `id`, else null (a stale or guessed resource). */
  session(stationId: number, camera: CameraName, id: string): WhipPublisher | null {
    const found = this.published.get(`${stationId}:${camera}`)?.publisher;
    return found && found.id === id ? found : null;
  }

  /** A station key was revoked: the sessions published with it end (its holder may no longer publish). */
  endKey(keyId: string): void {
    for (const published of [...this.published.values()])
      if (published.keyId === keyId) published.publisher.end('its station key was revoked');
  }

  /** Sessions open now (tests, the console). */
  get count(): number {
    return this.published.size;
  }

  close(): void {
    for (const { publisher } of [...this.published.values()]) publisher.end('server shutting down');
    this.published.clear();
  }
}
