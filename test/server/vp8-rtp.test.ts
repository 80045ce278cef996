import { describe, expect, it } from 'vitest';
import { IvfReader, Vp8RtpPacketizer, type Vp8Frame } from '../../media/vp8-rtp';
import { VP8_SETTINGS } from '../../media/vp8-encoder';
import { VIDEO_FRAME } from '../../media/cameras/camera-renderer';

/** An IVF stream as ffmpeg writes it: the 32-byte file header (time base 1/1000), then each frame's 12-byte header and data. */
function ivf(frames: { data: Buffer; pts: number }[]): Buffer {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'latin1');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(32, 6);
  header.write('VP80', 8, 'latin1');
  header.writeUInt16LE(360, 12);
  header.writeUInt16LE(480, 14);
  header.writeUInt32LE(1000, 16);
  header.writeUInt32LE(1, 20);
  return Buffer.concat([
    header,
    ...frames.map(({ data, pts }) => {
      const h = Buffer.alloc(12);
      h.writeUInt32LE(data.length, 0);
      h.writeBigUInt64LE(BigInt(pts), 4);
      return Buffer.concat([h, data]);
    }),
  ]);
}
/** A VP8 frame's first bytes: bit 0 of the tag is 0 on a keyframe. */
const frameData = (length: number, keyframe: boolean, fill: number) =>
  Buffer.alloc(length, fill).fill(keyframe ? 0x10 : 0x11, 0, 1);

/** The 15-bit picture id of a payload written by the packetizer (X, I, M set). */
const pictureId = (payload: Buffer) => ((payload[2]! & 0x7f) << 8) | payload[3]!;

describe("the encoder's IVF output read frame by frame, and VP8 cut into RTP packets (RFC 7741)", () => {
  it('reads whole frames with their time and keyframe flag, however the stream is cut into chunks', () => {
    const stream = ivf([
      { data: frameData(3000, true, 1), pts: 0 },
      { data: frameData(10, false, 2), pts: 50 },
      { data: frameData(700, false, 3), pts: 1250 },
    ]);
    for (const cut of [1, 7, 12, 31, 33, 500, stream.length]) {
      const frames: Vp8Frame[] = [];
      const reader = new IvfReader((f) => frames.push(f));
      for (let at = 0; at < stream.length; at += cut) reader.push(stream.subarray(at, at + cut));
      expect(frames.map((f) => [f.data.length, f.seconds, f.keyframe, f.data[1]])).toEqual([
        [3000, 0, true, 1],
        [10, 0.05, false, 2],
        [700, 1.25, false, 3],
      ]);
    }
  });

  it('hands out a frame as soon as its last byte is in, not when the next one starts', () => {
    const frames: Vp8Frame[] = [];
    const reader = new IvfReader((f) => frames.push(f));
    const stream = ivf([{ data: frameData(100, true, 1), pts: 0 }]);
    reader.push(stream.subarray(0, stream.length - 1));
    expect(frames).toHaveLength(0);
    reader.push(stream.subarray(stream.length - 1));
    expect(frames).toHaveLength(1);
  });

  it('refuses a stream that is not IVF', () => {
    const reader = new IvfReader(() => undefined);
    expect(() => reader.push(Buffer.alloc(40, 0x41))).toThrow(/IVF/);
  });

  it('cuts a frame into packets no larger than asked: S and partition 0 on the first, the marker on the last, one RTP time, consecutive sequence numbers', () => {
    const packetizer = new Vp8RtpPacketizer(96, 1100, 0x1234);
    const data = frameData(2500, true, 7);
    const packets = packetizer.packetize({ data, seconds: 0.5, keyframe: true });
    expect(packets).toHaveLength(3);
    for (const [i, p] of packets.entries()) {
      expect(p.serialize().length).toBeLessThanOrEqual(1100);
      expect(p.header.payloadType).toBe(96);
      expect(p.header.ssrc).toBe(0x1234);
      expect(p.header.marker).toBe(i === 2);
      expect(p.payload[0]).toBe(i === 0 ? 0x90 : 0x80);
      expect(p.payload[1]).toBe(0x80);
      expect(p.payload[2]! & 0x80).toBe(0x80);
      expect(p.header.timestamp).toBe(packets[0]!.header.timestamp);
      expect(p.header.sequenceNumber).toBe((packets[0]!.header.sequenceNumber + i) & 0xffff);
    }
    // The frame's bytes, in order, after each 4-byte descriptor.
    expect(Buffer.concat(packets.map((p) => p.payload.subarray(4)))).toEqual(data);
  });

  it("picture ids count up by one per frame and wrap at 15 bits (Chromium reads them as 15-bit); RTP time follows the frames' time at 90 kHz", () => {
    const packetizer = new Vp8RtpPacketizer(96, 1100);
    const first = packetizer.packetize({ data: frameData(10, true, 1), seconds: 0, keyframe: true })[0]!;
    const ids = [pictureId(first.payload)];
    let last = first;
    for (let n = 1; n <= 32_768; n += 1) {
      last = packetizer.packetize({ data: frameData(10, false, 1), seconds: n * 0.05, keyframe: false })[0]!;
      if (n < 200) ids.push(pictureId(last.payload));
    }
    expect(ids.slice(1).map((id, i) => (id - ids[i]! + 0x8000) % 0x8000)).toEqual(Array(199).fill(1));
    // 32 768 frames later the id is back where it began.
    expect(pictureId(last.payload)).toBe(pictureId(first.payload));
    const second = packetizer.packetize({
      data: frameData(10, false, 1),
      seconds: 32_769 * 0.05 + 0.1,
      keyframe: false,
    })[0]!;
    expect((second.header.timestamp - last.header.timestamp + 2 ** 32) % 2 ** 32).toBe(0.15 * 90_000);
  });
});

describe('the shared encoder settings', () => {
  it('[R9-10] encode the painter’s picture size: portrait 360×480, the camera mounted sideways', () => {
    expect({ width: VP8_SETTINGS.width, height: VP8_SETTINGS.height }).toEqual(VIDEO_FRAME);
  });
});
