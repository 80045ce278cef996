import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { StationCameras } from '../play/cameras/station-cameras';
import { CameraChannel, type CameraChannelStats, type CameraSource } from './camera-channel';
import type { CameraDemand } from './camera-demand';
import { locateFfmpeg, probeFfmpeg } from '../../media/vp8-encoder';

/** Limits and switches of the rtc feed (server config). */
export interface RtcFeedOptions {
  /** The server's clock (the broadcasts' beats). */
  readonly clock: Clock;
  /** The ffmpeg that decodes stills and transcodes H.264 publishers (FFMPEG_PATH); null or absent: the npm package's. */
  readonly ffmpeg?: string | null;
  /** Viewers of one station camera at once. */
  readonly maxViewersPerCamera: number;
  /** Who watches which camera, told to the agents that publish their cameras. */
  readonly demand?: Pick<CameraDemand, 'viewersOf'>;
}

/** Why a camera cannot be watched in rtc now. */
export type JoinRefusal = 'camera-full';

const probed = new Map<string, string | null>();

/**
 * The rtc live feed: one CameraChannel per station camera that someone watches or publishes
 * (docs/live-feed.md). A camera's video comes from its WHIP publisher and is forwarded to every
 * viewer as it came; a camera without one is dark (its viewers are shown the poster or the stills)
 * until one publishes. The server draws no picture.
 */
export class RtcFeed {
  private readonly channels = new Map<string, CameraChannel>();
  private stationsWatch: ScheduledTask | null = null;
  private readonly ffmpeg: string | null;
  /**
   * Why there is no ffmpeg here (one line for the log), or null when there is: VP8 cameras are
   * forwarded without one, but stills and H.264 publishers need it.
   */
  readonly ffmpegProblem: string | null;

  constructor(
    private readonly cameras: StationCameras,
    private readonly options: RtcFeedOptions,
  ) {
    const path = options.ffmpeg === undefined || options.ffmpeg === null ? locateFfmpeg() : options.ffmpeg;
    const key = path ?? '';
    if (!probed.has(key)) probed.set(key, probeFfmpeg(path));
    this.ffmpegProblem = probed.get(key) ?? null;
    this.ffmpeg = this.ffmpegProblem === null ? path : null;
  }

  /** The ffmpeg that works here (libvpx), or null. */
  get ffmpegPath(): string | null {
    return this.ffmpeg;
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

  /** The camera's channel if it exists now (someone publishes or watches it), without making one. */
  existing(stationId: number, camera: CameraName): CameraChannel | null {
    return this.channels.get(`${stationId}:${camera}`) ?? null;
  }

  /**
   * The channel of a station camera for a new viewer, or why not. Counting happens here, before
   * any slow step, so concurrent joins cannot pass the limit together. A camera without a publisher
   * is joined all the same: dark until one publishes (its agent is asked to, camera-demand.ts).
   */
  broadcastFor(stationId: number, camera: CameraName): CameraChannel | JoinRefusal {
    const known = this.channels.get(`${stationId}:${camera}`);
    if (known && known.viewerCount >= this.options.maxViewersPerCamera) return 'camera-full';
    return this.channel(stationId, camera);
  }

  /**
   * A publisher sends this camera from now on: it replaces the camera's previous publisher (which
   * the caller closes). Answers the channel to push its packets into.
   */
  publish(stationId: number, camera: CameraName, source: CameraSource): CameraChannel {
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

  /** Every camera with viewers or a source: what the console and the development status show. */
  cameraStats(): CameraChannelStats[] {
    return [...this.channels.values()].map((channel) => channel.stats());
  }

  /** What runs now per camera (the benchmark and tests read it). */
  status(): {
    stationId: number;
    camera: CameraName;
    viewers: number;
    /** Whether its jpg stills are being made from the video now. */
    stills: boolean;
    live: boolean;
    source: 'whip' | null;
    packets: number;
  }[] {
    return [...this.channels.values()].map((channel) => {
      return {
        stationId: channel.stationId,
        camera: channel.camera,
        viewers: channel.viewerCount,
        stills: channel.stillsRunning,
        live: channel.isLive,
        source: channel.currentSource?.kind ?? null,
        packets: channel.packets,
      };
    });
  }

  close(): void {
    this.stationsWatch?.cancel();
    this.stationsWatch = null;
    for (const channel of [...this.channels.values()]) channel.close();
    this.channels.clear();
  }
}
