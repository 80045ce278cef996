import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { CameraToolPool } from './camera-tool-pool';
import { RequestRate } from './request-rate';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel, CameraSource, CameraViewer } from './camera-channel';
import { H264HlsRemuxer } from './h264-hls-remuxer';
import { Mp4BoxSplitter, readFragment, videoTimescale } from './fmp4';
import { LlHlsStream, PART_TARGET_S } from './ll-hls';
import { ivfFrame, ivfHeader, RtpClock, spawnMediaTool, Vp8FrameReader } from './vp8-frames';

/** A camera's HLS stops being made this long after the last request for it. */
export const HLS_IDLE_MS = 10_000;
/** The HLS picture's frame rate: a keyframe every FPS frames (1 s), a part every FPS / 2 (0.5 s). */
const FPS = 30;
/** The longest side of the HLS picture. */
const HLS_WIDTH = 960;

/** What makes a run's parts: ffmpeg encoding the channel's VP8, or the remuxer of a publisher's H.264. */
interface HlsProducer {
  readonly mode: 'encode' | 'remux';
  /** One of the channel's VP8 packets (the encoder takes them; the remuxer reads the publisher instead). */
  write(rtp: Buffer): void;
  /** The camera's source left (null) or another came. */
  follow(source: CameraSource | null): void;
  stop(): void;
  readonly pid: number | undefined;
}

/**
 * The channel's VP8 encoded once to H.264 (docs/spectators.md): one ffmpeg decodes the VP8 the
 * viewers get (from a keyframe) and encodes it at a constant 30 fps with a keyframe every second,
 * written as fragmented MP4 with a fragment every half second: each fragment is one part. For
 * cameras that send VP8 (browsers, the sim agent's painted cameras): VP8 cannot go into HLS as it is.
 */
class Vp8HlsEncoder implements HlsProducer {
  readonly mode = 'encode';
  private process: ChildProcess | null;
  private readonly frames: Vp8FrameReader;
  private readonly time = new RtpClock();
  private readonly boxes = new Mp4BoxSplitter();
  private timescale: number | null = null;
  private init: Buffer[] = [];
  private moof: Buffer | null = null;

  constructor(
    channel: CameraChannel,
    ffmpeg: string,
    private readonly stream: LlHlsStream,
    private readonly onEnded: () => void,
  ) {
    const gop = String(FPS);
    this.process = spawnMediaTool(ffmpeg, [
      ...['-probesize', '32', '-analyzeduration', '0', '-fflags', '+genpts'],
      ...['-f', 'ivf', '-i', 'pipe:0', '-an'],
      ...['-vf', `fps=${FPS},scale='min(${HLS_WIDTH},iw)':-2,format=yuv420p`],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-profile:v', 'main'],
      ...['-g', gop, '-keyint_min', gop, '-sc_threshold', '0', '-bf', '0'],
      ...['-b:v', '1000k', '-maxrate', '1200k', '-bufsize', '600k'],
      ...['-f', 'mp4', '-movflags', 'empty_moov+default_base_moof+frag_keyframe', '-flush_packets', '1'],
      ...['-frag_duration', String(Math.round(PART_TARGET_S * 1e6 * 0.98)), '-video_track_timescale', '90000'],
      'pipe:1',
    ]);
    this.frames = new Vp8FrameReader(
      (frame) => {
        const stdin = this.process?.stdin;
        // An encoder that cannot keep up drops pictures rather than fall behind the live edge.
        if (stdin?.writable && stdin.writableLength < 1024 * 1024)
          stdin.write(ivfFrame(frame.data, this.time.ms(frame.rtpTimestamp)));
      },
      () => channel.keyframeWanted(),
    );
    this.process.stdin?.write(ivfHeader());
    this.process.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    this.process.once('exit', () => this.ended());
    this.process.once('error', () => this.ended());
  }

  write(rtp: Buffer): void {
    if (this.process) this.frames.write(rtp);
  }

  /** The channel carries on across publishers of VP8 (its numbering runs on): nothing to do. */
  follow(): void {}

  private read(chunk: Buffer): void {
    let boxes;
    try {
      boxes = this.boxes.push(chunk);
    } catch {
      this.ended();
      return;
    }
    for (const box of boxes) {
      if (box.type === 'ftyp') this.init = [box.bytes];
      else if (box.type === 'moov') {
        this.timescale = videoTimescale(box.bytes);
        this.stream.setInit(Buffer.concat([...this.init, box.bytes]));
      } else if (box.type === 'moof') this.moof = box.bytes;
      else if (box.type === 'mdat' && this.moof && this.timescale) {
        const info = readFragment(this.moof);
        if (info && info.duration > 0)
          this.stream.addPart({
            data: Buffer.concat([this.moof, box.bytes]),
            durationS: info.duration / this.timescale,
            independent: info.independent,
          });
        this.moof = null;
      }
    }
  }

  private ended(): void {
    if (!this.process) return;
    this.stop();
    this.onEnded();
  }

  stop(): void {
    const process = this.process;
    this.process = null;
    process?.stdin?.end();
    process?.kill('SIGKILL');
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }
}

