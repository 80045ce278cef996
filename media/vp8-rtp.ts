import { RtpHeader, RtpPacket } from 'werift';

/** One encoded VP8 frame out of the encoder, with its time in seconds since the encoder started. */
export interface Vp8Frame {
  readonly data: Buffer;
  readonly seconds: number;
  readonly keyframe: boolean;
}

const IVF_FILE_HEADER = 32;
const IVF_FRAME_HEADER = 12;

/**
 * Reads the IVF stream ffmpeg writes to its stdout (a 32-byte file header, then each frame as a
 * 12-byte header — size, 64-bit timestamp — and its data), in chunks cut anywhere, and hands out
 * each whole frame as soon as its last byte is in.
 *
 * Why IVF and not ffmpeg's own RTP output (what the server used first): ffmpeg's VP8 packetizer
 * numbers pictures with 7-bit ids, which Chromium reads as 15-bit ones, so the video froze every
 * 128 frames until each packet's id was rewritten on its way through; and its packets came over a
 * loopback UDP socket whose buffer a keyframe's burst could overflow. Packetizing here numbers
 * picture ids with 15 bits from the start and hands frames over through a pipe, which loses
 * nothing (docs/live-feed.md).
 */
export class IvfReader {
  private buffered: Buffer = Buffer.alloc(0);
  private timeBase: { num: number; den: number } | null = null;

  constructor(private readonly onFrame: (frame: Vp8Frame) => void) {}

  /** Takes the next chunk of the stream. Throws on a stream that is not IVF. */
  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.timeBase) {
      if (this.buffered.length < IVF_FILE_HEADER) return;
      if (this.buffered.toString('latin1', 0, 4) !== 'DKIF') throw new Error('the encoder did not write IVF');
      const headerBytes = this.buffered.readUInt16LE(6);
      // The time base: a rate (denominator) and a scale (numerator), timestamps count scale/rate seconds.
      this.timeBase = { den: this.buffered.readUInt32LE(16), num: this.buffered.readUInt32LE(20) };
      if (this.timeBase.den === 0 || this.timeBase.num === 0) throw new Error('the IVF stream has no time base');
      this.buffered = this.buffered.subarray(Math.max(IVF_FILE_HEADER, headerBytes));
    }
    while (this.buffered.length >= IVF_FRAME_HEADER) {
      const size = this.buffered.readUInt32LE(0);
      if (this.buffered.length < IVF_FRAME_HEADER + size) return;
      const pts = Number(this.buffered.readBigUInt64LE(4));
      // A copy: the rest of the chunk is released as soon as the frame is packetized.
      const data = Buffer.from(this.buffered.subarray(IVF_FRAME_HEADER, IVF_FRAME_HEADER + size));
      this.buffered = this.buffered.subarray(IVF_FRAME_HEADER + size);
      // VP8 frame tag (RFC 6386 9.1): bit 0 of the first byte is 0 on a keyframe.
      if (size > 0)
        this.onFrame({
          data,
          seconds: (pts * this.timeBase.num) / this.timeBase.den,
          keyframe: (data[0]! & 0x01) === 0,
        });
    }
  }
}

/** RTP's video clock: 90 kHz. */
const RTP_CLOCK = 90_000;
/** Bytes of the VP8 payload descriptor written here: X, then I, then a 15-bit picture id. */
const DESCRIPTOR_BYTES = 4;
const RTP_HEADER_BYTES = 12;

/**
 * Cuts VP8 frames into RTP packets (RFC 7741): each packet's payload starts with the descriptor
 * X=1 (S on the frame's first packet, partition 0), I=1 and a 15-bit picture id (M=1) counting up
 * by one per frame and wrapping at 32 768; the frame's last packet carries the marker bit; every
 * packet of a frame has the frame's RTP time. One per encoder: sequence numbers and picture ids
 * count on across its frames (the sending peer connections offset them per viewer).
 */
export class Vp8RtpPacketizer {
  private sequenceNumber = Math.floor(Math.random() * 0x10000);
  private pictureId = Math.floor(Math.random() * 0x8000);
  private readonly timestampBase = Math.floor(Math.random() * 0x1_0000_0000);

  constructor(
    private readonly payloadType: number,
    /** Largest RTP packet made (header + descriptor + data), before the sender's header extensions. */
    private readonly maxPacketBytes: number,
    private readonly ssrc = Math.floor(Math.random() * 0x1_0000_0000),
  ) {
    if (maxPacketBytes <= RTP_HEADER_BYTES + DESCRIPTOR_BYTES) throw new Error('RTP packets too small for VP8');
  }

  packetize(frame: Vp8Frame): RtpPacket[] {
    const room = this.maxPacketBytes - RTP_HEADER_BYTES - DESCRIPTOR_BYTES;
    const count = Math.max(1, Math.ceil(frame.data.length / room));
    const timestamp = (this.timestampBase + Math.round(frame.seconds * RTP_CLOCK)) % 0x1_0000_0000;
    const packets: RtpPacket[] = [];
    for (let i = 0; i < count; i += 1) {
      const descriptor = Buffer.from([
        i === 0 ? 0x90 : 0x80,
        0x80,
        0x80 | (this.pictureId >> 8),
        this.pictureId & 0xff,
      ]);
      const header = new RtpHeader({
        payloadType: this.payloadType,
        sequenceNumber: this.sequenceNumber,
        timestamp,
        ssrc: this.ssrc,
        marker: i === count - 1,
      });
      this.sequenceNumber = (this.sequenceNumber + 1) & 0xffff;
      packets.push(new RtpPacket(header, Buffer.concat([descriptor, frame.data.subarray(i * room, (i + 1) * room)])));
    }
    this.pictureId = (this.pictureId + 1) & 0x7fff;
    return packets;
  }
}
