import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { StationCameras } from '../play/cameras/station-cameras';
import { CameraChannel, type CameraChannelStats, type CameraSource } from './camera-channel';
import type { CameraDemand } from './camera-demand';
import { PaintedCamera } from './painted-camera';
import { locateFfmpeg, probeFfmpeg, VP8_SETTINGS, type Vp8EncoderSettings } from '../../media/vp8-encoder';

/** Limits and switches of the rtc feed (server config). */
export interface RtcFeedOptions {
  /** The server's clock (the broadcasts' beats). */
  readonly clock: Clock;
  /** The ffmpeg to encode with (FFMPEG_PATH); null or absent: the npm package's. */
  readonly ffmpeg?: string | null;
  /** Viewers of one station camera at once. */
  readonly maxViewersPerCamera: number;
  /** Cameras encoding at once (each is one ffmpeg process). */
  readonly maxEncoders: number;
  /** Write the machine tick into the video pictures (the feed benchmark). */
  readonly tickMarker: boolean;
  /** Who watches which camera, told to the agents that publish their cameras. */
  readonly demand?: Pick<CameraDemand, 'viewersOf'>;
  readonly settings?: Vp8EncoderSettings;
}

/** Why a camera cannot be watched in rtc now. */
export type JoinRefusal = 'unavailable' | 'camera-full' | 'encoders-busy';

const probed = new Map<string, string | null>();

/**
 * The rtc live feed: one CameraChannel per station camera that someone watches or publishes
 * (docs/live-feed.md). A camera's video comes from its WHIP publisher (issue 43) and is forwarded
 * to every viewer as it came; a camera that has never had a publisher on this instance is drawn by
 * the server until the agents publish (PaintedCamera, one encoder while anyone watches).
 */
export class RtcFeed {
  private readonly channels = new Map<string, CameraChannel>();
  private readonly painted = new Map<string, PaintedCamera>();
  /** Cameras that have had a publisher here: they are never drawn by the server again. */
  private readonly published = new Set<string>();
  private stationsWatch: ScheduledTask | null = null;
  private readonly ffmpeg: string | null;
  /** Why there is no drawn video (one line for the log), or null when there is. */
  readonly unavailableReason: string | null;

  constructor(
    private readonly cameras: StationCameras,
    private readonly options: RtcFeedOptions,
  ) {
    const path = options.ffmpeg === undefined || options.ffmpeg === null ? locateFfmpeg() : options.ffmpeg;
    const key = path ?? '';
    if (!probed.has(key)) probed.set(key, probeFfmpeg(path));
    this.unavailableReason = probed.get(key) ?? null;
    this.ffmpeg = this.unavailableReason === null ? path : null;
  }

  get available(): boolean {
    return this.ffmpeg !== null;
  }

  /** The ffmpeg that works here (libvpx), or null. */
  get ffmpegPath(): string | null {
    return this.ffmpeg;
  }

  /** Whether the camera has had a WHIP publisher here: its video and stills come from it, never from the painter. */
  isPublished(stationId: number, camera: CameraName): boolean {
    return this.published.has(`${stationId}:${camera}`);
  }

  /** The camera's channel (made when missing; dropped again once it has neither viewers nor a source). */
  channel(stationId: number, camera: CameraName): CameraChannel {
    const key = `${stationId}:${camera}`;
    let channel = this.channels.get(key);
    if (!channel) {
      const made: CameraChannel = new CameraChannel(
        stationId,
        camera,
        this.options.clock,
        () => {
          if (this.channels.get(key) === made) this.channels.delete(key);
        },
        (count) => this.options.demand?.viewersOf(stationId, camera, count),
      );
      channel = made;
      this.channels.set(key, channel);
      this.watchStations();
    }
    return channel;
  }

