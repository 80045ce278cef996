import { describe, expect, it } from 'vitest';
import { HOLD_MS, LlHlsStream } from '../../server/live/ll-hls';
import { Mp4BoxSplitter, readFragment, videoTimescale } from '../../server/live/fmp4';
import { CameraChannel } from '../../server/live/camera-channel';
import { CameraHls, HLS_IDLE_MS } from '../../server/live/camera-hls';
import { locateFfmpeg } from '../../media/vp8-encoder';
import { ManualServerClock } from '../support/manual-server-clock';

const part = (independent: boolean, byte = 0) => ({ data: Buffer.from([byte]), durationS: 0.5, independent });
/** n seconds of parts as the encoder makes them: 0.5 s each, a keyframe every second. */
function feed(stream: LlHlsStream, seconds: number, from = 0) {
  for (let i = 0; i < seconds * 2; i += 1) stream.addPart(part((from + i) % 2 === 0, from + i));
}

describe('LL-HLS stream (the pure part: parts, segments, the playlist, held requests)', () => {
  it('groups half-second parts into two-second segments that start at a keyframe; parts before the first keyframe are not listed', () => {
    const stream = new LlHlsStream('abcd0123', new ManualServerClock(new Date('2026-11-29T10:00:00Z')));
    stream.addPart(part(false, 99));
    expect(stream.window).toEqual([]);
    feed(stream, 4.5);
    expect(stream.window).toEqual([
      { msn: 0, parts: 4, complete: true },
      { msn: 1, parts: 4, complete: true },
      { msn: 2, parts: 1, complete: false },
    ]);
    expect(stream.media({ msn: 0, part: null })).toEqual(Buffer.from([0, 1, 2, 3]));
    expect(stream.media({ msn: 2, part: 0 })).toEqual(Buffer.from([8]));
    expect(stream.media({ msn: 2, part: null })).toBeNull();
    const text = stream.playlist();
    expect(text).toContain('#EXT-X-MAP:URI="abcd0123-init.mp4"');
    expect(text).toContain('#EXTINF:2.00000,\nabcd0123-1.m4s');
    expect(text).toContain('#EXT-X-PART:DURATION=0.50000,URI="abcd0123-2.0.m4s",INDEPENDENT=YES');
    expect(text.trim().split('\n').at(-1)).toBe('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="abcd0123-2.1.m4s"');
    expect(stream.isUpcoming({ msn: 2, part: 1 })).toBe(true);
    expect(stream.isUpcoming({ msn: 2, part: 2 })).toBe(false);
  });

  it("at a segment long enough to close, the preload hint names the next segment's first part (the keyframe part that closes it), never a part of this one that will not come; a held request for it is answered when it comes", async () => {
    const stream = new LlHlsStream('abcd0123', new ManualServerClock(new Date('2026-11-29T10:00:00Z')));
    feed(stream, 4);
    expect(stream.window.at(-1)).toEqual({ msn: 1, parts: 4, complete: false });
    expect(stream.playlist().trim().split('\n').at(-1)).toBe('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="abcd0123-2.0.m4s"');
    expect([stream.isUpcoming({ msn: 2, part: 0 }), stream.isUpcoming({ msn: 1, part: 4 })]).toEqual([true, false]);
    const held = stream.waitUntil(() => stream.media({ msn: 2, part: 0 }) !== null);
    stream.addPart(part(true, 42));
    expect(await held).toBe(true);
    expect(stream.media({ msn: 2, part: 0 })).toEqual(Buffer.from([42]));
  });

  it('keeps a window of six segments and lists parts only for those that end within three target durations of the live edge', () => {
    const stream = new LlHlsStream('abcd0123', new ManualServerClock());
    feed(stream, 20.5);
    expect(stream.window.map((s) => s.msn)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    const text = stream.playlist();
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:4');
    expect(stream.media({ msn: 3, part: null })).toBeNull();
    const partsOf = (msn: number) => (text.match(new RegExp(`#EXT-X-PART:.*-${msn}\\.\\d\\.m4s`, 'g')) ?? []).length;
    // Segments 7 to 10 end within 6 s of the edge (10 has its first part so far).
    expect([4, 5, 6, 7, 8, 9, 10].map(partsOf)).toEqual([0, 0, 0, 4, 4, 4, 1]);
  });

  it('a blocking reload is held until its part (or a later one) exists, refused when too far ahead, and answered false after three target durations or when the stream ends', async () => {
    const clock = new ManualServerClock();
    const stream = new LlHlsStream('abcd0123', clock);
    feed(stream, 2.5);
    expect(stream.has({ msn: 1, part: 0 })).toBe(true);
    expect(stream.has({ msn: 1, part: 1 })).toBe(false);
    expect(stream.has({ msn: 0, part: 7 })).toBe(true);
    expect(stream.has({ msn: 1, part: null })).toBe(false);
    expect(stream.tooFarAhead({ msn: 2, part: 0 })).toBe(false);
    expect(stream.tooFarAhead({ msn: 3, part: 0 })).toBe(true);

    const held = stream.waitUntil(() => stream.has({ msn: 1, part: 2 }));
    expect(stream.held).toBe(1);
    stream.addPart(part(false));
    expect(stream.held).toBe(1);
    stream.addPart(part(true));
    await expect(held).resolves.toBe(true);
    expect(stream.held).toBe(0);

    const late = stream.waitUntil(() => stream.has({ msn: 5, part: 0 }));
    clock.advance(HOLD_MS - 1);
    expect(stream.held).toBe(1);
    clock.advance(1);
    await expect(late).resolves.toBe(false);

    const ending = stream.waitUntil(() => stream.has({ msn: 5, part: 0 }));
    stream.end();
    await expect(ending).resolves.toBe(false);
    expect(stream.playlist()).not.toContain('PRELOAD-HINT');
  });
});

/** A box: size, type, body. */
const box = (type: string, ...body: Buffer[]) => {
  const payload = Buffer.concat(body);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
};
const u32 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
};