/**
 * One camera's LL-HLS run: one LlHlsStream (its epoch names every URI) and what makes its parts,
 * chosen by the camera's source: a publisher's H.264 is remuxed as it came (h264-hls-remuxer.ts:
 * no decoder, no encoder, no process); anything else (VP8) is encoded once by ffmpeg. It joins the
 * channel as the 'hls' tool, so the camera stays wanted while spectators watch. A source that needs
 * the other way before the first part just changes it; after that, the run ends and the next
 * request starts a new one (a new epoch: players load its playlist afresh).
 */
class HlsRun implements CameraViewer {
  readonly kind = 'hls';
  readonly stream: LlHlsStream;
  private producer: HlsProducer;
  askedAt: number;
  stopped = false;

  constructor(
    private readonly channel: CameraChannel,
    private readonly ffmpeg: string,
    private readonly clock: Clock,
    /** Sources whose H.264 cannot be remuxed (pictures out of decode order): they are encoded. Null: nothing is remuxed. */
    private readonly notRemuxable: WeakSet<CameraSource> | null,
    private readonly onEnded: () => void,
  ) {
    this.askedAt = clock.now().getTime();
    this.stream = new LlHlsStream(randomBytes(4).toString('hex'), clock);
    this.producer = this.producerFor(channel.currentSource);
    void channel.join(this);
  }

  get mode(): 'encode' | 'remux' {
    return this.producer.mode;
  }

  private producerFor(source: CameraSource | null): HlsProducer {
    const tap = source && this.remuxes(source) ? source.accessUnits : undefined;
    if (source && tap)
      return new H264HlsRemuxer(tap, this.stream, this.clock, {
        notRemuxable: () => {
          this.notRemuxable?.add(source);
          this.change(source);
        },
        changed: () => this.stop(),
      });
    return new Vp8HlsEncoder(this.channel, this.ffmpeg, this.stream, () => this.stop());
  }

  write(rtp: Buffer): void {
    if (!this.stopped) this.producer.write(rtp);
  }

  onLive(): void {}

  onFailed(): void {
    this.stop();
  }

  onSource(source: CameraSource | null): void {
    if (this.stopped) return;
    if (source === null || this.remuxes(source) === (this.producer.mode === 'remux')) this.producer.follow(source);
    else this.change(source);
  }

  private remuxes(source: CameraSource): boolean {
    return source.accessUnits !== undefined && this.notRemuxable !== null && !this.notRemuxable.has(source);
  }

  /** The source needs the other producer: swapped before the first part, else the run ends. */
  private change(source: CameraSource): void {
    if (this.stream.begun) {
      this.stop();
      return;
    }
    this.producer.stop();
    this.producer = this.producerFor(source);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.channel.leave(this);
    this.producer.stop();
    this.stream.end();
    this.onEnded();
  }

  get pid(): number | undefined {
    return this.producer.pid;
  }
}

/**
 * The LL-HLS of every watched camera on this instance: a camera's encoder starts with the first
 * request for its stream and stops HLS_IDLE_MS after the last (docs/spectators.md).
 */
export class CameraHls {
  private readonly encoders: CameraToolPool<HlsRun>;
  private readonly notRemuxable = new WeakSet<CameraSource>();
  /** Requests for each camera's files that reached this origin (a cache in front answers the rest). */
  private readonly requests: RequestRate;

  constructor(
    private readonly channelOf: (stationId: number, camera: CameraName) => CameraChannel,
    private readonly ffmpeg: string | null,
    private readonly clock: Clock,
    /** Whether an H.264 publisher's stream is remuxed (HLS_H264, default) rather than encoded again. */
    private readonly remuxH264 = true,
  ) {
    this.encoders = new CameraToolPool(clock, HLS_IDLE_MS);
    this.requests = new RequestRate(clock);
  }

  /**
   * The camera's stream, started if it was not running (null without ffmpeg). Each call counts as
   * a request: the stream runs on while they come.
   */
  stream(stationId: number, camera: CameraName): LlHlsStream | null {
    const key = CameraToolPool.key(stationId, camera);
    this.requests.hit(key);
    if (!this.ffmpeg) return null;
    let encoder = this.encoders.get(key);
    if (!encoder) {
      const made: HlsRun = new HlsRun(
        this.channelOf(stationId, camera),
        this.ffmpeg,
        this.clock,
        this.remuxH264 ? this.notRemuxable : null,
        () => this.encoders.forget(key, made),
      );
      encoder = this.encoders.add(key, made);
    }
    encoder.askedAt = this.clock.now().getTime();
    return encoder.stream;
  }

  /** The camera's HLS requests a second at this origin over the last 5 s (the console). */
  requestsPerSecond(stationId: number, camera: CameraName): number {
    return this.requests.perSecond(CameraToolPool.key(stationId, camera));
  }

  /** The streams running now, without counting a request (tests, the console). */
  running(): {
    stationId: number;
    camera: CameraName;
    /** How its parts are made: the channel's VP8 encoded by ffmpeg, or the publisher's H.264 remuxed. */
    mode: 'encode' | 'remux';
    /** The encoder's process (none for a remux). */
    pid: number | undefined;
    held: number;
  }[] {
    return this.encoders.entries().map(({ stationId, camera, tool }) => ({
      stationId,
      camera,
      mode: tool.mode,
      pid: tool.pid,
      held: tool.stream.held,
    }));
  }

  close(): void {
    this.encoders.close();
  }
}
