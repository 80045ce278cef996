import { CameraPainter } from '../media/cameras/camera-painter';
import { stampTick, type CameraName } from '../media/cameras/camera-renderer';
import { locateFfmpeg, probeFfmpeg, VP8_SETTINGS, Vp8Encoder } from '../media/vp8-encoder';
import { WhipRefused, WhipSession } from '../media/whip-client';
import { AGENT_CAMERAS, type AgentCamerasMessage } from '../src/contract/agent.schema';
import type { AgentClock, AgentTimer } from './agent-clock';
import type { SimDriver } from './drivers/sim-driver';
import { Backoff } from './reconnect-policy';

/** An unchanged picture is sent again at most this often (10 a second): the video keeps going. */
const REPEAT_MS = 100;
/** The picture beat between the machine's ticks. */
const BEAT_MS = Math.round(1000 / VP8_SETTINGS.fps);

export interface SimCamerasOptions {
  /** The server's address for WHIP (http(s)://host:port), from the agent's ws(s):// address. */
  readonly whipBase: string;
  /** The station key (Bearer). */
  readonly key: string;
  readonly driver: Pick<SimDriver, 'view' | 'onTick'>;
  readonly clock: AgentClock;
  readonly log: (line: string) => void;
  /** Extra ICE host addresses (127.0.0.1 when the server is on this machine). */
  readonly iceHosts?: readonly string[];
  /** Writes the machine tick into each picture (the feed benchmark reads it back). */
  readonly tickMarker?: boolean;
  /** The ffmpeg to encode with (default: the npm package's). */
  readonly ffmpeg?: string | null;
}

/** The server's WHIP address for an agent dialing `server` (ws://host:port/agent → http://host:port). */
export function whipBaseOf(server: string): string {
  const url = new URL(server);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return url.origin;
}

/**
 * The sim driver's cameras, painted and published over WHIP (docs/agent-protocol.md "Cameras"):
 * the server's `cameras` lease names the watched cameras of a station, and each is published while
 * its lease holds — painted from the simulated cabinet (the shared camera painter, in a worker
 * thread), encoded VP8 by one ffmpeg, sent by the werift WHIP client. A camera no longer named, or
 * whose lease ran out, ends its session (DELETE). A session that fails is published again after a
 * back-off while the lease holds.
 */
export class SimCameras {
  private readonly cameras = new Map<string, PaintedPublisher>();
  private readonly painter: CameraPainter;
  private readonly ffmpeg: string | null;
  private sweep: AgentTimer | null = null;
  private closed = false;

  constructor(private readonly options: SimCamerasOptions) {
    this.painter = new CameraPainter((line) => options.log(line));
    const ffmpeg = options.ffmpeg ?? locateFfmpeg();
    const problem = probeFfmpeg(ffmpeg);
    if (problem) options.log(`cameras: not published (${problem})`);
    this.ffmpeg = problem ? null : ffmpeg;
    options.driver.onTick((stationId) => {
      for (const camera of AGENT_CAMERAS) this.cameras.get(`${stationId}:${camera}`)?.nudge();
    });
  }

  /** The server's lease for a station: publish the cameras it names for lease_ms, stop the others. */
  lease(message: AgentCamerasMessage): void {
    if (this.closed || !this.ffmpeg) return;
    const until = this.options.clock.now() + message.lease_ms;
    for (const camera of AGENT_CAMERAS) {
      const key = `${message.station_id}:${camera}`;
      const known = this.cameras.get(key);
      if (!message.cameras.includes(camera)) {
        if (known) this.stop(key, 'no longer watched');
        continue;
      }
      if (known) {
        known.until = until;
        continue;
      }
      const publisher = new PaintedPublisher(
        message.station_id,
        camera,
        until,
        this.ffmpeg,
        this.painter,
        this.options,
      );
      this.cameras.set(key, publisher);
      publisher.start();
    }
    this.sweeping();
  }

  /** The cameras published now (tests). */
  get publishing(): string[] {
    return [...this.cameras.entries()].filter(([, p]) => p.live).map(([key]) => key);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sweep?.cancel();
    this.sweep = null;
    await Promise.all([...this.cameras.keys()].map((key) => this.stop(key, 'the agent stops')));
    this.painter.close();
  }

  private stop(key: string, why: string): Promise<void> {
    const publisher = this.cameras.get(key);
    if (!publisher) return Promise.resolve();
    this.cameras.delete(key);
    return publisher.stop(why);
  }

  private sweeping(): void {
    if (this.sweep || this.closed) return;
    this.sweep = this.options.clock.setTimeout(() => {
      this.sweep = null;
      const now = this.options.clock.now();
      for (const [key, publisher] of [...this.cameras])
        if (publisher.until <= now) void this.stop(key, 'lease ran out');
      if (this.cameras.size > 0) this.sweeping();
    }, 1_000);
  }
}

