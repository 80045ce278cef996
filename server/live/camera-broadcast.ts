import type { MediaStreamTrack, RtpPacket } from 'werift';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../play/cameras/camera-renderer';
import { stampTick } from '../play/cameras/camera-renderer';
import type { CameraPixels } from '../play/cameras/station-cameras';
import { withPlayoutDelay } from './playout-delay';
import { Vp8Encoder, type Vp8EncoderSettings } from './vp8-encoder';

/** An unchanged picture is sent again at most this often (10 a second). */
const REPEAT_MS = 100;

/** A viewer of one camera: the track its peer connection sends, and what it hears of the camera. */
export interface CameraViewer {
  readonly track: MediaStreamTrack;
  /** The camera went dark (station down) or came back: the viewer's video track goes or returns. */
  onLive(live: boolean): void;
  /** The camera's encoder failed for good: the viewer's session ends. */
  onFailed(reason: string): void;
}

export interface BroadcastOptions {
  /** The server's clock: the picture beats and the repeat interval run on it. */
  readonly clock: Clock;
  readonly ffmpeg: string;
  readonly settings: Vp8EncoderSettings;
  /** The camera's latest picture (the same simulation the jpg stills show). */
  readonly pixels: () => Promise<CameraPixels | null>;
  /** Writes the machine tick into each picture (the feed benchmark reads it back). */
  readonly tickMarker: boolean;
  /** Called when the broadcast has no viewer left and stopped its encoder. */
  readonly onIdle: () => void;
}

/**
 * One station camera's video, while anyone watches it: one VP8 encoder fed the camera simulation's
 * pictures (each new one as it is drawn, an unchanged one again every REPEAT_MS), and every RTP packet it makes written to every viewer's track (SFU
 * style: no per-viewer encoding). Starts with its first viewer, stops when the last one leaves.
 * While the station is down (its picture dimmed) the camera is dark: viewers' tracks are taken
 * away (they show the still pictures), and given back when it is up again.
 */
export class CameraBroadcast {
  private readonly viewers = new Set<CameraViewer>();
  private encoder: Vp8Encoder | null = null;
  private pump: ScheduledTask | null = null;
  private pumping = false;
  private fedAt = 0;
  /** The last picture the encoder got (the camera's shared bytes, before any tick marker) and when. */
  private sent: { picture: Buffer; tick: number; at: number } | null = null;
  private live = true;
  /** Pictures sent to the encoder, RTP packets fanned out (the benchmark reads them). */
  pictures = 0;
  packets = 0;

  constructor(
    readonly stationId: number,
    readonly camera: CameraName,
    private readonly options: BroadcastOptions,
  ) {}

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Whether the camera shows a picture now (false while the station is down). */
  get isLive(): boolean {
    return this.live;
  }

  get encoderPid(): number | undefined {
    return this.encoder?.pid;
  }

  /** Adds a viewer; the first one starts the encoder (rejects if it cannot start). */
  async join(viewer: CameraViewer): Promise<void> {
    this.viewers.add(viewer);
    if (this.encoder) return;
    const encoder = new Vp8Encoder(
      this.options.ffmpeg,
      this.options.settings,
      (packet) => this.fanOut(packet),
      (reason) => this.failed(reason),
    );
    this.encoder = encoder;
    this.sent = null;
    try {
      await encoder.start();
    } catch (error) {
      this.viewers.delete(viewer);
      this.failed(error instanceof Error ? error.message : String(error));
      throw error;
    }
    // The last viewer may have left while the encoder started: then it is stopped already.
    if (this.encoder !== encoder) return;
    this.pump = repeatEvery(this.options.clock, Math.round(1000 / this.options.settings.fps), () => void this.feed());
    void this.feed();
  }

  /** Removes a viewer; the last one stops the encoder. */
  leave(viewer: CameraViewer): void {
    if (!this.viewers.delete(viewer)) return;
    if (this.viewers.size === 0) this.stop();
  }

  /** Stops the encoder and drops every viewer (server shutdown). */
  close(): void {
    this.viewers.clear();
    this.stop();
  }

  private stop(): void {
    this.pump?.cancel();
    this.pump = null;
    this.encoder?.stop();
    this.encoder = null;
    this.options.onIdle();
  }

  /** The machine moved: the new picture goes out now, not at the next beat. */
  nudge(): void {
    void this.feed(true);
  }

  /**
   * Sends the camera's current picture to the encoder. Beats come every 1/FPS s; a machine tick
   * also sends one at once (nudge), and a beat that falls within ~2/3 of a frame after any picture
   * is skipped, so a running machine's moves go out as they happen without doubling the rate.
   * A picture the same as the last one sent (the camera draws each scene once and shares its bytes)
   * goes again only REPEAT_MS after it: a repeat shows nothing new, and encoding it would hold
   * the encoder when the machine's next move comes. The repeats keep an unchanged camera's video
   * going (and its keyframes, which come by time) without spending the encoder on copies.
   */
  private async feed(nudged = false): Promise<void> {
    if (!this.encoder) return;
    const now = this.options.clock.now().getTime();
    if (!nudged && now - this.fedAt < (1000 / this.options.settings.fps) * 0.66) return;
    this.fedAt = now;
    // One picture read at a time (an idle station's read may wait for the store).
    if (this.pumping) return;
    this.pumping = true;
    try {
      const picture = await this.options.pixels();
      if (!picture || !this.encoder) return;
      this.setLive(!picture.dimmed);
      // A dark camera encodes nothing: no packets, so no gap in the sequence when it comes back.
      if (picture.dimmed) return;
      const at = this.options.clock.now().getTime();
      // With the tick marker each tick's picture differs from the last (its squares do).
      const tick = this.options.tickMarker ? picture.tick : 0;
      if (this.sent?.picture === picture.pixels && this.sent.tick === tick && at - this.sent.at < REPEAT_MS) return;
      this.sent = { picture: picture.pixels, tick, at };
      let pixels = picture.pixels;
      if (this.options.tickMarker) {
        pixels = Buffer.from(pixels);
        stampTick(pixels, picture.tick);
      }
      this.encoder.write(pixels);
      this.pictures += 1;
    } catch {
      // A failed read (store closing) skips this picture; the next beat tries again.
    } finally {
      this.pumping = false;
    }
  }

  private setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    for (const viewer of this.viewers) viewer.onLive(live);
  }

  private fanOut(rtp: RtpPacket): void {
    this.packets += 1;
    const stamped = withPlayoutDelay(rtp);
    for (const viewer of this.viewers) viewer.track.writeRtp(stamped);
  }

  private failed(reason: string): void {
    const viewers = [...this.viewers];
    this.viewers.clear();
    this.stop();
    for (const viewer of viewers) viewer.onFailed(reason);
  }
}
