import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { locateFfmpeg } from '../../media/vp8-encoder';
import { readServerConfig } from '../../server/config';
import { CameraChannel, type AccessUnitTap, type CameraSource } from '../../server/live/camera-channel';
import { CameraHls } from '../../server/live/camera-hls';
import { Mp4BoxSplitter, readFragment } from '../../server/live/fmp4';
import { H264HlsRemuxer } from '../../server/live/h264-hls-remuxer';
import { H264AccessUnits, type AccessUnit } from '../../server/live/h264-rtp';
import { readSps } from '../../server/live/h264-cmaf';
import { LlHlsStream } from '../../server/live/ll-hls';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * The remuxer of a publisher's H.264 into the spectators' LL-HLS (issue 44: "no re-encode where the
 * codec allows it"), fed access units by a scripted tap: parts, segments, keyframe requests, and the
 * streams it must refuse. The end-to-end path (a WHIP publisher, the server, ffmpeg decoding the
 * result) is in spectator-hls.test.ts.
 */

// A 320×240 Constrained Baseline SPS and its PPS (x264's).
const SPS = Buffer.from('6742c00dd90141fb0110000003001000000303c0f142a480', 'hex');
const PPS = Buffer.from('68cb83cb20', 'hex');
const OTHER_SPS = Buffer.from('6742c01ed9005005bb0110000003001000000303c0f162e480', 'hex');
const idr = (n: number) => Buffer.from([0x65, 0x88, n & 0xff, 0x10]);
const slice = (n: number) => Buffer.from([0x41, 0x9a, n & 0xff, 0x20]);

class ScriptedTap implements AccessUnitTap {
  keyframeRequests = 0;
  private listener: ((unit: AccessUnit) => void) | null = null;
  subscribe(listener: (unit: AccessUnit) => void): () => void {
    this.listener = listener;
    return () => (this.listener = null);
  }
  requestKeyframe(): void {
    this.keyframeRequests += 1;
  }
  send(rtpTimestamp: number, keyframe: boolean, n = 0, sps = SPS): void {
    this.listener?.({ rtpTimestamp, keyframe, units: keyframe ? [sps, PPS, idr(n)] : [slice(n)] });
  }
  get subscribed(): boolean {
    return this.listener !== null;
  }
}

function setup() {
  const clock = new ManualServerClock();
  const stream = new LlHlsStream('abcd0123', clock);
  const tap = new ScriptedTap();
  const events: string[] = [];
  const remuxer = new H264HlsRemuxer(tap, stream, clock, {
    notRemuxable: (reason) => events.push(`not remuxable: ${reason}`),
    changed: (reason) => events.push(`changed: ${reason}`),
  });
  /** Sends `count` pictures 3000 ticks apart (30 fps), a keyframe every `gop` (0: only the first), the clock moving with them. */
  let rtp = 0xffff_f000; // near the wrap: the 32-bit timestamp wraps inside the run
  let sent = 0;
  const send = (count: number, gop: number, step = 3000) => {
    for (let i = 0; i < count; i += 1) {
      tap.send(rtp >>> 0, sent === 0 || (gop > 0 && sent % gop === 0), sent);
      rtp = (rtp + step) >>> 0;
      sent += 1;
      clock.advance(Math.round(step / 90));
    }
  };
  const parts = () =>
    stream.window.flatMap((segment) =>
      Array.from({ length: segment.parts }, (_, i) => {
        const data = stream.media({ msn: segment.msn, part: i })!;
        const [moof] = new Mp4BoxSplitter().push(data);
        const trun = moof!.bytes.indexOf('trun');
        return {
          msn: segment.msn,
          part: i,
          samples: moof!.bytes.readUInt32BE(trun + 8),
          ...readFragment(moof!.bytes)!,
        };
      }),
    );
  return { clock, stream, tap, events, remuxer, send, parts };
}

describe("a publisher's H.264 remuxed into LL-HLS (no decoder, no encoder)", () => {
  it('[issue 44] reads the picture size from the SPS; an SPS it cannot read is null', () => {
    expect(readSps(SPS)).toMatchObject({ width: 320, height: 240, profileIdc: 66 });
    expect(readSps(Buffer.from([0x67]))).toBeNull();
  });

  it('[issue 44] starts at the first IDR, cuts parts of at most 0.5 s and closes segments at the keyframe after ~2 s; every part follows the one before in decode time', () => {
    const { stream, tap, send, parts, events } = setup();
    // Pictures before the first IDR are not taken; the publisher is asked for one.
    tap.send(1000, false);
    expect(tap.keyframeRequests).toBeGreaterThanOrEqual(1);
    expect(stream.initSegment()).toBeNull();
    send(30 * 7, 30);
    expect(events).toEqual([]);
    const init = stream.initSegment()!;
    expect(init.toString('latin1', 4, 8)).toBe('ftyp');
    expect(init.includes(Buffer.from('avc1'))).toBe(true);
    expect(init.includes(SPS)).toBe(true);
    const all = parts();
    for (const part of all) expect(part.duration).toBeLessThanOrEqual(45_000);
    all.slice(1).forEach((part, i) => expect(part.decodeTime).toBe(all[i]!.decodeTime + all[i]!.duration));
    // Keyframes every second: each segment is two GOPs, four parts, and starts at a keyframe.
    const complete = stream.window.filter((s) => s.complete);
    expect(complete.length).toBeGreaterThanOrEqual(3);
    for (const segment of complete) expect(segment.parts).toBe(4);
    for (const part of all.filter((p) => p.part === 0)) expect(part.independent).toBe(true);
    expect(stream.playlist()).toContain('#EXT-X-INDEPENDENT-SEGMENTS');
    expect(stream.playlist()).toContain('#EXTINF:2.00000,');
  });

  it('[issue 44] a publisher whose keyframes come only when asked gets asked when a segment is due; one that ignores the asks still gets segments that round to the target duration', () => {
    const { stream, tap, send, parts } = setup();
    send(1, 0);
    const asked = tap.keyframeRequests;
    // 1.9 s of pictures without a keyframe: the segment is due and a keyframe is asked for.
    send(57, 0);
    expect(tap.keyframeRequests).toBeGreaterThan(asked);
    // It comes: the segment closes there.
    send(1, 1);
    send(20, 0);
    expect(stream.window[0]).toMatchObject({ complete: true });
    // Now it never comes: segments close at 2.45 s at most, the next starting mid-GOP (then the
    // playlist no longer says every segment is independent).
    send(30 * 8, 0);
    const complete = stream.window.filter((s) => s.complete);
    expect(complete.length).toBeGreaterThanOrEqual(3);
    const lengths = complete.map((s) =>
      parts()
        .filter((p) => p.msn === s.msn)
        .reduce((sum, p) => sum + p.duration, 0),
    );
    for (const ticks of lengths) expect(Math.round(ticks / 90_000)).toBeLessThanOrEqual(2);
    expect(stream.playlist()).not.toContain('#EXT-X-INDEPENDENT-SEGMENTS');
    for (const part of parts()) expect(part.duration).toBeLessThanOrEqual(45_000);
  });

  it('[issue 44] a stalled publisher leaves no hole: a gap in its RTP time is closed to 0.25 s, and no part is longer than its target', () => {
    const { send, parts } = setup();
    send(40, 30);
    send(1, 30, 90_000 * 3); // three seconds of nothing after this picture
    send(60, 30);
    const all = parts();
    all.slice(1).forEach((part, i) => expect(part.decodeTime).toBe(all[i]!.decodeTime + all[i]!.duration));
    for (const part of all) expect(part.duration).toBeLessThanOrEqual(45_000);
  });

  it('[issue 44] a picture sent as several slices, each with the marker bit (x264 with sliced threads), is one sample, not pictures out of order', () => {
    const { tap, send, parts, events } = setup();
    send(1, 30);
    for (let i = 1; i < 60; i += 1) {
      const ts = (0xffff_f000 + i * 3000) >>> 0;
      tap.send(ts, false, i);
      tap.send(ts, false, i + 100);
    }
    expect(events).toEqual([]);
    // Each part's samples (its trun's sample_count): one per picture, each 3000 ticks long.
    const all = parts();
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const part of all) expect(part.samples * 3000).toBe(part.duration);
  });

  it('[issue 44] B-frames (pictures out of decode order) are refused as not remuxable; a new SPS on a later keyframe is a changed picture', () => {
    const b = setup();
    b.send(10, 30);
    for (const ts of [9000, 3000, 15_000, 12_000, 21_000, 18_000]) b.tap.send((0xffff_f000 + 30_000 + ts) >>> 0, false);
    expect(b.events).toEqual([expect.stringMatching(/^not remuxable: .*B-frames/)]);

    const c = setup();
    c.send(40, 30);
    c.tap.send((0xffff_f000 + 40 * 3000) >>> 0, true, 0, OTHER_SPS);
    expect(c.events).toEqual([expect.stringMatching(/^changed: .*SPS/)]);
  });

  it("[issue 44] a publisher that leaves and one with the same picture that takes over: the time runs on from the last part, from the new one's first IDR", () => {
    const { tap, send, parts, remuxer } = setup();
    send(45, 30);
    remuxer.follow(null);
    expect(tap.subscribed).toBe(false);
    const next = new ScriptedTap();
    remuxer.follow({ kind: 'whip', codec: 'H264', requestKeyframe: () => undefined, accessUnits: next });
    expect(next.keyframeRequests).toBe(1);
    next.send(5_000_000, false); // not an IDR: not taken
    for (let i = 0; i < 70; i += 1) next.send(5_003_000 + i * 3000, i % 30 === 0, i);
    const all = parts();
    all.slice(1).forEach((part, i) => expect(part.decodeTime).toBe(all[i]!.decodeTime + all[i]!.duration));
  });
});