  /**
   * The channel of a station camera for a new viewer, or why not. Counting happens here, before
   * any slow step, so concurrent joins cannot pass a limit together. A camera without a publisher
   * that was never published here starts the server's painter with its first viewer.
   */
  broadcastFor(stationId: number, camera: CameraName): CameraChannel | JoinRefusal {
    const key = `${stationId}:${camera}`;
    const known = this.channels.get(key);
    if (known && known.viewerCount >= this.options.maxViewersPerCamera) return 'camera-full';
    if (known?.currentSource || this.published.has(key)) return this.channel(stationId, camera);
    if (!this.ffmpeg) return 'unavailable';
    if (this.painted.get(key)?.running === false) this.painted.delete(key);
    if (!this.painted.has(key) && this.painted.size >= this.options.maxEncoders) return 'encoders-busy';
    const channel = this.channel(stationId, camera);
    if (!this.painted.has(key)) {
      const painter = new PaintedCamera(stationId, camera, channel, {
        clock: this.options.clock,
        ffmpeg: this.ffmpeg,
        settings: this.options.settings ?? VP8_SETTINGS,
        tickMarker: this.options.tickMarker,
        pixels: () => this.cameras.pixels(stationId, camera),
      });
      this.painted.set(key, painter);
      painter.start().catch(() => this.stopPainter(key));
    }
    return channel;
  }

  /** A viewer left: a painted camera nobody watches stops drawing. */
  left(stationId: number, camera: CameraName): void {
    const key = `${stationId}:${camera}`;
    if ((this.channels.get(key)?.viewerCount ?? 0) === 0) this.stopPainter(key);
  }

  private stopPainter(key: string): void {
    const painter = this.painted.get(key);
    if (!painter) return;
    this.painted.delete(key);
    painter.stop();
  }

  /**
   * A publisher sends this camera from now on: it replaces the camera's previous publisher (which
   * the caller closes) or the painter. Answers the channel to push its packets into.
   */
  publish(stationId: number, camera: CameraName, source: CameraSource): CameraChannel {
    const key = `${stationId}:${camera}`;
    this.published.add(key);
    this.stopPainter(key);
    const channel = this.channel(stationId, camera);
    channel.attach(source);
    return channel;
  }

  /** The publisher stopped: the camera is dark until another one publishes. */
  unpublish(stationId: number, camera: CameraName, source: CameraSource): void {
    this.channels.get(`${stationId}:${camera}`)?.detach(source);
  }

  /**
   * Looks at the stations of the channels once a second: a station down (maintenance) darkens its
   * cameras, whatever their publisher sends [R4.2-10]; up again, they show again.
   */
  private watchStations(): void {
    if (this.stationsWatch) return;
    this.stationsWatch = repeatEvery(this.options.clock, 1_000, () => {
      if (this.channels.size === 0) {
        this.stationsWatch?.cancel();
        this.stationsWatch = null;
        return;
      }
      for (const channel of [...this.channels.values()])
        void this.cameras.isDown(channel.stationId).then(
          (down) => channel.setStationDown(down),
          () => undefined,
        );
    });
  }

  /** A station's machine moved: its painted cameras draw and send the new picture now. */
  machineTicked(stationId: number): void {
    for (const camera of ['front', 'side'] as const) this.painted.get(`${stationId}:${camera}`)?.nudge();
  }

  /** Every camera with viewers or a source: what the console and the development status show. */
  cameraStats(): CameraChannelStats[] {
    return [...this.channels.values()].map((channel) => channel.stats());
  }

  /** What runs now: viewers and encoder processes per camera (the benchmark and tests read it). */
  status(): {
    stationId: number;
    camera: CameraName;
    viewers: number;
    /** Whether its jpg stills are being made from the video now. */
    stills: boolean;
    live: boolean;
    source: 'whip' | 'painted' | null;
    encoderPid: number | undefined;
    pictures: number;
    packets: number;
  }[] {
    return [...this.channels.values()].map((channel) => {
      const painter = this.painted.get(`${channel.stationId}:${channel.camera}`);
      return {
        stationId: channel.stationId,
        camera: channel.camera,
        viewers: channel.viewerCount,
        stills: channel.stillsRunning,
        live: channel.isLive,
        source: channel.currentSource?.kind ?? null,
        encoderPid: painter?.encoderPid,
        pictures: painter?.pictures ?? 0,
        packets: channel.packets,
      };
    });
  }

  close(): void {
    this.stationsWatch?.cancel();
    this.stationsWatch = null;
    for (const key of [...this.painted.keys()]) this.stopPainter(key);
    for (const channel of [...this.channels.values()]) channel.close();
    this.channels.clear();
  }
}