/** One camera of one simulated cabinet, published while its lease holds. */
class PaintedPublisher {
  private session: WhipSession | null = null;
  private encoder: Vp8Encoder | null = null;
  private beat: AgentTimer | null = null;
  private retry: AgentTimer | null = null;
  private stopped = false;
  private pumping = false;
  private fedAt = 0;
  private drawn: { key: string; pixels: Promise<Buffer> } | null = null;
  private sent: { pixels: Buffer; tick: number; at: number } | null = null;
  private readonly backoff = new Backoff();

  constructor(
    readonly stationId: number,
    readonly camera: CameraName,
    public until: number,
    private readonly ffmpeg: string,
    private readonly painter: CameraPainter,
    private readonly options: SimCamerasOptions,
  ) {}

  get live(): boolean {
    return this.session !== null && !this.session.isStopped;
  }

  start(): void {
    void this.publish();
  }

  private async publish(): Promise<void> {
    if (this.stopped) return;
    const { whipBase, key, log } = this.options;
    // A stand-in: a real camera publishing this camera wins (the server refuses this one 409).
    const endpoint = `${whipBase}/whip/${this.stationId}/${this.camera}?standin=1`;
    let session: WhipSession;
    try {
      session = await WhipSession.publish({
        endpoint,
        token: key,
        codec: 'VP8',
        iceHosts: this.options.iceHosts ?? [],
      });
    } catch (error) {
      const why = error instanceof WhipRefused ? `${error.status} ${error.info}` : String(error);
      log(`camera ${this.camera} of station ${this.stationId}: not published (${why})`);
      return this.again();
    }
    if (this.stopped) return void session.stop();
    this.session = session;
    session.onEnded = (reason) => {
      log(`camera ${this.camera} of station ${this.stationId}: session ended (${reason})`);
      this.halt();
      this.again();
    };
    const encoder = new Vp8Encoder(
      this.ffmpeg,
      VP8_SETTINGS,
      (packet) => session.write(packet),
      (reason) => {
        log(`camera ${this.camera} of station ${this.stationId}: encoder stopped (${reason})`);
        this.halt();
        void session.stop();
        this.again();
      },
    );
    this.encoder = encoder;
    this.sent = null;
    await encoder.start();
    if (this.stopped || this.encoder !== encoder) return;
    this.backoff.reset();
    this.beating();
  }

  private again(): void {
    if (this.stopped || this.retry) return;
    this.retry = this.options.clock.setTimeout(() => {
      this.retry = null;
      void this.publish();
    }, this.backoff.next());
  }

  /** The machine ticked: its new picture goes out now, not at the next beat. */
  nudge(): void {
    void this.feed(true);
  }

  private beating(): void {
    this.beat = this.options.clock.setTimeout(() => {
      this.beat = null;
      if (!this.encoder) return;
      void this.feed(false);
      this.beating();
    }, BEAT_MS);
  }

  /**
   * Sends the camera's current picture to the encoder (as the server's painter did): each new picture
   * as the machine moves, an unchanged one again every REPEAT_MS; a beat right after a picture is
   * skipped; one picture is drawn at a time, in the painter's worker thread, once per distinct scene.
   */
  private async feed(nudged: boolean): Promise<void> {
    const encoder = this.encoder;
    if (!encoder) return;
    const now = this.options.clock.now();
    if (!nudged && now - this.fedAt < BEAT_MS * 0.66) return;
    this.fedAt = now;
    if (this.pumping) return;
    this.pumping = true;
    try {
      const view = this.options.driver.view(this.stationId);
      if (!view) return;
      if (this.drawn?.key !== view.key) {
        const pixels = this.painter.draw('video', this.camera, view.scene);
        this.drawn = { key: view.key, pixels };
      }
      const pixels = await this.drawn.pixels;
      if (this.encoder !== encoder) return;
      const at = this.options.clock.now();
      const tick = this.options.tickMarker ? view.tick : 0;
      if (this.sent?.pixels === pixels && this.sent.tick === tick && at - this.sent.at < REPEAT_MS) return;
      this.sent = { pixels, tick, at };
      let picture = pixels;
      if (this.options.tickMarker) {
        picture = Buffer.from(pixels);
        stampTick(picture, view.tick);
      }
      encoder.write(picture);
    } catch {
      // A picture the worker could not draw (it died): the next beat asks again.
      this.drawn = null;
    } finally {
      this.pumping = false;
    }
  }

  private halt(): void {
    this.beat?.cancel();
    this.beat = null;
    this.encoder?.stop();
    this.encoder = null;
    this.session = null;
  }

  async stop(why: string): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.retry?.cancel();
    this.retry = null;
    const session = this.session;
    this.halt();
    this.options.log(`camera ${this.camera} of station ${this.stationId}: stopped (${why})`);
    await session?.stop();
  }
}
