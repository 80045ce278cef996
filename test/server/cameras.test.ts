import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_PLAY_HEADER, FRAME_TICK_HEADER, stationInfoResponseSchema } from '../../src/contract';
import { luminanceFilter, VIP_REQUIRED_PURCHASE_TC } from '../../src/domain';
import {
  renderPixels,
  rgbaToI420,
  stampTick,
  TICK_MARKER,
  VIDEO_FRAME,
  VIDEO_PICTURE_BYTES,
} from '../../media/cameras/camera-renderer';
import { layPrizes } from '../../src/domain/play/crane-machine';
import { ManualServerClock } from '../support/manual-server-clock';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let normal = 0;
let vip = 0;

let cameras: TestCameras;

beforeAll(async () => {
  // Listening: the cameras publish over WHIP (their media over UDP, in real time). The stills'
  // waits and the media tokens' recheck run on the manual clock.
  t = await startTestServer({ inMemory: true, clock, listen: true });
  const pick = async (where: string) =>
    (
      await t.server
        .store()
        .query<{ station_id: number }>(`SELECT station_id FROM stations WHERE ${where} ORDER BY station_id LIMIT 1`)
    )[0]!.station_id;
  normal = (await playableStation(t)).station_id;
  vip = await pick(`station_type = 'vip' AND station_status = 'open'`);
  cameras = await TestCameras.issue(t, [normal, vip]);
});
afterEach(async () => cameras.stopAll());
afterAll(async () => t?.close());

const post = async (path: string, body: object) => {
  const res = await t.server.app.inject({ method: 'POST', url: `/api/${path}`, payload: body });
  return { status: res.statusCode, json: res.json() };
};
const get = (url: string) => t.server.app.inject({ method: 'GET', url });
/** Waits for `pending`, moving the manual clock on 100 ms at every turn of the event loop meanwhile. */
async function withClockRunning<T>(pending: Promise<T>): Promise<T> {
  let settled = false;
  void pending.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
    clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return pending;
}
/** The still at `url` once the camera's first picture is made (the publisher has just started). */
async function stillOf(url: string) {
  await expect
    .poll(async () => (await get(url)).statusCode, { timeout: 10_000, message: `a still at ${url}` })
    .toBe(200);
  return get(url);
}
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });

describe('the station cameras: station info, and stills from the video their publisher sends', () => {
  it("[R3-2] station info names both feeds (webrtc channels and still pictures) and each camera's luminance (default 100)", async () => {
    const info = stationInfoResponseSchema.parse(
      (await post('v2/play/station_info', { station_id: normal })).json,
    ).station_info;
    expect(info.watch_info).toEqual({
      webrtc_url: `/signaling?s=${normal}`,
      webrtc_channel_front: `station-${normal}-front`,
      webrtc_channel_side: `station-${normal}-side`,
      motion_jpeg_front: `/api/stations/${normal}/camera/front.jpg`,
      motion_jpeg_side: `/api/stations/${normal}/camera/side.jpg`,
      // Beyond the spec (issue 44): the spectators' HLS of each camera.
      hls_front: `/api/stations/${normal}/hls/front/index.m3u8`,
      hls_side: `/api/stations/${normal}/hls/side/index.m3u8`,
    });
    expect(info.luminance_front).toEqual({ brightness_front: 100, saturate_front: 100, contrast_front: 100 });
    expect(luminanceFilter(info, 'side').css).toBe('brightness(1) saturate(1) contrast(1)');
  });

  it("[R7-9] [R3-2] a still picture is made from the camera's published video: a JPEG, never cached, the cache-busting query honoured, the tick it shows in a header; none before a publisher sends", async () => {
    // Asked of a camera nobody publishes, the still waits 2 s for a publisher (an agent asked to
    // publish starts within it), then answers none.
    const notYet = await withClockRunning(get(`/api/stations/${normal}/camera/side.jpg?t=1`));
    expect([notYet.statusCode, notYet.json()]).toEqual([
      503,
      { error_code: 503, error_info: 'カメラの映像を準備しています。しばらくお待ちください。' },
    ]);
    await cameras.publish(normal, 'front');
    const res = await stillOf(`/api/stations/${normal}/camera/front.jpg?t=1763870400123`);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers[FRAME_TICK_HEADER]).toBe('0');
    expect(res.headers[FRAME_PLAY_HEADER]).toBe('');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await get(`/api/stations/${normal}/camera/top.jpg`)).statusCode).toBe(404);
    expect((await get('/api/stations/999999/camera/front.jpg')).json()).toMatchObject({
      error_code: 404,
      error_info: 'ステーションが見つかりません。',
    });
    expect((await get(`/api/stations/${normal}/camera/front.jpg?t=abc`)).statusCode).toBe(400);
  });

  it("[R6-3] a VIP station's feed is for qualifying users only: 569 to others, pictures only with the media token station info gives, and no longer once revoked", async () => {
    expect((await post('v2/play/station_info', { station_id: vip })).json).toMatchObject({ error_code: 569 });
    const plain = await createTestUser(t);
    expect((await post('v2/play/station_info', as(plain, { station_id: vip }))).json).toMatchObject({
      error_code: 569,
    });
    expect((await get(`/api/stations/${vip}/camera/front.jpg`)).json()).toMatchObject({
      error_code: 403,
      error_info: 'このステーションの映像を見る権限がありません。',
    });

    const rich = await createTestUser(t);
    await t.server.services().ledger.credit(rich.user_id, 'toll', {
      amount: VIP_REQUIRED_PURCHASE_TC,
      reason: 'purchase',
      idempotencyKey: 'vip',
    });
    const info = stationInfoResponseSchema.parse(
      (await post('v2/play/station_info', as(rich, { station_id: vip }))).json,
    ).station_info;
    expect(info.watch_info.motion_jpeg_front).toMatch(
      new RegExp(`^/api/stations/${vip}/camera/front\\.jpg\\?k=[\\w-]{32}$`),
    );
    await cameras.publish(vip, 'front');
    expect((await stillOf(`${info.watch_info.motion_jpeg_front}&t=1`)).statusCode).toBe(200);
    expect((await get(`/api/stations/${vip}/camera/front.jpg?k=${'a'.repeat(32)}`)).statusCode).toBe(403);
    await post('movie/delete_token', as(rich, { read_info: {} }));
    clock.advance(6_000);
    expect((await get(`${info.watch_info.motion_jpeg_front}&t=2`)).statusCode).toBe(403);
  });
});

