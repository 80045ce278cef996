import type { ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import type { Clock } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel, CameraViewer } from '../live/camera-channel';
import { ivfFrame, RtpClock, spawnMediaTool, Vp8FrameReader } from '../live/vp8-frames';

/** A recorder whose ffmpeg has not ended this long after its input closed is killed. */
const EXIT_WAIT_MS = 10_000;
/** Bytes waiting in ffmpeg's stdin past which pictures are dropped until the next keyframe. */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/** What one camera's recording came to. */
export interface CameraRecording {
  readonly camera: CameraName;
  readonly file: string;
  /** Pictures written (0: nothing came, no file). */
  readonly frames: number;
  readonly bytes: number;
  /** From the first picture to the last, plus one picture's time. */
  readonly durationMs: number;
  /** ffmpeg's user + system CPU time (Linux /proc; null elsewhere or without a process). */
  readonly cpuMs: number | null;
  /** Wall time from ffmpeg's start to the end of its input. */
  readonly wallMs: number;
  /** Why the file is missing or short, or null. */
  readonly error: string | null;
}

/** A VP8 keyframe's picture size (RFC 6386 §9.1), or null. */
export function vp8KeyframeSize(frame: Buffer): { width: number; height: number } | null {
  if (frame.length < 10 || (frame[0]! & 1) !== 0) return null;
  if (frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a) return null;
  return { width: frame.readUInt16LE(6) & 0x3fff, height: frame.readUInt16LE(8) & 0x3fff };
}

/** An IVF header for VP8 of the given size, time in milliseconds. */
function ivfHeaderOf(size: { width: number; height: number }): Buffer {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'latin1');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(32, 6);
  header.write('VP80', 8, 'latin1');
  header.writeUInt16LE(size.width, 12);
  header.writeUInt16LE(size.height, 14);
  header.writeUInt32LE(1000, 16);
  header.writeUInt32LE(1, 20);
  return header;
}

/** ffmpeg's user + system time so far, from /proc (Linux), in milliseconds; null when unreadable. */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The fields after the command name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name), in clock ticks
    // (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * One camera of a play's clip (docs/clips.md): joins the camera's channel as a 'recording' viewer
 * (it gets the packets from a keyframe on, and goes on getting them while the station is down),
 * puts the VP8 pictures back together and pipes them as IVF, timed by their RTP timestamps, into
 * one ffmpeg that remuxes them into a WebM file (`-c copy`: nothing is decoded or encoded). ffmpeg
 * starts with the first keyframe: a camera that sends nothing costs no process and leaves no file.
 */
export class CameraRecorder implements CameraViewer {
  readonly kind = 'recording';
  private process: ChildProcess | null = null;
  private readonly frames: Vp8FrameReader;
  private readonly time = new RtpClock();
  private firstMs: number | null = null;
  private lastMs = 0;
  private frameCount = 0;
  private waitKeyframe = false;
  private startedAt = 0;
  private stopping: Promise<CameraRecording> | null = null;
  private exited: Promise<number | null> | null = null;
  private error: string | null = null;

  constructor(
    private readonly channel: CameraChannel,
    readonly camera: CameraName,
    private readonly ffmpeg: string,
    private readonly file: string,
    private readonly clock: Clock,
  ) {
    this.frames = new Vp8FrameReader(
      (frame) => this.frame(frame.data, frame.keyframe, frame.rtpTimestamp),
      () => this.channel.keyframeWanted(),
    );
    void channel.join(this);
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get running(): boolean {
    return this.stopping === null;
  }

  write(rtp: Buffer): void {
    if (this.stopping === null) this.frames.write(rtp);
  }

  onLive(): void {}

  onFailed(reason: string): void {
    // The camera's source failed for good: what was recorded stays.
    this.error ??= reason;
    void this.stop();
  }

  private frame(data: Buffer, keyframe: boolean, rtpTimestamp: number): void {
    if (!this.process) {
      const size = keyframe ? vp8KeyframeSize(data) : null;
      if (!size) return;
      this.startedAt = this.clock.now().getTime();
      const child = spawnMediaTool(
        this.ffmpeg,
        [
          ...['-probesize', '32', '-analyzeduration', '0'],
          ...['-f', 'ivf', '-i', 'pipe:0', '-an', '-c:v', 'copy', '-f', 'webm', '-y', this.file],
        ],
        'ignore',
      );
      this.process = child;
      this.exited = new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.once('error', (error) => {
          this.error ??= `ffmpeg: ${error.message}`;
          resolve(null);
        });
      });
      child.stdin?.write(ivfHeaderOf(size));
    }
    const stdin = this.process.stdin;
    if (!stdin?.writable) return;
    if (this.waitKeyframe && !keyframe) return;
    if (stdin.writableLength > MAX_PENDING_BYTES) {
      // ffmpeg cannot keep up (a core starved for long): the pictures wait for the next keyframe.
      this.waitKeyframe = true;
      this.channel.keyframeWanted();
      return;
    }
    this.waitKeyframe = false;
    const ms = this.time.ms(rtpTimestamp);
    this.firstMs ??= ms;
    this.lastMs = ms;
    this.frameCount += 1;
    stdin.write(ivfFrame(data, ms));
  }

  /** Leaves the channel, ends ffmpeg's input and waits for the file to be finished. */
  stop(): Promise<CameraRecording> {
    this.stopping ??= this.finish();
    return this.stopping;
  }

  private async finish(): Promise<CameraRecording> {
    this.channel.leave(this);
    const child = this.process;
    const cpuMs = processCpuMs(child?.pid);
    const wallMs = child ? this.clock.now().getTime() - this.startedAt : 0;
    let code: number | null = null;
    if (child && this.exited) {
      child.stdin?.end();
      let timer: { cancel(): void } | null = null;
      code = await Promise.race([
        this.exited,
        new Promise<number | null>((resolve) => {
          timer = this.clock.setTimeout(() => {
            child.kill('SIGKILL');
            resolve(null);
          }, EXIT_WAIT_MS);
        }),
      ]);
      (timer as { cancel(): void } | null)?.cancel();
      if (code !== 0) this.error ??= `ffmpeg ended with ${code === null ? 'no exit code' : `code ${code}`}`;
    }
    let bytes = 0;
    if (child && code === 0) {
      try {
        bytes = statSync(this.file).size;
      } catch {
        this.error ??= 'no file written';
      }
    }
    const frameMs = this.frameCount > 1 ? (this.lastMs - (this.firstMs ?? 0)) / (this.frameCount - 1) : 0;
    const ok = code === 0 && bytes > 0 && this.frameCount > 0;
    return {
      camera: this.camera,
      file: this.file,
      frames: ok ? this.frameCount : 0,
      bytes: ok ? bytes : 0,
      durationMs: ok ? Math.round(this.lastMs - (this.firstMs ?? 0) + frameMs) : 0,
      cpuMs,
      wallMs,
      error: ok ? this.error : (this.error ?? 'no video'),
    };
  }
}
