/** @vitest-environment jsdom */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEAD_WAIT_MS, leadPictureShown, releaseScripts, type LeadPictureHost } from '../../src/main/lead-picture';

const FRAME_MS = 16;

/**
 * A page with the given pictures (a lead one is `fetchpriority="high"`, as the page's components
 * mark it), each decoding when the test says, and a window whose frames are scripted.
 */
function page(pictures: { src: string; lead: boolean }[], options: { hidden?: boolean } = {}) {
  document.body.innerHTML = '';
  const decoders = new Map<string, { resolve: () => void; reject: () => void }>();
  const decoded: string[] = [];
  for (const { src, lead } of pictures) {
    const img = document.createElement('img');
    img.src = src;
    if (lead) img.setAttribute('fetchpriority', 'high');
    img.decode = () =>
      new Promise<void>((resolve, reject) => {
        decoded.push(src);
        decoders.set(src, { resolve, reject: () => reject(new Error('EncodingError')) });
      });
    // A lead picture may sit in a <picture> (its sources chosen by the browser).
    const parent = lead && src.includes('slide') ? document.createElement('picture') : document.body;
    parent.append(img);
    if (parent !== document.body) document.body.append(parent);
  }
  const frames: number[] = [];
  const host: LeadPictureHost = {
    document: {
      visibilityState: options.hidden ? 'hidden' : 'visible',
      querySelectorAll: document.querySelectorAll.bind(document),
    },
    window: {
      requestAnimationFrame: (callback: FrameRequestCallback) =>
        window.setTimeout(() => {
          frames.push(Date.now());
          callback(Date.now());
        }, FRAME_MS),
      setTimeout: window.setTimeout.bind(window),
      clearTimeout: window.clearTimeout.bind(window),
    } as LeadPictureHost['window'],
  };
  return { host, frames, decoders, decoded };
}

/** Whether the wait has ended, after running the fake clock by `ms`. */
async function endedAfter(wait: Promise<void>, ms: number): Promise<boolean> {
  let ended = false;
  void wait.then(() => {
    ended = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return ended;
}

describe('the app starts once the lead pictures are shown (issue 27)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('waits for a lead picture to load and decode, then for a painted frame', async () => {
    const { host, frames, decoders } = page([{ src: '/api/images/banner-new-user.svg?w=800&fm=jpg', lead: true }]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, 1_000)).toBe(false);
    decoders.get('/api/images/banner-new-user.svg?w=800&fm=jpg')!.resolve();
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
    expect(frames).toEqual([1_000 + FRAME_MS, 1_000 + 2 * FRAME_MS]);
  });

  it('waits for every lead picture, one in a <picture> too, and for none of the others', async () => {
    const { host, decoders, decoded } = page([
      { src: '/api/images/carousel-slide-1.svg?w=640&fm=jpg', lead: true },
      { src: '/api/images/banner-new-user.svg?w=800&fm=jpg', lead: true },
      { src: '/api/images/prize-st-0001.svg?w=320&fm=jpg', lead: false },
    ]);
    const wait = leadPictureShown(host);
    expect(decoded).toEqual([
      '/api/images/carousel-slide-1.svg?w=640&fm=jpg',
      '/api/images/banner-new-user.svg?w=800&fm=jpg',
    ]);
    decoders.get('/api/images/carousel-slide-1.svg?w=640&fm=jpg')!.resolve();
    expect(await endedAfter(wait, 100)).toBe(false);
    decoders.get('/api/images/banner-new-user.svg?w=800&fm=jpg')!.resolve();
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
  });

  it('counts a lead picture that fails to load or decode as done', async () => {
    const { host, decoders } = page([{ src: '/gone.svg', lead: true }]);
    const wait = leadPictureShown(host);
    decoders.get('/gone.svg')!.reject();
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
  });

  it('waits for a painted frame on a page with no lead picture', async () => {
    const { host, frames } = page([{ src: '/api/images/prize-st-0001.svg', lead: false }]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, 2 * FRAME_MS - 1)).toBe(false);
    expect(await endedAfter(wait, 2)).toBe(true);
    expect(frames).toHaveLength(2);
  });

  it('starts at once in a tab that is not shown (it paints no frame until it is)', async () => {
    const { host, frames, decoded } = page([{ src: '/banner.svg', lead: true }], { hidden: true });
    expect(await endedAfter(leadPictureShown(host), 0)).toBe(true);
    expect(frames).toEqual([]);
    expect(decoded).toEqual([]);
  });

  it(`starts after ${LEAD_WAIT_MS} ms when a lead picture never arrives (a slow network)`, async () => {
    const { host } = page([{ src: '/banner.svg', lead: true }]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, LEAD_WAIT_MS - 1)).toBe(false);
    expect(await endedAfter(wait, 1)).toBe(true);
  });
});

describe('the app’s scripts are fetched only once the entry releases them (issue 27)', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('moves the build’s and the server’s module preloads out of their inert templates into the head, and answers the app', () => {
    document.head.innerHTML =
      '<template data-onkure-scripts><link rel="modulepreload" crossorigin href="/assets/page.js"></template>' +
      '<template data-onkure-scripts><link rel="modulepreload" crossorigin href="/assets/index.js" data-onkure-app>' +
      '<link rel="modulepreload" crossorigin href="/assets/react.js"></template>';
    // In a template the links are not part of the document: nothing is fetched.
    expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    expect(releaseScripts(document)).toBe(new URL('/assets/index.js', document.baseURI).href);
    expect([...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'))).toEqual(
      ['/assets/page.js', '/assets/index.js', '/assets/react.js'],
    );
    expect(document.querySelectorAll('template')).toHaveLength(0);
  });

  it('a page without the app’s preload is a broken build, said plainly', () => {
    document.head.innerHTML =
      '<template data-onkure-scripts><link rel="modulepreload" href="/assets/react.js"></template>';
    expect(() => releaseScripts(document)).toThrow(/does not link the app/);
  });
});
