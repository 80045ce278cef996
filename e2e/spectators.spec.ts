import type { Page, Request } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { expectPictureMoves, hlsPicture, livePicture } from './support/camera';
import { debugLogin, playerPage, stationFor } from './support/players';
import { expect, test } from './support/test';

/**
 * Spectators (issue 44, docs/spectators.md): a viewer with no place near the front watches the
 * station's LL-HLS (hls.js in Chromium), made by the server from the demo agent's WHIP video; once
 * their turn is near they move to the real-time feed (rtc where the service's default is rtc), and
 * back to HLS when they leave the line, with a picture on screen throughout.
 */

/** Samples what the visible camera shows at every animation frame from now on (window.__shown). */
const sampleWhatShows = (page: Page) =>
  page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = seen;
    const sample = () => {
      const layer = document.querySelector('.cameras__layer:not([hidden])');
      const videos = layer ? [...layer.querySelectorAll<HTMLVideoElement>('video')] : [];
      const still = layer?.querySelector<HTMLImageElement>('img.cameras__still');
      const video = videos.some((v) => v.readyState >= 2 && v.videoWidth > 0);
      seen.push(video ? 'video' : still && still.complete && still.naturalWidth > 0 ? 'still' : 'nothing');
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
const samples = (page: Page) => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);

test.describe('spectators watch over HLS, players in real time', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a spectator sees the camera as moving LL-HLS video; a place near the front moves them to rtc and leaving the line back to HLS, with a picture on screen throughout', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const station = await stationFor(request, project === 'mobile' ? 18 : 19);
    const viewer = await debugLogin(request, `spectator-${project}`);
    const page = await playerPage(browser, baseURL!, viewer, testInfo.project.use.viewport!);
    // This service's default mode is rtc (the e2e server's is jpg): the page's served mode reads rtc,
    // as `ONKURE_FEED=rtc`, the production default, would serve it.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const meta = document.querySelector('meta[name="onkure-feed"]');
        if (!meta) return;
        meta.setAttribute('content', 'rtc');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const hlsRequests: string[] = [];
    page.on('request', (r: Request) => {
      if (r.url().includes(`/stations/${station}/hls/`))
        hlsRequests.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await page.goto(`/game/${station}`);
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
    await expect(page.getByTestId('feed-mode')).toHaveText('観戦映像（数秒遅れ）');
    await expect.poll(() => livePicture(page), { timeout: 20_000 }).toBe('hls');
    // Moving video: frames keep being decoded, and the picture changes.
    expect((await hlsPicture(page)).width).toBeGreaterThan(0);
    await expectPictureMoves(() => hlsPicture(page));
    // Low-latency HLS: blocking playlist reloads and half-second parts; no rtc session.
    expect(hlsRequests.some((u) => /index\.m3u8\?_HLS_msn=\d+&_HLS_part=\d+/.test(u))).toBe(true);
    expect(hlsRequests.some((u) => /-\d+\.\d+\.m4s/.test(u))).toBe(true);
    expect(
      await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/signaling'))),
    ).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `e2e/screenshots/spectator-hls-${project}.png` });

    // Reserving on an idle station: the turn is theirs, and the picture moves to rtc without a gap.
    await sampleWhatShows(page);
    await page.getByTestId('reserve').click();
    await expect(page.getByTestId('your-turn')).toBeVisible();
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'rtc');
    await expect.poll(() => livePicture(page), { timeout: 20_000 }).toBe('rtc');
    await expect(page.locator('video[data-testid="hls-video"]')).toHaveCount(0);
    await page.screenshot({ path: `e2e/screenshots/spectator-turn-rtc-${project}.png` });

    // Leaving the line: back to HLS, again with no moment without a picture.
    await page.getByRole('button', { name: '予約を取り消す' }).click();
    await expect(page.getByTestId('reserve')).toBeVisible();
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
    await expect.poll(() => livePicture(page), { timeout: 20_000 }).toBe('hls');
    await expect(page.locator('.cameras__layer:not([hidden]) video')).toHaveCount(1);
    const seen = await samples(page);
    expect(seen.length).toBeGreaterThan(30);
    // What showed, as runs of animation frames (e.g. video×300, still×2, video×500): never nothing.
    const runs: string[] = [];
    for (const [i, s] of seen.entries()) if (i === 0 || seen[i - 1] !== s) runs.push(s);
    expect(
      runs,
      JSON.stringify(
        seen.reduce<[string, number][]>((acc, s) => {
          const last = acc.at(-1);
          if (last && last[0] === s) last[1] += 1;
          else acc.push([s, 1]);
          return acc;
        }, []),
      ),
    ).not.toContain('nothing');
    await page.context().close();
  });
});
