import type { Page } from '@playwright/test';

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
