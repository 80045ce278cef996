import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { ENCODER_NICE } from '../../media/vp8-encoder';
import { readVp8Descriptor, startsFrame, startsKeyframe } from './vp8-payload';

/** One VP8 picture put back together from its RTP packets. */
export interface Vp8Frame {
  readonly data: Buffer;
  readonly keyframe: boolean;
  /** The RTP timestamp (90 kHz) of its packets. */
  readonly rtpTimestamp: number;
}

/**
 * A camera channel's VP8 packets (from a keyframe on, as a viewer gets them) put back together as
 * whole pictures for a tool that reads a file (the stills' decoder, the HLS encoder, the play
 * recorder). A picture whose packets did not all come is dropped, and after a loss only a keyframe
 * starts again (`onLoss` asks the source for one).
 */
export class Vp8FrameReader {
  private frame: Buffer[] = [];
  private frameTimestamp: number | null = null;
  private frameKey = false;
  private expectedSeq: number | null = null;
  private broken = false;

  constructor(
    private readonly onFrame: (frame: Vp8Frame) => void,
    private readonly onLoss: () => void,
  ) {}

  write(rtp: Buffer): void {
    if (rtp.length < 12) return;
    const seq = rtp.readUInt16BE(2);
    const timestamp = rtp.readUInt32BE(4);
    const marker = (rtp[1]! & 0x80) !== 0;
    const payload = rtpPayload(rtp);
    const descriptor = payload ? readVp8Descriptor(payload) : null;
    if (!payload || !descriptor) return;
    if (this.expectedSeq !== null && seq !== this.expectedSeq) this.broken = true;
    this.expectedSeq = (seq + 1) & 0xffff;
    if (startsFrame(descriptor)) {
      const key = startsKeyframe(payload, descriptor);
      if (this.broken && !key) {
        this.frame = [];
        this.frameTimestamp = null;
        this.onLoss();
        return;
      }
      this.broken = false;
      this.frame = [];
      this.frameTimestamp = timestamp;
      this.frameKey = key;
    }
    if (this.frameTimestamp !== timestamp || this.broken) return;
    this.frame.push(payload.subarray(descriptor.length));
    if (!marker) return;
    const data = Buffer.concat(this.frame);
    this.frame = [];
    this.frameTimestamp = null;
    this.onFrame({ data, keyframe: this.frameKey, rtpTimestamp: timestamp });
  }
}

/** The RTP packet's payload (after the header, its CSRCs and extensions; padding removed). */
export function rtpPayload(rtp: Buffer): Buffer | null {
  const csrcs = rtp[0]! & 0x0f;
  let at = 12 + csrcs * 4;
  if (rtp[0]! & 0x10) {
    if (rtp.length < at + 4) return null;
    at += 4 + rtp.readUInt16BE(at + 2) * 4;
  }
  let end = rtp.length;
  if (rtp[0]! & 0x20) end -= rtp[rtp.length - 1]!;
  return end > at ? rtp.subarray(at, end) : null;
}

/** An IVF file header for VP8 (the size is the decoder's to find; time in milliseconds). */
export function ivfHeader(): Buffer {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'latin1');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(32, 6);
  header.write('VP80', 8, 'latin1');
  header.writeUInt16LE(360, 12);
  header.writeUInt16LE(480, 14);
  header.writeUInt32LE(1000, 16);
  header.writeUInt32LE(1, 20);
  return header;
}

/** One IVF frame: its size, its time in milliseconds, and the VP8 data. */
export function ivfFrame(data: Buffer, ms: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt32LE(data.length, 0);
  header.writeBigUInt64LE(BigInt(Math.max(0, Math.round(ms))), 4);
  return Buffer.concat([header, data]);
}

/**
 * RTP timestamps (90 kHz, wrapping at 2^32) as milliseconds from the first frame, never going back
 * (a file's times must grow: a publisher change may restart its clock).
 */
export class RtpClock {
  private lastRtp: number | null = null;
  private lastMs = 0;

  ms(rtpTimestamp: number): number {
    if (this.lastRtp !== null) {
      const step = (rtpTimestamp - this.lastRtp) | 0;
      // Backwards, or a jump of over 10 s: a new source, whose time goes on one frame later.
      this.lastMs += step > 0 && step <= 90_000 * 10 ? step / 90 : 33;
    }
    this.lastRtp = rtpTimestamp;
    return this.lastMs;
  }
}

/**
 * An ffmpeg child for a camera's video (stills, HLS, recordings): niced below the server, its
 * stdin errors (a tool that quit) ignored. stdout is piped unless the tool writes files itself.
 */
export function spawnMediaTool(
  ffmpeg: string,
  args: readonly string[],
  stdout: 'pipe' | 'ignore' = 'pipe',
): ChildProcess {
  const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
    stdio: ['pipe', stdout, 'ignore'],
  });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, ENCODER_NICE);
    } catch {
      // Not allowed here: it runs at the server's priority.
    }
  }
  child.stdin?.on('error', () => undefined);
  return child;
}
