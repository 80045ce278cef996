import type { RtpPacket } from 'werift';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import { stampTick } from '../../media/cameras/camera-renderer';
import type { CameraPixels } from '../play/cameras/station-cameras';
import type { CameraChannel, CameraSource } from './camera-channel';
import { Vp8Encoder, type Vp8EncoderSettings } from '../../media/vp8-encoder';

/** An unchanged picture is sent again at most this often (10 a second). */
const REPEAT_MS = 100;

export interface BroadcastOptions {
  /** The server's clock: the picture beats and the repeat interval run on it. */
  readonly clock: Clock;
  readonly ffmpeg: string;
  readonly settings: Vp8EncoderSettings;
  /** The camera's latest picture (the same simulation the jpg stills show). */
  readonly pixels: () => Promise<CameraPixels | null>;
  /** Writes the machine tick into each picture (the feed benchmark reads it back). */
  readonly tickMarker: boolean;
}

/**
 * Until the station agents publish their cameras (issue 43), a camera nobody publishes is drawn by
 * the server: one VP8 encoder fed the camera simulation's pictures (each new one as it is drawn, an
 * unchanged one again every REPEAT_MS), its packets handed to the camera's channel as a publisher's
 * would be. While the station is down (its picture dimmed) it sends nothing and the channel is dark.
 */
export class PaintedCamera implements CameraSource {
  readonly kind = 'painted';
  readonly codec = 'VP8';
  private encoder: Vp8Encoder | null = null;
  private pump: ScheduledTask | null = null;
  private pumping = false;
  private fedAt = 0;
  /** The last picture the encoder got (the camera's shared bytes, before any tick marker) and when. */
  private sent: { picture: Buffer; tick: number; at: number } | null = null;
  private stopped = false;
  /** Pictures sent to the encoder (the benchmark reads it). */
  pictures = 0;

  constructor(
    readonly stationId: number,
    readonly camera: CameraName,
    private readonly channel: CameraChannel,
    private readonly options: BroadcastOptions,
  ) {}

  /** False once stopped (by its feed, or by its encoder failing). */
  get running(): boolean {
    return !this.stopped;
  }

  get encoderPid(): number | undefined {
    return this.encoder?.pid;
  }

  /** A painter's encoder makes a keyframe every keyframeSeconds, never on demand. */
  requestKeyframe(): void {}

  /** Starts the encoder and sends to the channel (rejects if it cannot start). */
  async start(): Promise<void> {
    const encoder = new Vp8Encoder(
      this.options.ffmpeg,
      this.options.settings,
      (packet) => this.send(packet),
      (reason) => {
        this.stop();
        this.channel.fail(reason);
      },
    );
    this.encoder = encoder;
    this.sent = null;
    this.channel.attach(this);
    try {
      await encoder.start();
    } catch (error) {
      this.stop();
      throw error;
    }
    // Stopped while the encoder started (its last viewer left, a publisher came).
    if (this.stopped) return;
    this.pump = repeatEvery(this.options.clock, Math.round(1000 / this.options.settings.fps), () => void this.feed());
    void this.feed();
  }

  /** Stops the encoder and leaves the channel. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.pump?.cancel();
    this.pump = null;
    this.encoder?.stop();
    this.encoder = null;
    this.channel.detach(this);
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
      this.channel.setSourceDark(this, picture.dimmed);
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

  private send(rtp: RtpPacket): void {
    if (!this.stopped) this.channel.push(this, rtp);
  }
}
