import { describe, expect, it } from 'vitest';
import { Vp8PictureIds } from '../../server/live/vp8-picture-id';

/** A VP8 payload as ffmpeg packetizes it: X=1 (S on a frame's first packet), I=1, a 7-bit picture id, then the VP8 data. */
const ffmpegPayload = (pictureId: number, first = true, data = [0x10, 0x02, 0x00]) => Buffer.from([first ? 0x90 : 0x80, 0x80, pictureId & 0x7f, ...data]);
/** The 15-bit picture id of a payload (M bit set), or null when it has a 7-bit one or none. */
const wideId = (payload: Buffer) => ((payload[2]! & 0x80) === 0 ? null : ((payload[2]! & 0x7f) << 8) | payload[3]!);

describe('VP8 picture ids widened from 7 to 15 bits (Chromium reads 0 after 127 as an old frame and drops delta frames until a keyframe)', () => {
  it('counts on across the 7-bit wrap, keeps the descriptor bits and the data after it', () => {
    const ids = new Vp8PictureIds();
    const seen: (number | null)[] = [];
    for (let frame = 120; frame < 260; frame += 1) {
      const first = ids.widen(ffmpegPayload(frame, true));
      const second = ids.widen(ffmpegPayload(frame, false)); // a frame's later packet carries the same id
      expect(wideId(second)).toBe(wideId(first));
      expect(first.subarray(0, 2)).toEqual(Buffer.from([0x90, 0x80]));
      expect(second[0]).toBe(0x80);
      expect(first.subarray(4)).toEqual(Buffer.from([0x10, 0x02, 0x00]));
      seen.push(wideId(first));
    }
    expect(seen).toEqual(Array.from({ length: 140 }, (_, i) => 120 + i));
  });

  it('a frame that never came (skipped by the encoder, or lost) moves the id on by as many', () => {
    const ids = new Vp8PictureIds();
    expect(wideId(ids.widen(ffmpegPayload(126)))).toBe(126);
    expect(wideId(ids.widen(ffmpegPayload(1)))).toBe(129);
  });

  it('wraps at 15 bits, as RFC 7741 and Chromium count', () => {
    const ids = new Vp8PictureIds();
    let last = 0;
    for (let frame = 0; frame <= 32_768; frame += 1) last = wideId(ids.widen(ffmpegPayload(frame)))!;
    expect(last).toBe(0);
  });

  it('leaves a payload without a picture id, or with a 15-bit one, as it is', () => {
    const ids = new Vp8PictureIds();
    const plain = Buffer.from([0x10, 0x10, 0x02, 0x00]); // no extension bits
    const noPictureId = Buffer.from([0x90, 0x40, 0x05, 0x10]); // X=1, L=1 (TL0PICIDX only)
    const wide = Buffer.from([0x90, 0x80, 0x81, 0x23, 0x10]);
    expect(ids.widen(plain)).toBe(plain);
    expect(ids.widen(noPictureId)).toBe(noPictureId);
    expect(ids.widen(wide)).toBe(wide);
    expect(ids.widen(Buffer.from([0x90, 0x80]))).toEqual(Buffer.from([0x90, 0x80]));
  });
});
