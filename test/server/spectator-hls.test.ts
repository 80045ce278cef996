import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg } from '../../media/vp8-encoder';
import { readFragment } from '../../server/live/fmp4';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The spectators' LL-HLS (issue 44, docs/spectators.md) against the real server: a camera
 * published over WHIP by ffmpeg's test pattern, its stream made by the server's encoder, read as a
 * spectator's player and a cache in front would read it.
 */
let t: TestServer;
let station = 0;
let vip = 0;
let cameras: TestCameras;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, listen: true });
  station = (await playableStation(t)).station_id;
  const [row] = await t.server.store().query<{
    station_id: number;
  }>(`SELECT station_id FROM stations WHERE station_type = 'vip' AND station_status = 'open' ORDER BY station_id LIMIT 1`);
  vip = row!.station_id;
  cameras = await TestCameras.issue(t, [station, vip]);
}, 30_000);
afterEach(async () => cameras.stopAll());
afterAll(async () => t?.close());

const base = () => `${t.origin}/api/stations/${station}/hls/front`;

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly cache: string | null;
  readonly body: Buffer;
  readonly ms: number;
}
async function get(url: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    body,
    ms: performance.now() - started,
  };
}

interface Playlist {
  readonly text: string;
  readonly init: string;
  readonly segments: { msn: number; uri: string; duration: number }[];
  readonly parts: { uri: string; duration: number; independent: boolean }[];
  readonly hint: string;
  readonly mediaSequence: number;
}
function parse(text: string): Playlist {
  const lines = text.trim().split('\n');
  const mediaSequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)![1]);
  const segments: Playlist['segments'] = [];
  lines.forEach((line, i) => {
    const extinf = /^#EXTINF:([\d.]+),/.exec(line);
    if (extinf)
      segments.push({ msn: mediaSequence + segments.length, uri: lines[i + 1]!, duration: Number(extinf[1]) });
  });
  const parts = [...text.matchAll(/#EXT-X-PART:DURATION=([\d.]+),URI="([^"]+)"(,INDEPENDENT=YES)?/g)].map((m) => ({
    uri: m[2]!,
    duration: Number(m[1]),
    independent: m[3] !== undefined,
  }));
  return {
    text,
    init: /#EXT-X-MAP:URI="([^"]+)"/.exec(text)![1]!,
    segments,
    parts,
    hint: /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(text)?.[1] ?? '',
    mediaSequence,
  };
}

/** The stream's playlist once the camera publishes and its first segment is made. */
async function livePlaylist(): Promise<Playlist> {
  await cameras.publish(station, 'front', { size: '640x360' });
  const first = await get(`${base()}/index.m3u8`);
  expect([first.status, first.type, first.cache]).toEqual([200, 'application/vnd.apple.mpegurl', 'public, max-age=1']);
  return parse(first.body.toString());
}

