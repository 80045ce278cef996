import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { CameraToolPool } from './camera-tool-pool';
import { RequestRate } from './request-rate';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel, CameraViewer } from './camera-channel';
import { Mp4BoxSplitter, readFragment, videoTimescale } from './fmp4';
import { LlHlsStream, PART_TARGET_S } from './ll-hls';
import { ivfFrame, ivfHeader, RtpClock, spawnMediaTool, Vp8FrameReader } from './vp8-frames';

/** A camera's HLS stops being made this long after the last request for it. */
export const HLS_IDLE_MS = 10_000;
/** The HLS picture's frame rate: a keyframe every FPS frames (1 s), a part every FPS / 2 (0.5 s). */
const FPS = 30;
/** The longest side of the HLS picture. */
const HLS_WIDTH = 960;

/**
 * One camera's LL-HLS, made from its video (docs/spectators.md): one ffmpeg per camera decodes the
 * VP8 the viewers get (it joins the channel as a viewer, from a keyframe) and encodes it once to
 * H.264 (Safari's HLS and every MSE browser play it) at a constant 30 fps with a keyframe every
 * second, written as fragmented MP4 with a fragment every half second: each fragment is one part.
 * However many spectators watch, this is the only work the camera costs the origin.
 */
class HlsEncoder implements CameraViewer {
  readonly kind = 'hls';
  readonly stream: LlHlsStream;
  private process: ChildProcess | null;
  private readonly frames: Vp8FrameReader;
  private readonly time = new RtpClock();
  private readonly boxes = new Mp4BoxSplitter();
  private timescale: number | null = null;
  private init: Buffer[] = [];
  private moof: Buffer | null = null;
  askedAt: number;
  stopped = false;

  constructor(
    private readonly channel: CameraChannel,
    ffmpeg: string,
    clock: Clock,
    private readonly onEnded: () => void,
  ) {
    this.askedAt = clock.now().getTime();
    this.stream = new LlHlsStream(randomBytes(4).toString('hex'), clock);
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
      () => this.channel.keyframeWanted(),
    );
    this.process.stdin?.write(ivfHeader());
    this.process.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    this.process.once('exit', () => this.stop());
    this.process.once('error', () => this.stop());
    void channel.join(this);
  }

  write(rtp: Buffer): void {
    if (!this.stopped) this.frames.write(rtp);
  }

  onLive(): void {}

  onFailed(): void {
    this.stop();
  }

  private read(chunk: Buffer): void {
    let boxes;
    try {
      boxes = this.boxes.push(chunk);
    } catch {
      this.stop();
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

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.channel.leave(this);
    this.process?.stdin?.end();
    this.process?.kill('SIGKILL');
    this.process = null;
    this.stream.end();
    this.onEnded();
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }
}

/**
 * The LL-HLS of every watched camera on this instance: a camera's encoder starts with the first
 * request for its stream and stops HLS_IDLE_MS after the last (docs/spectators.md).
 */
export class CameraHls {
  private readonly encoders: CameraToolPool<HlsEncoder>;
  /** Requests for each camera's files that reached this origin (a cache in front answers the rest). */
  private readonly requests: RequestRate;

  constructor(
    private readonly channelOf: (stationId: number, camera: CameraName) => CameraChannel,
    private readonly ffmpeg: string | null,
    private readonly clock: Clock,
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
      const made: HlsEncoder = new HlsEncoder(this.channelOf(stationId, camera), this.ffmpeg, this.clock, () =>
        this.encoders.forget(key, made),
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
  running(): { stationId: number; camera: CameraName; pid: number | undefined; held: number }[] {
    return this.encoders
      .entries()
      .map(({ stationId, camera, tool }) => ({ stationId, camera, pid: tool.pid, held: tool.stream.held }));
  }

  close(): void {
    this.encoders.close();
  }
}
