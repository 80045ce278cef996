import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { OPERATOR_TOKEN, stationFor } from './support/players';

/**
 * The rtc live feed for real: the app's sora-js-sdk in Chromium against the reference server's
 * Sora-compatible signaling peer (werift), VP8 from the demo agent's painted cameras, published over WHIP
 * (docs/live-feed.md). A viewer arrives as a spectator (HLS, issue 44), so each test switches to
 * ライブ映像 the way a player does. Each project watches its own station.
 */

type LiveStatus = {
  connections: number;
  cameras: {
    stationId: number;
    camera: string;
    viewers: number;
    live: boolean;
    source: 'whip' | null;
  }[];
};
const liveStatus = async (request: APIRequestContext): Promise<LiveStatus> =>
  (await (await request.post('/api/dev/live/status', { data: {} })).json()) as LiveStatus;
const setStatus = (request: APIRequestContext, station: number, status: string) =>
  request.post('/api/operator/station_status', {
    data: { station_id: station, station_status: status },
    headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
  });

/** Decoded frames of each video element on the page (front, side). */
const decodedFrames = (page: Page) =>
  page
    .locator('video')
    .evaluateAll((videos) => videos.map((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames));
const videoWidths = (page: Page) =>
  page.locator('video').evaluateAll((videos) => videos.map((v) => (v as HTMLVideoElement).videoWidth));

/** Every RTCPeerConnection the page makes, kept for getStats (the SDK's own connections). */
async function recordPeerConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    } as typeof RTCPeerConnection;
  });
}

/** What each live connection receives: the codecs of its inbound streams, by kind. */
const inboundCodecs = (page: Page) =>
  page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
      (pc) => pc.connectionState === 'connected',
    );
    return Promise.all(
      pcs.map(async (pc) => {
        const stats = await pc.getStats();
        const codecs: string[] = [];
        stats.forEach((report: { type: string; kind?: string; codecId?: string }) => {
          if (report.type === 'inbound-rtp')
            codecs.push(
              `${report.kind}:${(stats.get(report.codecId ?? '') as { mimeType?: string } | undefined)?.mimeType ?? '?'}`,
            );
        });
        return codecs;
      }),
    );
  });

async function watchLive(page: Page, station: number): Promise<void> {
  await page.goto(`/game/${station}`);
  // A viewer with no place in line is a spectator (issue 44): the station's HLS, until they pick a mode.
  await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
  await page.getByTestId('mode-rtc').click();
  await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'rtc');
  await expect.poll(() => videoWidths(page), { timeout: 15_000 }).toEqual([360, 360]);
}

test.describe("the rtc live feed against the reference server's signaling peer", () => {
  test.describe.configure({ timeout: 90_000 });

  test("[R4.2-6] [R4.2-8] [R7-8] [R9-12] front and side play as two receive-only VP8 sessions with the video service's timeouts, keep decoding, and the stills step aside", async ({
    page,
    request,
  }, testInfo) => {
    const station = await stationFor(request, testInfo.project.name === 'mobile' ? 8 : 9);
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    await recordPeerConnections(page);
    await watchLive(page, station);
    await expect(page.getByTestId('feed-mode')).toHaveText('ライブ映像モード');
    // Both videos keep decoding: 30 more frames each (one second of video at 30 fps).
    const start = await decodedFrames(page);
    await expect
      .poll(async () => (await decodedFrames(page)).every((n, i) => n >= start[i]! + 30), { timeout: 10_000 })
      .toBe(true);
    // The stills step aside while the videos play [R4.2-8].
    await expect(page.locator('.cameras__still')).toHaveCount(0);
    // Two connections, video only, VP8, no audio [R4.2-6].
    expect(await inboundCodecs(page)).toEqual([['video:video/VP8'], ['video:video/VP8']]);
    // The SDK runs with the video service's timeouts [R9-12], read back from each connection.
    for (const camera of ['front', 'side']) {
      expect(logs).toContain(
        `onkure: ${camera} video connected (station-${station}-${camera}; connection timeout 60000 ms, disconnect wait 3000 ms, signaling candidate timeout 3000 ms)`,
      );
    }
    // The server: one channel per camera, the demo agent's painted video over WHIP, one viewer each.
    const status = await liveStatus(request);
    expect(
      status.cameras
        .filter((c) => c.stationId === station)
        .map((c) => [c.camera, c.viewers, c.live, c.source])
        .sort(),
    ).toEqual([
      ['front', 1, true, 'whip'],
      ['side', 1, true, 'whip'],
    ]);
    await page.screenshot({ path: `e2e/screenshots/live-video-${testInfo.project.name}.png` });
    // The side camera shows the side video.
    await page.getByRole('button', { name: '側面' }).click();
    await expect(page.locator('.cameras__layer:not([hidden]) video')).toHaveCount(1);
    // Leaving the page ends both sessions; nobody watching, the agent's lease ends (its stills asked
    // for within 5 s keep it a little longer), it stops publishing and the channels go.
    await page.goto('/');
    await expect
      .poll(async () => (await liveStatus(request)).cameras.filter((c) => c.stationId === station), {
        timeout: 30_000,
      })
      .toEqual([]);
  });

  test('[R4.2-10] a station going down takes the video tracks away: the video elements go and the stills show; back up, the video returns', async ({
    page,
    request,
  }, testInfo) => {
    const station = await stationFor(request, testInfo.project.name === 'mobile' ? 8 : 9);
    await watchLive(page, station);
    try {
      expect((await setStatus(request, station, 'maintenance')).ok()).toBe(true);
      // The server renegotiates the track away (re-offer, inactive); the browser removes it.
      await expect(page.locator('video')).toHaveCount(0, { timeout: 10_000 });
      await expect(page.locator('.cameras__still').first()).toBeVisible();
      await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'rtc');
      await expect(page.getByTestId('feed-fallback')).toHaveCount(0);
      await page.screenshot({ path: `e2e/screenshots/live-video-down-${testInfo.project.name}.png` });
    } finally {
      await setStatus(request, station, 'open');
    }
    await expect.poll(() => videoWidths(page), { timeout: 15_000 }).toEqual([360, 360]);
    await expect(page.locator('.cameras__still')).toHaveCount(0);
  });

  test('[R4.2-7] [R8-10] the signaling stops mid-stream: both sessions end, the feed falls back to stills with the signaling-error notice', async ({
    page,
    request,
  }, testInfo) => {
    const station = await stationFor(request, testInfo.project.name === 'mobile' ? 8 : 9);
    await watchLive(page, station);
    const dropped = (await (await request.post('/api/dev/live/drop', { data: { station_id: station } })).json()) as {
      dropped: number;
    };
    expect(dropped.dropped).toBe(2);
    await expect(page.getByTestId('feed-fallback')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'jpg');
    await expect(page.locator('video')).toHaveCount(0);
    // The stills refresh again.
    const still = page.locator('.cameras__layer:not([hidden]) .cameras__still');
    const first = await still.getAttribute('src');
    await expect.poll(() => still.getAttribute('src')).not.toBe(first);
    // No rtc session is left (the stills, made from the agent's video, go on).
    await expect
      .poll(async () => (await liveStatus(request)).cameras.filter((c) => c.stationId === station && c.viewers > 0))
      .toEqual([]);
    await page.screenshot({ path: `e2e/screenshots/live-video-fallback-${testInfo.project.name}.png` });
  });
});