describe('fragmented MP4, read just enough to cut parts', () => {
  it('splits a byte stream into top-level boxes across any chunking, and refuses what is not MP4', () => {
    const stream = Buffer.concat([
      box('ftyp', Buffer.from('isom')),
      box('moof', u32(1, 2)),
      box('mdat', Buffer.alloc(5)),
    ]);
    for (const cut of [1, 7, 8, 13, 20, stream.length - 1]) {
      const splitter = new Mp4BoxSplitter();
      const boxes = [...splitter.push(stream.subarray(0, cut)), ...splitter.push(stream.subarray(cut))];
      expect(boxes.map((b) => [b.type, b.bytes.length])).toEqual([
        ['ftyp', 12],
        ['moof', 16],
        ['mdat', 13],
      ]);
    }
    expect(() => new Mp4BoxSplitter().push(Buffer.from('<html><body>503</body></html>'))).toThrow(/not an MP4 box/);
  });

  it("reads a fragment's decode time, duration and whether it starts at a keyframe; the track's timescale from its moov", () => {
    const tfhd = box('tfhd', u32(0x020028, 1, 3000, 0x10000)); // default duration 3000, default flags non-sync
    const tfdt = box('tfdt', Buffer.concat([Buffer.from([1, 0, 0, 0]), Buffer.from([0, 0, 0, 0, 0, 1, 0x5f, 0x90])]));
    const keyFirst = box('trun', u32(0x000005, 15, 100, 0x02000000)); // data offset, first sample flags: sync
    const moof = box('moof', box('mfhd', u32(0, 1)), box('traf', tfhd, tfdt, keyFirst));
    expect(readFragment(moof)).toEqual({ decodeTime: 90_000, duration: 45_000, independent: true });
    const noFirst = box('trun', u32(0x000001, 15, 100));
    expect(readFragment(box('moof', box('traf', tfhd, tfdt, noFirst)))).toMatchObject({ independent: false });
    const perSample = box('trun', u32(0x000500, 2, 1500, 0x02000000, 1500, 0x01010000));
    expect(readFragment(box('moof', box('traf', tfhd, tfdt, perSample)))).toEqual({
      decodeTime: 90_000,
      duration: 3000,
      independent: true,
    });
    expect(readFragment(box('moof', box('traf', tfhd)))).toBeNull();
    const mdhd = box('mdhd', u32(0, 0, 0, 90_000, 0, 0));
    expect(videoTimescale(box('moov', box('mvhd', u32(0)), box('trak', box('tkhd', u32(0)), box('mdia', mdhd))))).toBe(
      90_000,
    );
  });
});

describe("a camera's HLS encoder runs while it is asked for", () => {
  it('starts one encoder per camera at the first ask (however many ask), joins the channel as an hls tool (not a viewer), and stops it ten seconds after the last ask', async () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const hls = new CameraHls(() => channel, locateFfmpeg(), clock);
    try {
      const first = hls.stream(1, 'front');
      expect(hls.stream(1, 'front')).toBe(first);
      expect(hls.running()).toEqual([
        { stationId: 1, camera: 'front', mode: 'encode', pid: expect.any(Number), held: 0 },
      ]);
      const pid = hls.running()[0]!.pid!;
      await expect.poll(() => channel.running('hls')).toBe(true);
      expect(channel.viewerCount).toBe(0);
      clock.advance(HLS_IDLE_MS - 2_000);
      hls.stream(1, 'front');
      clock.advance(HLS_IDLE_MS - 1_000);
      expect(hls.running()).toHaveLength(1);
      clock.advance(1_000);
      expect(hls.running()).toEqual([]);
      expect(channel.running('hls')).toBe(false);
      await expect.poll(() => alive(pid)).toBe(false);
      // A stream that ended answers its held asks at once.
      await expect(first!.waitUntil(() => false)).resolves.toBe(false);
    } finally {
      hls.close();
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