describe("the video camera's pictures: I420 for the encoder, with the benchmark's tick marker", () => {
  it('converts RGBA to I420 with BT.601 limited-range values: white, black, red and each chroma sample the mean of its 2 × 2 pixels', () => {
    // 4 × 2: a white 2 × 2 block, then a block of two red and two black pixels.
    const px = (r: number, g: number, b: number) => [r, g, b, 255];
    const row = [...px(255, 255, 255), ...px(255, 255, 255), ...px(255, 0, 0), ...px(0, 0, 0)];
    const i420 = rgbaToI420(Uint8Array.from([...row, ...row]), 4, 2);
    expect(i420.length).toBe(4 * 2 * 1.5);
    expect([...i420.subarray(0, 4)]).toEqual([235, 235, 82, 16]);
    expect([...i420.subarray(4, 8)]).toEqual([235, 235, 82, 16]);
    // U then V: white is neutral (128); the red/black block averages to (127, 0, 0).
    expect([...i420.subarray(8, 10)]).toEqual([128, 109]);
    expect([...i420.subarray(10, 12)]).toEqual([128, 184]);
  });

  it('a rendered video picture is VIDEO_FRAME-sized I420, and the tick stamped into it reads back from its luma', () => {
    const scene = { x: 420, z: 380, h: 0.4, grip: 0.3, prizes: layPrizes(5, 3), carryingPrizeId: null, dimmed: false };
    const picture = renderPixels('front', scene);
    expect(picture.length).toBe(VIDEO_PICTURE_BYTES);
    expect(VIDEO_PICTURE_BYTES).toBe((VIDEO_FRAME.width * VIDEO_FRAME.height * 3) / 2);
    const stamped = Buffer.from(picture);
    stampTick(stamped, 0xa5c3);
    const { bits, cell, x, y } = TICK_MARKER;
    let tick = 0;
    for (let bit = 0; bit < bits; bit += 1)
      tick = tick * 2 + (stamped[(y + cell / 2) * VIDEO_FRAME.width + x + bit * cell + cell / 2]! > 128 ? 1 : 0);
    expect(tick).toBe(0xa5c3);
    // Only the marker's squares changed: the rest of the luma plane is the scene's.
    const marker = (i: number) =>
      Math.floor(i / VIDEO_FRAME.width) >= y &&
      Math.floor(i / VIDEO_FRAME.width) < y + cell &&
      i % VIDEO_FRAME.width >= x &&
      i % VIDEO_FRAME.width < x + bits * cell;
    const changed = [...Array(VIDEO_FRAME.width * VIDEO_FRAME.height).keys()].filter((i) => stamped[i] !== picture[i]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every(marker)).toBe(true);
  });

  // Linux only: the check reads the process's memory map from /proc.
  it.skipIf(!existsSync('/proc/self/smaps_rollup'))(
    'the canvas allocator stays off transparent huge pages, so reading a picture back zeroes no fresh 2 MB page (an explicit MIMALLOC_ALLOW_THP wins)',
    () => {
      // A process of its own: the allocator reads its options once, when the library loads. Not
      // this process's setting either (importing the renderer here set it): the child must set it.
      const { MIMALLOC_ALLOW_THP: _ours, ...inherited } = process.env;
      const hugeKbAfterDrawing = (env: Record<string, string>) =>
        Number(
          execFileSync(
            process.execPath,
            [
              '--import',
              'tsx',
              '--input-type=module',
              '-e',
              `
      import { readFileSync } from 'node:fs';
      const { renderPixels } = await import('./media/cameras/camera-renderer.ts');
      const { layPrizes } = await import('./src/domain/play/crane-machine.ts');
      for (let i = 0; i < 40; i += 1) renderPixels('front', { x: 100 + i, z: 100, h: 0, grip: 0, prizes: layPrizes(1, 3), carryingPrizeId: null, dimmed: false });
      console.log(readFileSync('/proc/self/smaps_rollup', 'utf8').match(/AnonHugePages:\\s+(\\d+)/)[1]);
    `,
            ],
            { env: { ...inherited, ...env }, encoding: 'utf8' },
          ).trim(),
        );
      expect(hugeKbAfterDrawing({})).toBe(0);
      // The control: where the kernel gives huge pages on request, the allocator left to itself takes them.
      const thp = '/sys/kernel/mm/transparent_hugepage/enabled';
      if (existsSync(thp) && /\[(always|madvise)\]/.test(readFileSync(thp, 'utf8'))) {
        expect(hugeKbAfterDrawing({ MIMALLOC_ALLOW_THP: '1' })).toBeGreaterThan(0);
      }
    },
  );
});
