import type { ChildProcess } from 'node:child_process';
import type { Clock } from '../clock';
import { CameraToolPool } from './camera-tool-pool';
import { RequestRate } from './request-rate';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel, CameraViewer } from './camera-channel';
import { ivfFrame, ivfHeader, spawnMediaTool, Vp8FrameReader } from './vp8-frames';

/** A camera's stills stop being made this long after the last one was asked for. */
export const STILLS_IDLE_MS = 5_000;
/** How long the first still of a camera is waited for before the ask is answered without one. */
const FIRST_STILL_MS = 2_000;
/** The largest still kept (a JPEG of the camera's picture is tens of KB). */
const MAX_STILL_BYTES = 2 * 1024 * 1024;
/** The longest side of a still: a camera sending more is scaled down. */
const STILL_WIDTH = 480;

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);

/** A still made from the video and when it was made. */
export interface VideoStill {
  readonly jpeg: Buffer;
  readonly at: number;
}

/**
 * The jpg mode's stills of one camera, made from its video (issue 43): one ffmpeg decodes the
 * camera's VP8 as the viewers get it (it joins the channel as a viewer, from a keyframe) and writes
 * each picture as a JPEG, turned upright (the camera is mounted sideways, R9-10) and at most 480
 * wide. It runs only while stills are asked for: it starts with the first ask and stops
 * STILLS_IDLE_MS after the last. While the camera is dark the last still stays.
 */
class StillDecoder implements CameraViewer {
  readonly kind = 'stills';
  private process: ChildProcess | null = null;
  private readonly frames: Vp8FrameReader;
  private output: Buffer = Buffer.alloc(0);
  private waiters: ((still: VideoStill | null) => void)[] = [];
  private readonly startedAt: number;
  latest: VideoStill | null = null;
  askedAt: number;
  stopped = false;

  constructor(
    private readonly channel: CameraChannel,
    ffmpeg: string,
    private readonly clock: Clock,
    private readonly onEnded: () => void,
  ) {
    this.startedAt = clock.now().getTime();
    this.askedAt = this.startedAt;
    const child = spawnMediaTool(ffmpeg, [
      ...['-probesize', '32', '-analyzeduration', '0'],
      ...['-f', 'ivf', '-i', 'pipe:0', '-an', '-vsync', 'passthrough'],
      ...['-vf', `transpose=1,scale='min(${STILL_WIDTH},iw)':-2`],
      ...['-c:v', 'mjpeg', '-q:v', '5', '-f', 'image2pipe', 'pipe:1'],
    ]);
    this.process = child;
    this.frames = new Vp8FrameReader(
      (frame) => {
        const stdin = this.process?.stdin;
        // A decoder that cannot keep up drops pictures rather than queue them (a still shows the latest).
        if (stdin?.writable && stdin.writableLength < 1024 * 1024)
          stdin.write(ivfFrame(frame.data, this.clock.now().getTime() - this.startedAt));
      },
      () => this.channel.keyframeWanted(),
    );
    child.stdin?.write(ivfHeader());
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    child.once('exit', () => this.stop());
    child.once('error', () => this.stop());
    void channel.join(this);
  }

  /** The viewer's side: the channel's RTP packets, from a keyframe on. */
  write(rtp: Buffer): void {
    if (!this.stopped) this.frames.write(rtp);
  }

  onLive(): void {}

  onFailed(): void {
    this.stop();
  }

  /** The next still made (or null if none comes in time). */
  next(): Promise<VideoStill | null> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(null);
      }, FIRST_STILL_MS);
      const done = (still: VideoStill | null) => {
        timer.cancel();
        resolve(still);
      };
      this.waiters.push(done);
    });
  }

  private read(chunk: Buffer): void {
    this.output = this.output.length === 0 ? chunk : Buffer.concat([this.output, chunk]);
    for (;;) {
      const start = this.output.indexOf(SOI);
      if (start < 0) {
        this.output = Buffer.alloc(0);
        return;
      }
      const end = this.output.indexOf(EOI, start + 2);
      if (end < 0) {
        if (this.output.length - start > MAX_STILL_BYTES) this.output = Buffer.alloc(0);
        else if (start > 0) this.output = this.output.subarray(start);
        return;
      }
      const still = { jpeg: Buffer.from(this.output.subarray(start, end + 2)), at: this.clock.now().getTime() };
      this.output = this.output.subarray(end + 2);
      this.latest = still;
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) waiter(still);
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.channel.leave(this);
    this.process?.stdin?.end();
    this.process?.kill('SIGKILL');
    this.process = null;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter(null);
    this.onEnded();
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }
}

/**
 * The stills of every published camera on this instance, each made from the camera's video while
 * someone asks for them (docs/live-feed.md "Stills from the video").
 */
export class CameraStills {
  private readonly decoders: CameraToolPool<StillDecoder>;
  private readonly kept = new Map<string, VideoStill>();
  /** Asks for each camera's still that reached this origin (the jpg pages' refreshes). */
  private readonly requests: RequestRate;

  constructor(
    private readonly channelOf: (stationId: number, camera: CameraName) => CameraChannel,
    private readonly ffmpeg: string | null,
    private readonly clock: Clock,
  ) {
    this.decoders = new CameraToolPool(clock, STILLS_IDLE_MS);
    this.requests = new RequestRate(clock);
  }

  /**
   * The camera's latest still: the one being made now, else (the first ask) the first one made
   * within 2 s, else the last one made before the camera went dark, else null (a camera that has
   * not published within 2 s of the ask, or no ffmpeg here).
   */
  async still(stationId: number, camera: CameraName): Promise<VideoStill | null> {
    const key = CameraToolPool.key(stationId, camera);
    this.requests.hit(key);
    if (!this.ffmpeg) return this.kept.get(key) ?? null;
    const now = this.clock.now().getTime();
    let decoder = this.decoders.get(key);
    // Nothing to decode before a publisher sends: no ffmpeg is started for a camera without one. A
    // camera with no still yet may be starting (its agent was just asked to publish it): the ask
    // waits for it a moment rather than answer nothing.
    const channel = this.channelOf(stationId, camera);
    if (!decoder && !channel.hasVideo) {
      const kept = this.kept.get(key);
      if (kept || !(await channel.whenVideo(FIRST_STILL_MS))) return kept ?? null;
      decoder = this.decoders.get(key);
    }
    if (!decoder) {
      const made: StillDecoder = new StillDecoder(channel, this.ffmpeg, this.clock, () => {
        if (made.latest) this.kept.set(key, made.latest);
        this.decoders.forget(key, made);
      });
      decoder = this.decoders.add(key, made);
    }
    decoder.askedAt = now;
    const last = decoder.latest ?? this.kept.get(key) ?? null;
    // Dark: the last picture made (the stills fallback), or none.
    if (decoder.latest || !channel.hasVideo) return last;
    return (await decoder.next()) ?? last;
  }

  /** The camera's still asks a second at this origin over the last 5 s (the console). */
  requestsPerSecond(stationId: number, camera: CameraName): number {
    return this.requests.perSecond(CameraToolPool.key(stationId, camera));
  }

  /** Decoders running now (tests, the console). */
  running(): { stationId: number; camera: CameraName; pid: number | undefined }[] {
    return this.decoders.entries().map(({ stationId, camera, tool }) => ({ stationId, camera, pid: tool.pid }));
  }

  close(): void {
    this.decoders.close();
  }
}