describe("a camera's HLS run: remuxed or encoded by its source", () => {
  const h264Source = (tap: ScriptedTap): CameraSource => ({
    kind: 'whip',
    codec: 'H264',
    requestKeyframe: () => undefined,
    accessUnits: tap,
  });
  const vp8Source: CameraSource = { kind: 'whip', codec: 'VP8', requestKeyframe: () => undefined };

  it('[issue 44] an H.264 source is remuxed (no process); a VP8 source that takes over before the first part swaps in the encoder; after the first part a source of the other kind ends the run', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const hls = new CameraHls(() => channel, locateFfmpeg(), clock);
    try {
      const tap = new ScriptedTap();
      channel.attach(h264Source(tap));
      const stream = hls.stream(1, 'front')!;
      expect(hls.running()).toEqual([expect.objectContaining({ mode: 'remux', pid: undefined })]);
      channel.attach(vp8Source);
      expect(hls.running()).toEqual([expect.objectContaining({ mode: 'encode', pid: expect.any(Number) })]);
      expect(hls.stream(1, 'front')).toBe(stream);

      // Another H.264 camera before any part: back to the remuxer, in the same run.
      const second = new ScriptedTap();
      channel.attach(h264Source(second));
      expect(hls.running()).toEqual([expect.objectContaining({ mode: 'remux' })]);
      for (let i = 0; i < 40; i += 1) second.send(i * 3000, i % 30 === 0, i);
      expect(stream.begun).toBe(true);
      channel.attach(vp8Source);
      expect(hls.running()).toEqual([]);
      // The next request starts a new run (a new epoch), encoding the VP8 camera.
      const next = hls.stream(1, 'front')!;
      expect(next.epoch).not.toBe(stream.epoch);
      expect(hls.running()).toEqual([expect.objectContaining({ mode: 'encode' })]);
    } finally {
      hls.close();
    }
  });

  it('[issue 44] HLS_H264=encode encodes H.264 cameras too; any other value is refused at start-up', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const hls = new CameraHls(() => channel, locateFfmpeg(), clock, false);
    try {
      channel.attach(h264Source(new ScriptedTap()));
      hls.stream(1, 'front');
      expect(hls.running()).toEqual([expect.objectContaining({ mode: 'encode', pid: expect.any(Number) })]);
    } finally {
      hls.close();
    }
    expect(readServerConfig({}).feed.hlsH264).toBe('remux');
    expect(readServerConfig({ HLS_H264: 'encode' }).feed.hlsH264).toBe('encode');
    expect(() => readServerConfig({ HLS_H264: 'copy' })).toThrow(/HLS_H264 must be remux or encode/);
  });
});

