import type { Clock } from '../clock';
import type { CameraName } from '../play/cameras/camera-renderer';
import type { StationCameras } from '../play/cameras/station-cameras';
import { CameraBroadcast } from './camera-broadcast';
import { locateFfmpeg, probeFfmpeg, VP8_SETTINGS, type Vp8EncoderSettings } from './vp8-encoder';

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
  readonly settings?: Vp8EncoderSettings;
}

/** Why a camera cannot be watched in rtc now. */
export type JoinRefusal = 'unavailable' | 'camera-full' | 'encoders-busy';

const probed = new Map<string, string | null>();

/**
 * The rtc live feed's encoders: one CameraBroadcast per station camera that someone watches,
 * created on the first viewer and dropped when its last viewer leaves. Whether video can be made
 * at all is decided once, at start: without a working ffmpeg (libvpx) the server serves jpg only.
 */
export class RtcFeed {
  private readonly broadcasts = new Map<string, CameraBroadcast>();
  private readonly ffmpeg: string | null;
  /** Why there is no video (one line for the log), or null when there is. */
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

  /**
   * The broadcast of a station camera for a new viewer, or why not. Counting happens here, before
   * any slow step, so concurrent joins cannot pass a limit together.
   */
  broadcastFor(stationId: number, camera: CameraName): CameraBroadcast | JoinRefusal {
    if (!this.ffmpeg) return 'unavailable';
    const key = `${stationId}:${camera}`;
    const known = this.broadcasts.get(key);
    if (known) return known.viewerCount >= this.options.maxViewersPerCamera ? 'camera-full' : known;
    if (this.broadcasts.size >= this.options.maxEncoders) return 'encoders-busy';
    const broadcast: CameraBroadcast = new CameraBroadcast(stationId, camera, {
      clock: this.options.clock,
      ffmpeg: this.ffmpeg,
      settings: this.options.settings ?? VP8_SETTINGS,
      tickMarker: this.options.tickMarker,
      pixels: () => this.cameras.pixels(stationId, camera),
      onIdle: () => {
        if (this.broadcasts.get(key) === broadcast) this.broadcasts.delete(key);
      },
    });
    this.broadcasts.set(key, broadcast);
    return broadcast;
  }

  /** A station's machine moved: its watched cameras draw and send the new picture now. */
  machineTicked(stationId: number): void {
    for (const camera of ['front', 'side'] as const) this.broadcasts.get(`${stationId}:${camera}`)?.nudge();
  }

  /** What runs now: viewers and encoder processes per camera (the benchmark and tests read it). */
  status(): {
    stationId: number;
    camera: CameraName;
    viewers: number;
    live: boolean;
    encoderPid: number | undefined;
    pictures: number;
    packets: number;
  }[] {
    return [...this.broadcasts.values()].map((b) => ({
      stationId: b.stationId,
      camera: b.camera,
      viewers: b.viewerCount,
      live: b.isLive,
      encoderPid: b.encoderPid,
      pictures: b.pictures,
      packets: b.packets,
    }));
  }

  close(): void {
    for (const broadcast of [...this.broadcasts.values()]) broadcast.close();
    this.broadcasts.clear();
  }
}
