import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import type { RtpPacket } from 'werift';
import { IvfReader, Vp8RtpPacketizer } from './vp8-rtp';

/** How the encoder is set up: picture size and rate, bit rate and keyframe interval. */
export interface Vp8EncoderSettings {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  /** Target bit rate, kbit/s. */
  readonly kbps: number;
  /**
   * Seconds between keyframes. A joining viewer can only start decoding at a keyframe, and the
   * encoder (one per camera, shared by every viewer) cannot be asked for one on demand, so the
   * interval is short. It is counted in time, not in frames: the picture rate follows the machine
   * (a new picture at each move, a repeat of an unchanged one only now and then).
   */
  readonly keyframeSeconds: number;
  /** RTP payload type of the packets (the offer's VP8 payload type). */
  readonly payloadType: number;
}

/**
 * The camera's picture (portrait 360×480: the camera is mounted sideways, R9-10), 30 fps. The
 * painter's picture is this size (camera-renderer's VIDEO_FRAME; a test checks they agree).
 */
export const VP8_SETTINGS: Vp8EncoderSettings = {
  width: 360,
  height: 480,
  fps: 30,
  kbps: 800,
  keyframeSeconds: 0.5,
  payloadType: 96,
};

/**
 * The encoders' nice value: below the server's own process (0), so that the event loop that
 * answers calls, runs the machines and fans the packets out gets the CPU first when a core is
 * busy. An encoder that waits costs frame rate (only the newest picture waits), not correctness.
 */
export const ENCODER_NICE = 10;

/** Largest RTP packet made: room for SRTP and the header extensions the sender adds under the path MTU. */
const RTP_PACKET_BYTES = 1100;

/**
 * Where the encoder comes from when FFMPEG_PATH is not set: the static ffmpeg (with libvpx) that
 * the optional npm package @ffmpeg-installer/linux-x64 carries inside its tarball (nothing is
 * downloaded at install). Null when it is not installed (another platform).
 */