describe('H.264 access units from RTP', () => {
  const packet = (seq: number, timestamp: number, marker: boolean, payload: Buffer) =>
    new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp, marker, payloadType: 102 }), payload);

  it('[issue 44] groups single NAL units, STAP-A and FU-A by timestamp; the marker bit or a new timestamp ends one; delimiters are left out', () => {
    const units = new H264AccessUnits();
    const stap = Buffer.concat([Buffer.from([24, 0, SPS.length]), SPS, Buffer.from([0, PPS.length]), PPS]);
    const big = Buffer.alloc(3000, 7);
    expect(units.push(packet(1, 100, false, Buffer.from([9, 0xf0])))).toEqual([]);
    expect(units.push(packet(2, 100, false, stap))).toEqual([]);
    expect(
      units.push(packet(3, 100, false, Buffer.concat([Buffer.from([0x7c, 0x85]), big.subarray(0, 1500)]))),
    ).toEqual([]);
    const [first] = units.push(packet(4, 100, true, Buffer.concat([Buffer.from([0x7c, 0x45]), big.subarray(1500)])));
    expect(first).toMatchObject({ rtpTimestamp: 100, keyframe: true });
    expect(first!.units.map((u) => u[0]! & 0x1f)).toEqual([7, 8, 5]);
    expect(first!.units[2]!.length).toBe(3001);
    // A lost marker: the next timestamp ends the picture.
    expect(units.push(packet(5, 3100, false, slice(1)))).toEqual([]);
    const done = units.push(packet(6, 6100, true, slice(2)));
    expect(done.map((u) => [u.rtpTimestamp, u.keyframe])).toEqual([
      [3100, false],
      [6100, false],
    ]);
  });
});

