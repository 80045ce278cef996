import type { RtpPacket } from 'werift';
import { repeatEvery, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { AccessUnitTap, CameraChannel, CameraSource } from './camera-channel';
import { H264AccessUnits, type AccessUnit } from './h264-rtp';
import type { RtcFeed } from './rtc-feed';
import { VP8_SETTINGS, Vp8Encoder } from '../../media/vp8-encoder';
import { WhipPublisher, type WhipPublisherOptions } from './whip-publisher';

/** A publisher sending H.264 is asked for an IDR this often until one comes (the decoder starts there). */
const IDR_ASK_MS = 500;

const START_CODE = Buffer.from([0, 0, 0, 1]);
const annexB = (units: readonly Buffer[]) => Buffer.concat(units.flatMap((unit) => [START_CODE, unit]));

/**
 * A publisher's H.264 as a camera source: its RTP put back together as access units (pictures),
 * which go two ways. The channel gets VP8 (spec §9): one ffmpeg for the camera (never one per
 * viewer) decodes the H.264 and encodes libvpx (a keyframe every 0.5 s), packetized into the
 * channel. And the access units themselves are offered to whoever remuxes them as they are: the
 * spectators' LL-HLS (camera-hls.ts) takes the publisher's own H.264, not the VP8 made of it.
 */
class H264Source implements CameraSource {
  readonly kind = 'whip';
  readonly codec = 'H264';
  private readonly assembler = new H264AccessUnits();
  private readonly encoder: Vp8Encoder;
  private idrSeen = false;
  /** The last SPS (7) and PPS (8) seen before the first IDR. */
  private readonly parameterSets = new Map<number, Buffer>();
  private askIdr: ScheduledTask | null;
  private readonly listeners = new Set<(unit: AccessUnit) => void>();
  channel: CameraChannel | null = null;
  readonly accessUnits: AccessUnitTap = {
    subscribe: (listener) => {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    },
    requestKeyframe: () => this.publisher.requestKeyframe(),
  };

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
    for (const unit of this.assembler.push(packet)) {
      this.transcode(unit);
      for (const listener of [...this.listeners]) listener(unit);
    }
  }

  private transcode(unit: AccessUnit): void {
    if (!this.idrSeen) {
      // Before the first IDR only the parameter sets are kept (the decoder needs them before it).
      for (const nal of unit.units) {
        const type = (nal[0] ?? 0) & 0x1f;
        if (type === 7 || type === 8) this.parameterSets.set(type, nal);
      }
      if (!unit.keyframe) return;
      this.idrSeen = true;
      this.askIdr?.cancel();
      this.askIdr = null;
      const carried = new Set(unit.units.map((nal) => (nal[0] ?? 0) & 0x1f));
      const missing = [7, 8].filter((type) => !carried.has(type)).map((type) => this.parameterSets.get(type));
      this.parameterSets.clear();
      this.encoder.writeStream(annexB([...missing.filter((nal) => nal !== undefined), ...unit.units]));
      return;
    }
    this.encoder.writeStream(annexB(unit.units));
  }

  stop(): void {
    this.askIdr?.cancel();
    this.askIdr = null;
    this.listeners.clear();
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
      readonly log: (message: string, error?: unknown) => void;
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
    const h264 = publisher.codec === 'H264' ? new H264Source(publisher, ffmpeg!, this.options) : null;
    const source: CameraSource = h264 ?? publisher;
    const previous = this.published.get(key);
    if (standIn && previous && !previous.standIn) {
      // A real camera came while this stand-in's offer was answered: it stays.
      publisher.end('a real camera publishes this camera');
      return 'camera-present';
    }
    this.published.set(key, { publisher, source, keyId, standIn });
    const channel = this.feed.publish(stationId, camera, source);
    if (h264) h264.channel = channel;
    publisher.onPacket = h264 ? (packet) => h264.push(packet) : (packet) => channel.push(publisher, packet);
    publisher.onEnded = (reason) => {
      h264?.stop();
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
