import { chromium, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { expectPictureMoves, hlsPicture } from './support/camera';
import { OPERATOR_TOKEN, stationFor } from './support/players';
import { expect, test, waitForAppOnLoad } from './support/test';

/**
 * The camera page (/camera, docs/live-feed.md "The camera page"): a second Chromium with a fake
 * camera (the browser's own test picture: a moving frame counter) publishes itself as a station's
 * front camera through the page, whose WHIP exchange is the whip-whep client of the WHIP
 * specification's author; the test's page watches the station as a player does, in jpg mode (stills
 * made from that video) and in rtc mode (the video forwarded as it came). The mobile project
 * publishes VP8 (forwarded), the desktop one H.264 (transcoded once on the server) [R11-4].
 */

/** Decoded frames of the front camera's video, and a digest of what it shows now. */
const frontVideo = (page: Page) =>
  page.locator('.cameras__layer:not([hidden]) video').evaluate((element) => {
    const video = element as HTMLVideoElement;
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d')!;
    context.drawImage(video, 0, 0, 64, 48);
    const pixels = context.getImageData(0, 0, 64, 48).data;
    let digest = 0;
    for (let i = 0; i < pixels.length; i += 4)
      digest = (digest * 31 + pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) >>> 0;
    return { frames: video.getVideoPlaybackQuality().totalVideoFrames, width: video.videoWidth, fingerprint: digest };
  });

test.describe('the camera page publishes a phone or webcam over WHIP', () => {
  test.describe.configure({ timeout: 120_000 });

  test("[R11-4] a fake camera published through the camera page reaches a player: stills from its video in jpg mode, its moving video in rtc mode; stopping it brings the stills back, then the sim agent's stand-in", async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const codec = project === 'mobile' ? 'VP8' : 'H264';
    const station = await stationFor(request, project === 'mobile' ? 20 : 21);
    const issued = await request.post('/api/operator/station_key_issue', {
      data: { name: `カメラ ${project}`, station_ids: [station] },
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(issued.status()).toBe(200);
    const { key } = (await issued.json()) as { key: string };

    const cameraBrowser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
    });
    try {
      const context = await cameraBrowser.newContext({
        baseURL: baseURL!,
        locale: 'ja-JP',
        viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
      });
      await context.grantPermissions(['camera'], { origin: baseURL! });
      const camera = await context.newPage();
      waitForAppOnLoad(camera);
      await camera.goto('/camera');
      await expect(camera.getByRole('heading', { name: 'カメラ配信' })).toBeVisible();

      // A wrong key first: the page says so in Japanese, and nothing is published.
      await camera.getByLabel('ステーションID').fill(String(station));
      await camera.getByLabel('接続キー').fill(`onk_sk_aaaaaaaaaaaa_${'x'.repeat(43)}`);
      await camera.getByRole('button', { name: '配信を開始' }).click();
      await expect(camera.getByTestId('camera-failure')).toHaveText('接続キーが正しくないか、失効しています。');

      await camera.getByLabel('接続キー').fill(key);
      await camera.getByLabel('映像の形式').selectOption(codec);
      await camera.getByRole('button', { name: '配信を開始' }).click();
      await expect(camera.getByTestId('camera-phase')).toHaveAttribute('data-phase', 'publishing', { timeout: 15_000 });
      await expect(camera.getByTestId('camera-phase')).toHaveText('配信中');
      await expect
        .poll(async () => Number((await camera.getByTestId('camera-kbps').textContent())?.replace(/\D/g, '') || 0))
        .toBeGreaterThan(50);
      await expect(camera.getByTestId('camera-codec')).toContainText(codec);
      expect(
        await camera.getByTestId('camera-preview').evaluate((v) => (v as HTMLVideoElement).videoWidth),
      ).toBeGreaterThan(0);
      expect(await seriousViolations(camera)).toEqual([]);
      await camera.screenshot({ path: `e2e/screenshots/camera-page-${project}.png` });

      // The player arrives as a spectator: the camera's LL-HLS, moving. An H.264 camera's is its own
      // stream remuxed (the browser's Constrained Baseline, profile 66, at its 640 wide), never
      // decoded; a VP8 camera's is encoded once by the server (Main, profile 77) [issue 44].
      await page.goto(`/game/${station}`);
      await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
      await expect.poll(async () => (await hlsPicture(page).catch(() => null))?.width, { timeout: 20_000 }).toBe(640);
      await expectPictureMoves(() => hlsPicture(page));
      const hls = `/api/stations/${station}/hls/front`;
      const initUri = /#EXT-X-MAP:URI="([^"]+)"/.exec(await (await request.get(`${hls}/index.m3u8`)).text())![1];
      const init = await (await request.get(`${hls}/${initUri}`)).body();
      const avcC = init.indexOf('avcC');
      expect(init[avcC + 5]).toBe(codec === 'H264' ? 66 : 77);

      // In jpg mode (picked): the front still is made from the published video.
      await page.getByTestId('mode-jpg').click();
      await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'jpg');
      const still = async () => {
        const answer = await request.get(`/api/stations/${station}/camera/front.jpg?t=${Date.now()}`);
        expect(answer.headers()['content-type']).toBe('image/jpeg');
        return answer.body();
      };
      // The first still waits for the video's first keyframe (through the transcoder for H.264).
      await expect
        .poll(async () => (await request.get(`/api/stations/${station}/camera/front.jpg?t=${Date.now()}`)).status(), {
          timeout: 10_000,
        })
        .toBe(200);
      const first = await still();
      await expect.poll(async () => (await still()).equals(first), { timeout: 10_000 }).toBe(false);
      await expect(page.locator('.cameras__layer:not([hidden]) .cameras__still')).toBeVisible();
      await page.screenshot({ path: `e2e/screenshots/camera-page-stills-${project}.png` });

      // rtc mode: the front camera's video is the published one (640×480 from the fake camera, not
      // the painted 360×480), its frames decoded and changing.
      await page.getByTestId('mode-rtc').click();
      await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'rtc');
      await expect.poll(async () => (await frontVideo(page)).width, { timeout: 20_000 }).toBe(640);
      await expectPictureMoves(() => frontVideo(page));
      await page.screenshot({ path: `e2e/screenshots/camera-page-video-${project}.png` });

      // The camera stops: the player's front video is taken off (the track removed: the stills show,
      // e2e/live-feed.spec.ts [R4.2-10]),
      // and the station's sim agent, which stood aside for the real camera, publishes its painted
      // stand-in again (360×480). The page records the removal as it happens: the stand-in may be
      // back before a poll would see the gap.
      await page.evaluate(() => {
        const w = window as unknown as { videoRemoved: number };
        w.videoRemoved = 0;
        new MutationObserver((changes) => {
          for (const change of changes)
            for (const node of change.removedNodes)
              // The video, or the box it sits in (a source layer of the camera).
              if (node.nodeName === 'VIDEO' || (node instanceof Element && node.querySelector('video')))
                w.videoRemoved += 1;
        }).observe(document.body, { childList: true, subtree: true });
      });
      await camera.getByRole('button', { name: '配信を停止' }).click();
      await expect(camera.getByTestId('camera-phase')).toHaveAttribute('data-phase', 'idle');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { videoRemoved: number }).videoRemoved), {
          timeout: 5_000,
        })
        .toBeGreaterThan(0);
      await expect.poll(async () => (await frontVideo(page).catch(() => null))?.width, { timeout: 15_000 }).toBe(360);
      await context.close();
    } finally {
      await cameraBrowser.close();
    }
  });
});