describe('the remuxed stream decodes', () => {
  it('[issue 44] real x264 pictures remuxed by the module decode in ffmpeg at their size, every picture kept', async () => {
    const ffmpeg = locateFfmpeg()!;
    const run = promisify(execFile);
    // 45 pictures of x264 at 30 fps, a keyframe every 15, as Annex B.
    const { stdout } = await run(
      ffmpeg,
      [
        ...[
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=320x240:rate=30',
          '-frames:v',
          '45',
        ],
        ...['-c:v', 'libx264', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-g', '15', '-f', 'h264', 'pipe:1'],
      ],
      { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
    );
    // Split at start codes into NAL units, and into pictures at each slice.
    const nals: Buffer[] = [];
    let start = -1;
    for (let i = 0; i + 3 < stdout.length; i += 1)
      if (stdout[i] === 0 && stdout[i + 1] === 0 && stdout[i + 2] === 1) {
        if (start >= 0) nals.push(stdout.subarray(start, i - (stdout[i - 1] === 0 ? 1 : 0)));
        start = i + 3;
      }
    nals.push(stdout.subarray(start));
    const pictures: Buffer[][] = [];
    let current: Buffer[] = [];
    for (const nal of nals) {
      current.push(nal);
      const type = nal[0]! & 0x1f;
      if (type === 1 || type === 5) {
        pictures.push(current);
        current = [];
      }
    }
    expect(pictures).toHaveLength(45);
    const clock = new ManualServerClock();
    const stream = new LlHlsStream('abcd0123', clock);
    let listener: (unit: AccessUnit) => void = () => undefined;
    const remuxer = new H264HlsRemuxer(
      { subscribe: (l) => ((listener = l), () => undefined), requestKeyframe: () => undefined },
      stream,
      clock,
      { notRemuxable: () => undefined, changed: () => undefined },
    );
    pictures.forEach((units, i) =>
      listener({ rtpTimestamp: i * 3000, units, keyframe: units.some((u) => (u[0]! & 0x1f) === 5) }),
    );
    remuxer.follow(null);
    const media = stream.window.flatMap((s) =>
      Array.from({ length: s.parts }, (_, i) => stream.media({ msn: s.msn, part: i })!),
    );
    const dir = mkdtempSync(join(tmpdir(), 'onkure-remux-'));
    try {
      const file = join(dir, 'remuxed.mp4');
      writeFileSync(file, Buffer.concat([stream.initSegment()!, ...media]));
      const { stderr } = await run(ffmpeg, ['-hide_banner', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
      expect(stderr).toMatch(/Video: h264 \(Constrained Baseline\).*320x240/);
      expect(Number([...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1])).toBe(45);
      expect(stderr).not.toMatch(/error|corrupt|non-existing/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
