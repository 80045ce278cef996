/** @vitest-environment jsdom */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEAD_WAIT_MS, leadPictureShown, type LeadPictureHost } from '../../src/main/lead-picture';

const FRAME_MS = 16;

/** A page's head with the server's image preloads, and a window whose media, frames and resource timing are scripted. */
function page(preloads: { href: string; media?: string }[], options: { finished?: string[]; hidden?: boolean } = {}) {
  document.head.innerHTML = preloads
    .map((p) => `<link rel="preload" as="image" href="${p.href}"${p.media ? ` media="${p.media}"` : ''}>`)
    .join('');
  const finished = new Set((options.finished ?? []).map((href) => new URL(href, document.baseURI).href));
  const frames: number[] = [];
  const host: LeadPictureHost = {
    document: {
      visibilityState: options.hidden ? 'hidden' : 'visible',
      querySelectorAll: document.querySelectorAll.bind(document),
    },
    window: {
      // A phone's screen: the wide pictures' media does not match.
      matchMedia: (query: string) => ({ matches: query !== '(min-width: 768px)' }) as MediaQueryList,
      requestAnimationFrame: (callback: FrameRequestCallback) =>
        window.setTimeout(() => {
          frames.push(Date.now());
          callback(Date.now());
        }, FRAME_MS),
      setTimeout: window.setTimeout.bind(window),
      clearTimeout: window.clearTimeout.bind(window),
      performance: {
        getEntriesByName: (name: string) =>
          (finished.has(name) ? [{ name, responseEnd: 12 }] : []) as unknown as PerformanceEntryList,
      },
    } as LeadPictureHost['window'],
  };
  const link = (href: string) => document.querySelector<HTMLLinkElement>(`link[href="${href}"]`)!;
  return { host, frames, link };
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
    document.head.innerHTML = '';
  });

  it('waits for a lead picture still loading, then for a painted frame', async () => {
    const { host, frames, link } = page([{ href: '/api/images/banner-new-user.svg' }]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, 1_000)).toBe(false);
    link('/api/images/banner-new-user.svg').dispatchEvent(new Event('load'));
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
    expect(frames).toEqual([1_000 + FRAME_MS, 1_000 + 2 * FRAME_MS]);
  });

  it('does not wait for a picture that has already loaded (it is in the resource timing buffer)', async () => {
    const { host, frames } = page([{ href: '/api/images/a.svg' }], { finished: ['/api/images/a.svg'] });
    expect(await endedAfter(leadPictureShown(host), 2 * FRAME_MS + 1)).toBe(true);
    expect(frames).toHaveLength(2);
  });

  it('waits for the page’s picture showing a loaded lead picture to be decoded', async () => {
    const { host, frames } = page([{ href: '/api/images/carousel-1-sp.svg' }], {
      finished: ['/api/images/carousel-1-sp.svg'],
    });
    const picture = document.createElement('img');
    picture.src = '/api/images/carousel-1-sp.svg';
    let decode = () => undefined as unknown;
    picture.decode = () => new Promise((resolve) => (decode = resolve));
    document.head.append(picture);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, 500)).toBe(false);
    decode();
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
    expect(frames).toEqual([500 + FRAME_MS, 500 + 2 * FRAME_MS]);
  });

  it('waits only for the pictures of this screen’s media, and counts a failed picture as done', async () => {
    const { host, link } = page([
      { href: '/narrow.svg', media: '(max-width: 767px)' },
      { href: '/wide.svg', media: '(min-width: 768px)' },
      { href: '/banner.svg' },
    ]);
    const wait = leadPictureShown(host);
    link('/narrow.svg').dispatchEvent(new Event('load'));
    expect(await endedAfter(wait, 100)).toBe(false);
    link('/banner.svg').dispatchEvent(new Event('error'));
    // The wide picture (not this screen's) never loads, and is not waited for.
    expect(await endedAfter(wait, 2 * FRAME_MS + 1)).toBe(true);
  });

  it('waits for a painted frame on a page with no lead picture', async () => {
    const { host, frames } = page([]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, 2 * FRAME_MS - 1)).toBe(false);
    expect(await endedAfter(wait, 2)).toBe(true);
    expect(frames).toHaveLength(2);
  });

  it('starts at once in a tab that is not shown (it paints no frame until it is)', async () => {
    const { host, frames } = page([{ href: '/banner.svg' }], { hidden: true });
    expect(await endedAfter(leadPictureShown(host), 0)).toBe(true);
    expect(frames).toEqual([]);
  });

  it(`starts after ${LEAD_WAIT_MS} ms when a lead picture never arrives (a slow network)`, async () => {
    const { host } = page([{ href: '/banner.svg' }]);
    const wait = leadPictureShown(host);
    expect(await endedAfter(wait, LEAD_WAIT_MS - 1)).toBe(false);
    expect(await endedAfter(wait, 1)).toBe(true);
  });
});