export function locateFfmpeg(): string | null {
  try {
    const path = createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/ffmpeg');
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** Whether `path` runs and has the libvpx VP8 encoder: null when it does, else why not (one line). */
export function probeFfmpeg(path: string | null): string | null {
  if (!path) return 'no ffmpeg found (install the optional package @ffmpeg-installer/linux-x64 or set FFMPEG_PATH)';
  const probe = spawnSync(path, ['-hide_banner', '-h', 'encoder=libvpx'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error) return `ffmpeg at ${path} does not run (${probe.error.message})`;
  if (probe.status !== 0 || !/libvpx/.test(probe.stdout)) return `ffmpeg at ${path} has no libvpx VP8 encoder`;
  return null;
}

/**
 * One VP8 encoder: raw I420 pictures in (stdin), RTP packets out. ffmpeg writes each encoded frame
 * to its stdout as IVF the moment it is encoded, and this class cuts it into RTP packets
 * (Vp8RtpPacketizer) handed to `onPacket`. Realtime settings: no look-ahead frames (each picture
 * leaves as soon as it is encoded), one thread, error resilient. Pictures offered while ffmpeg is
 * busy never queue up: only the newest waits, so a slow encoder costs frame rate, not latency.
 */
export class Vp8Encoder {
  private process: ChildProcess | null = null;
  private busy = false;
  private waiting: Buffer | null = null;
  private stopped = false;

  constructor(
    private readonly ffmpeg: string,
    private readonly settings: Vp8EncoderSettings,
    private readonly onPacket: (packet: RtpPacket) => void,
    /** Called once if ffmpeg ends by itself (not after stop()), with its last error output. */
    private readonly onExit: (reason: string) => void,
    /** What ffmpeg reads: raw I420 pictures (the painter), or an H.264 stream (a publisher's, transcoded). */
    private readonly input: 'i420' | 'h264' = 'i420',
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const s = this.settings;
    const child = spawn(
      this.ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        // Raw pictures need no probing: without these ffmpeg reads its default 5 MB (about 20
        // pictures, 2 s of an unchanged camera) before it encodes the first one. (Not '-fflags
        // nobuffer': with it this ffmpeg held every frame until the next picture came in.)
        '-probesize',
        '32',
        '-analyzeduration',
        '0',
        // Each picture is stamped with the wall-clock time it is taken (setpts from RTCTIME, in a
        // millisecond time base), not with its count: pictures come at the machine's moves, now and
        // then while it stands still, or not at all while the camera is dark, and RTP time must
        // follow real time or the browser's frame timing drifts and freezes.
        ...(this.input === 'h264'
          ? // A publisher's H.264 (Annex B, as it is depacketized): stamped with the time it arrives.
            ['-use_wallclock_as_timestamps', '1', '-f', 'h264', '-i', 'pipe:0', '-an', '-vsync', 'passthrough']
          : [
              '-f',
              'rawvideo',
              '-pix_fmt',
              'yuv420p',
              '-s',
              `${s.width}x${s.height}`,
              '-r',
              '1000',
              '-i',
              'pipe:0',
              '-an',
              '-vsync',
              'passthrough',
              '-vf',
              'setpts=(RTCTIME-RTCSTART)/(TB*1000000)',
            ]),
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-threads',
        '1',
        '-b:v',
        `${s.kbps}k`,
        '-minrate',
        `${s.kbps}k`,
        '-maxrate',
        `${s.kbps}k`,
        '-bufsize',
        `${Math.round(s.kbps / 2)}k`,
        // A keyframe every keyframeSeconds of picture time (the wall clock, see setpts above); -g only
        // bounds the frame count between them.
        '-force_key_frames',
        `expr:gte(t,n_forced*${s.keyframeSeconds})`,
        '-g',
        String(Math.round(s.fps * s.keyframeSeconds * 2)),
        '-lag-in-frames',
        '0',
        '-error-resilient',
        '1',
        '-auto-alt-ref',
        '0',
        '-pix_fmt',
        'yuv420p',
        '-f',
        'ivf',
        '-flush_packets',
        '1',
        'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    // '-nostdin' stops ffmpeg reading keys from the terminal; pictures still come on pipe:0.
    this.process = child;
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, ENCODER_NICE);
      } catch {
        // Not allowed here (a container's limits): the encoder runs at the server's priority.
      }
    }
    const packetizer = new Vp8RtpPacketizer(s.payloadType, RTP_PACKET_BYTES);
    const reader = new IvfReader((frame) => {
      if (this.stopped) return;
      for (const packet of packetizer.packetize(frame)) this.onPacket(packet);
    });
    let errors = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        this.ended(error instanceof Error ? error.message : String(error));
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      errors = (errors + chunk).slice(-500);
    });
    child.stdin?.on('error', () => undefined);
    child.once('error', (error) => this.ended(error.message));
    child.once('exit', (code, signal) =>
      this.ended(errors.trim().split('\n').pop() || `ffmpeg exited (${signal ?? code})`),
    );
    // Started (or failed to start, which ends it through 'error' above).
    await new Promise<void>((resolve) => {
      child.once('spawn', () => resolve());
      child.once('error', () => resolve());
    });
  }

  /**
   * Offers one picture (I420, width × height × 3/2 bytes). While ffmpeg is still taking the previous
   * one, the newest picture waits (one at most: an older waiting one is dropped) and goes as soon
   * as ffmpeg is ready, so the encoder always gets the latest picture without a queue building up.
   */
  write(pixels: Buffer): void {
    const stdin = this.process?.stdin;
    if (this.stopped || !stdin || !stdin.writable) return;
    if (this.busy) {
      this.waiting = pixels;
      return;
    }
    if (!stdin.write(pixels)) {
      this.busy = true;
      stdin.once('drain', () => {
        this.busy = false;
        const next = this.waiting;
        this.waiting = null;
        if (next) this.write(next);
      });
    }
  }

  /**
   * Appends a piece of an H.264 stream (input 'h264'): every byte goes, in order. A transcoder that
   * falls 4 MB behind cannot keep up and ends (its camera goes dark rather than late).
   */
  writeStream(bytes: Buffer): void {
    const stdin = this.process?.stdin;
    if (this.stopped || !stdin || !stdin.writable) return;
    if (stdin.writableLength > 4 * 1024 * 1024) return this.ended('the H.264 transcoder cannot keep up');
    stdin.write(bytes);
  }

  /** The encoder's process id (the benchmark reads its CPU time). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.process?.stdin?.end();
    this.process?.kill('SIGKILL');
    this.process = null;
  }

  private ended(reason: string): void {
    if (this.stopped) return;
    this.stop();
    this.onExit(reason);
  }
}
