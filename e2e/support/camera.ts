import { expect, type Page } from '@playwright/test';

/**
 * What the play screen's visible camera shows now: a playing rtc or HLS video (a frame decoded), a
 * live still (an object URL), the server's poster, or none.
 */
export const livePicture = (page: Page): Promise<'rtc' | 'hls' | 'still' | 'poster' | 'none'> =>
  page.evaluate(() => {
    const layer = document.querySelector('.cameras__layer:not([hidden])');
    if (!layer) return 'none';
    const playing = (v: HTMLVideoElement | undefined | null) => !!v && v.readyState >= 2 && v.videoWidth > 0;
    const videos = [...layer.querySelectorAll<HTMLVideoElement>('video')];
    if (playing(videos.find((v) => v.dataset.testid !== 'hls-video'))) return 'rtc';
    if (playing(videos.find((v) => v.dataset.testid === 'hls-video'))) return 'hls';
    const still = layer.querySelector<HTMLImageElement>('img.cameras__still');
    if (!still || !still.complete || still.naturalWidth === 0) return 'none';
    return still.src.startsWith('blob:') ? 'still' : 'poster';
  });

/** The HLS video's decoded frames and a fingerprint of its picture (the canvas' pixels summed by rows). */
export const hlsPicture = (page: Page) =>
  page.locator('.cameras__layer:not([hidden]) video[data-testid="hls-video"]').evaluate((element) => {
    const video = element as HTMLVideoElement;
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(video, 0, 0, 64, 48);
    const data = context.getImageData(0, 0, 64, 48).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += data[i]! + data[i + 1]! + data[i + 2]!;
    return {
      frames: video.getVideoPlaybackQuality().totalVideoFrames,
      width: video.videoWidth,
      fingerprint: sum,
      lagSeconds: video.seekable.length ? video.seekable.end(video.seekable.length - 1) - video.currentTime : null,
    };
  });

/**
 * Waits until a video moves: at least 30 more frames decoded than at the call, and a picture that
 * differs (`read` samples the video: its decoded frames and a fingerprint of its pixels).
 */
export async function expectPictureMoves(
  read: () => Promise<{ frames: number; fingerprint: number }>,
  timeout = 15_000,
): Promise<void> {
  const first = await read();
  await expect
    .poll(
      async () => {
        const now = await read();
        return now.frames >= first.frames + 30 && now.fingerprint !== first.fingerprint;
      },
      { timeout },
    )
    .toBe(true);
}