/** What ffmpeg decodes of an MP4 (init and media): the codec and the frames. */
async function decode(
  mp4: Buffer,
): Promise<{ codec: string; profile: string; frames: number; width: number; height: number }> {
  const ffmpeg = locateFfmpeg()!;
  const run = promisify(execFile);
  const dir = mkdtempSync(join(tmpdir(), 'onkure-hls-'));
  try {
    const file = join(dir, 'clip.mp4');
    writeFileSync(file, mp4);
    const { stderr } = await run(ffmpeg, ['-hide_banner', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
    const stream = /Video: (\w+) (?:\(([^)]+)\) )?.*?, (\d+)x(\d+)/.exec(stderr);
    const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1];
    return {
      codec: stream?.[1] ?? '',
      profile: stream?.[2] ?? '',
      width: Number(stream?.[3]),
      height: Number(stream?.[4]),
      frames: Number(frames ?? 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the spectators' LL-HLS of a camera, made once from its WHIP video", () => {
  it('a camera published over WHIP becomes an LL-HLS media playlist: half-second parts, two-second segments from keyframes, blocking reload and a preload hint; its init and segments are H.264 that decodes', async () => {
    const playlist = await livePlaylist();
    expect(playlist.text).toContain('#EXT-X-PART-INF:PART-TARGET=0.500');
    expect(playlist.text).toContain('#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.500,HOLD-BACK=6.000');
    expect(playlist.text).toContain('#EXT-X-TARGETDURATION:2');
    expect(playlist.segments.length).toBeGreaterThanOrEqual(1);
    for (const segment of playlist.segments) expect(segment.duration).toBeCloseTo(2, 1);
    for (const part of playlist.parts) expect(part.duration).toBeLessThanOrEqual(0.5);
    expect(playlist.parts.filter((p) => p.independent).length).toBeGreaterThanOrEqual(2);
    expect(playlist.hint).toMatch(/^[0-9a-f]{8}-\d+\.\d+\.m4s$/);

    const init = await get(`${base()}/${playlist.init}`);
    expect([init.status, init.type, init.cache]).toEqual([200, 'video/mp4', 'public, max-age=3600, immutable']);
    expect(init.body.toString('latin1', 4, 8)).toBe('ftyp');
    const segment = await get(`${base()}/${playlist.segments[0]!.uri}`);
    expect([segment.status, segment.cache]).toEqual([200, 'public, max-age=3600, immutable']);
    const decoded = await decode(Buffer.concat([init.body, segment.body]));
    // Two seconds at the stream's constant 30 frames a second, the publisher's 640×360 kept.
    expect(decoded).toEqual({ codec: 'h264', profile: 'Main', frames: 60, width: 640, height: 360 });

    // The preload hint: asked before it exists, held until the encoder makes it, then answered.
    const hinted = await get(`${base()}/${playlist.hint}`);
    expect([hinted.status, hinted.type]).toEqual([200, 'video/mp4']);
    expect(hinted.body.toString('latin1', 4, 8)).toBe('moof');
    expect(hinted.ms).toBeLessThan(1_500);
    // A blocking reload for the part after it: held, and the answer lists that part.
    const [, msn, part] = /-(\d+)\.(\d+)\.m4s$/.exec(playlist.hint)!;
    const next = { msn: Number(msn), part: Number(part) + 1 };
    const reloaded = await get(`${base()}/index.m3u8?_HLS_msn=${next.msn}&_HLS_part=${next.part}`);
    expect([reloaded.status, reloaded.cache]).toEqual([200, 'public, max-age=6']);
    const after = parse(reloaded.body.toString());
    const listed = (p: { msn: number; part: number }) =>
      after.parts.some((x) => x.uri.endsWith(`-${p.msn}.${p.part}.m4s`)) ||
      after.parts.some((x) => x.uri.endsWith(`-${p.msn + 1}.0.m4s`));
    expect(listed(next)).toBe(true);
    expect(reloaded.ms).toBeGreaterThan(200);
    expect(reloaded.ms).toBeLessThan(2_500);
  }, 60_000);

  it("[issue 44] an H.264 publisher's stream is remuxed, not encoded: no encoder process runs for it, its segments are the publisher's own H.264 (its profile and size), parts follow one another in decode time", async () => {
    await cameras.publish(station, 'side', { size: '640x360', codec: 'H264' });
    const side = `${t.origin}/api/stations/${station}/hls/side`;
    const first = await get(`${side}/index.m3u8`);
    expect(first.status).toBe(200);
    const playlist = parse(first.body.toString());
    // The run remuxes: no process of its own (the encoded path runs one ffmpeg per camera).
    expect(t.server.services().hls.running()).toContainEqual(
      expect.objectContaining({ stationId: station, camera: 'side', mode: 'remux', pid: undefined }),
    );
    expect(playlist.text).toContain('#EXT-X-TARGETDURATION:2');
    for (const part of playlist.parts) expect(part.duration).toBeLessThanOrEqual(0.5);
    // The publisher's keyframe every second: segments of two seconds, each from a keyframe.
    for (const segment of playlist.segments) expect(segment.duration).toBeCloseTo(2, 0);
    expect(playlist.parts.filter((p) => p.independent).length).toBeGreaterThanOrEqual(2);

    const init = await get(`${side}/${playlist.init}`);
    const parts = await Promise.all(playlist.parts.map((p) => get(`${side}/${p.uri}`)));
    const times = parts.map((p) => readFragment(p.body.subarray(0, p.body.readUInt32BE(0)))!);
    times.slice(1).forEach((time, i) => expect(time.decodeTime).toBe(times[i]!.decodeTime + times[i]!.duration));
    const segment = await get(`${side}/${playlist.segments[0]!.uri}`);
    const decoded = await decode(Buffer.concat([init.body, segment.body]));
    // The publisher's x264 baseline at 640×360 (the encoded path writes Main profile): what the camera sent.
    expect(decoded).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 640, height: 360 });
    expect(decoded.frames).toBeGreaterThanOrEqual(50);
  }, 60_000);

  it('asks it cannot answer are refused, never a 5xx: too far ahead 400; an unknown file, camera, run or part gone 404; a gated station without its token 403', async () => {
    const playlist = await livePlaylist();
    const epoch = playlist.init.slice(0, 8);
    const tooFar = await get(`${base()}/index.m3u8?_HLS_msn=${playlist.mediaSequence + 50}&_HLS_part=0`);
    expect([tooFar.status, tooFar.cache]).toEqual([400, null]);
    expect(JSON.parse(tooFar.body.toString())).toMatchObject({
      error_code: 400,
      error_info: expect.stringMatching(/再生リスト/),
    });
    const statuses: Record<string, number> = {};
    for (const path of [
      `${base()}/index.m3u9`,
      `${base()}/../index.m3u8`,
      `${t.origin}/api/stations/${station}/hls/top/index.m3u8`,
      `${t.origin}/api/stations/99999999/hls/front/index.m3u8`,
      `${t.origin}/api/stations/0/hls/front/index.m3u8`,
      `${base()}/00000000-init.mp4`,
      `${base()}/${epoch}-0.99.m4s`,
      `${base()}/${epoch}-999999.m4s`,
      `${base()}/${epoch}-1.1.1.m4s`,
      `${base()}/index.m3u8?_HLS_msn=-1`,
      `${base()}/index.m3u8?_HLS_msn=1e9`,
      `${base()}/index.m3u8?_HLS_part=%00`,
    ])
      statuses[path.replace(t.origin, '')] = (await get(path)).status;
    expect(Object.values(statuses).every((s) => s === 400 || s === 404)).toBe(true);
    expect(statuses[`/api/stations/${station}/hls/front/${epoch}-999999.m4s`]).toBe(404);
    expect(statuses[`/api/stations/${station}/hls/front/index.m3u8?_HLS_msn=-1`]).toBe(400);
    const gated = await get(`${t.origin}/api/stations/${vip}/hls/front/index.m3u8`);
    expect(gated.status).toBe(403);
  }, 60_000);
});
