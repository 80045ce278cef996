import { spawn, type ChildProcess } from 'node:child_process';
import { RtpHeader, RtpPacket } from 'werift';
import { locateFfmpeg } from '../../media/vp8-encoder';
import { IvfReader, Vp8RtpPacketizer } from '../../media/vp8-rtp';
import { WhipSession } from '../../media/whip-client';

/**
 * A camera for tests: ffmpeg's moving test pattern (testsrc), encoded VP8 (libvpx) or H.264
 * (libx264), packetized and published over WHIP with the project's werift client. Counts the
 * keyframe requests the endpoint sends. `pause()` stops sending without ending the session (a
 * network cut as the server sees it); `resume()` sends again.
 */
export class TestPatternPublisher {
  keyframeRequests = 0;
  packets = 0;
  private paused = false;
  private constructor(
    readonly session: WhipSession,
    private readonly encoder: ChildProcess,
  ) {}

  static async start(
    endpoint: string,
    token: string,
    options: {
      codec?: 'VP8' | 'H264';
      keyframeSeconds?: number;
      /** The picture's size (default 320x240) and the encoder's bitrate (default 500 kbit/s). */
      size?: string;
      kbps?: number;
      /** Each packet as it is sent (the ingest benchmark times frames with it). */
      onSent?: (packet: RtpPacket) => void;
    } = {},
  ): Promise<TestPatternPublisher> {
    const codec = options.codec ?? 'VP8';
    const session = await WhipSession.publish({ endpoint, token, codec, iceHosts: ['127.0.0.1'] });
    const ffmpeg = locateFfmpeg();
    if (!ffmpeg) throw new Error('no ffmpeg');
    const keyframeSeconds = options.keyframeSeconds ?? 1;
    const encoder = spawn(
      ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
        ...['-f', 'lavfi', '-i', `testsrc=size=${options.size ?? '320x240'}:rate=30`],
        ...(codec === 'VP8'
          ? [
              '-c:v',
              'libvpx',
              '-deadline',
              'realtime',
              '-cpu-used',
              '8',
              '-b:v',
              `${options.kbps ?? 500}k`,
              '-lag-in-frames',
              '0',
            ]
          : ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline']),
        ...['-g', String(Math.round(30 * keyframeSeconds)), '-pix_fmt', 'yuv420p'],
        ...(codec === 'VP8' ? ['-f', 'ivf'] : ['-x264-params', 'aud=1:slices=1', '-f', 'h264']),
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const publisher = new TestPatternPublisher(session, encoder);
    session.onKeyframeRequest = () => (publisher.keyframeRequests += 1);
    const send = (packet: RtpPacket) => {
      if (publisher.paused || session.isStopped) return;
      publisher.packets += 1;
      options.onSent?.(packet);
      session.write(packet);
    };
    if (codec === 'VP8') {
      const packetizer = new Vp8RtpPacketizer(96, 1100);
      const reader = new IvfReader((frame) => packetizer.packetize(frame).forEach(send));
      encoder.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
    } else {
      const packetizer = new H264Packetizer();
      encoder.stdout!.on('data', (chunk: Buffer) => packetizer.push(chunk).forEach(send));
    }
    return publisher;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  async stop(): Promise<void> {
    this.encoder.kill('SIGKILL');
    await this.session.stop();
  }
}

/**
 * H.264 Annex B (one slice per frame, an access unit delimiter before each) cut into RTP packets
 * (RFC 6184 mode 1: single NAL units, FU-A fragments), stamped with the time each frame is read.
 */
class H264Packetizer {
  private buffered = Buffer.alloc(0);
  private seq = 1000;
  private readonly ssrc = 0x1234_5678;
  private readonly started = performance.now();
  private timestamp = 0;

  push(chunk: Buffer): RtpPacket[] {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const packets: RtpPacket[] = [];
    for (;;) {
      const first = this.buffered.indexOf(START);
      if (first < 0) return packets;
      const next = this.buffered.indexOf(START, first + 3);
      if (next < 0) return packets;
      let nal = this.buffered.subarray(first + 3, next);
      if (nal.at(-1) === 0) nal = nal.subarray(0, nal.length - 1); // a 4-byte start code's leading zero
      this.buffered = this.buffered.subarray(next);
      packets.push(...this.packetize(nal));
    }
  }

  private packetize(nal: Buffer): RtpPacket[] {
    const type = nal[0]! & 0x1f;
    if (type === 9) {
      this.timestamp = Math.round((performance.now() - this.started) * 90);
      return [];
    }
    const last = type === 1 || type === 5;
    const header = (marker: boolean) =>
      new RtpHeader({
        payloadType: 102,
        sequenceNumber: this.seq++ & 0xffff,
        timestamp: this.timestamp,
        ssrc: this.ssrc,
        marker,
      });
    if (nal.length <= 1100) return [new RtpPacket(header(last), nal)];
    const packets: RtpPacket[] = [];
    const body = nal.subarray(1);
    for (let at = 0; at < body.length; at += 1100) {
      const start = at === 0;
      const end = at + 1100 >= body.length;
      const fu = Buffer.from([(nal[0]! & 0xe0) | 28, (start ? 0x80 : 0) | (end ? 0x40 : 0) | type]);
      packets.push(new RtpPacket(header(end && last), Buffer.concat([fu, body.subarray(at, at + 1100)])));
    }
    return packets;
  }
}

const START = Buffer.from([0, 0, 1]);
