import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readRenderedText } from '../../server/http/pages';
import { createPageRenderer } from '../../src/main/server-render';
import { hydrationScript, readHydrationData } from '../../src/ui';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

/** What the build writes for the server: each lazily loaded module's chunks beyond the entry's. */
const PAGE_CHUNKS = {
  'src/ui/pages/top-page.tsx': ['/assets/top-page.js', '/assets/rows.js'],
  'src/ui/play/play-page.tsx': ['/assets/play-page.js', '/assets/rows.js'],
  'src/main/features/play.ts': ['/assets/play.js'],
  'src/main/features/money.ts': ['/assets/money.js'],
  'src/ui/pages/purchase-pages.tsx': ['/assets/purchase-pages.js'],
  'src/ui/modals/menu-top-modal.tsx': ['/assets/menu.js'],
};

/** The built page's shape (vite.config.ts writes the build's settings and the page chunks into it). */
const PAGE = `<!doctype html><html lang="ja"><head><meta name="onkure-feed" content="" /><title>景品一覧</title>
<script type="application/json" id="onkure-build">{"VITE_ONKURE_TARGET":"web"}</script>
<script type="application/json" id="onkure-page-chunks">${JSON.stringify(PAGE_CHUNKS)}</script>
<script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`;

const OPERATOR_TOKEN = 'server-render-operator-token-0123456789';
let t: TestServer;
let staticDir: string;
beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'onkure-ssr-'));
  writeFileSync(join(staticDir, 'index.html'), PAGE);
  t = await startTestServer({
    env: { STATIC_DIR: staticDir, ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN },
    renderPages: createPageRenderer,
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const get = (url: string) => t.server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const api = async (path: string, body: object) =>
  (await t.server.app.inject({ method: 'POST', url: `/api/${path}`, payload: body })).json<Record<string, unknown>>();

/** The page's markup inside #root, and the data it was rendered from. */
function parts(html: string) {
  const root =
    /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="onkure-hydration">/.exec(html)?.[1] ?? '';
  const data = readHydrationData({
    getElementById: (id: string) =>
      id === 'onkure-hydration'
        ? ({ textContent: /id="onkure-hydration">([^<]*)<\/script>/.exec(html)?.[1] ?? null } as HTMLElement)
        : null,
  });
  return { root, data };
}

describe('server rendering (issue 11)', () => {
  it('[R2.1-1] the top page is rendered with its catalogue, and the data it was rendered from is in the page once', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const { root, data } = parts(res.body);
    const top = JSON.stringify(await api('contents/top_page_prize', { shop_id: 1, is_top_page: 1 }));
    const names = [...top.matchAll(/"prize_name":"([^"]+)"/g)].map((m) => m[1]!).slice(0, 3);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(root).toContain(name);
    expect(root).toContain('data-testid="prize-card"');
    const snapshots = Object.values(data?.preloaded ?? {}) as { state?: { kind?: string } }[];
    expect(snapshots.map((s) => s.state?.kind)).toEqual(['top']);
    expect(res.body.match(/id="onkure-hydration"/g)).toHaveLength(1);
  });

  it("[R2.1-1] the top page preloads the picture it leads with (the carousel's first slide: narrow on phones, wide above) in its head, ahead of the scripts, as the same AVIF candidates its <picture> offers", async () => {
    const html = (await get('/')).body;
    const head = html.slice(0, html.indexOf('</head>'));
    const attrs = (tag: string) =>
      Object.fromEntries(
        [...tag.matchAll(/([a-z]+)="([^"]*)"/gi)].map((m) => [m[1]!.toLowerCase(), m[2]!.replaceAll('&amp;', '&')]),
      );
    const links = [...head.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((m) => attrs(m[0]));
    const slides = (await api('contents/carousel', { shop_id: 1 })) as {
      carousel?: { list: { sp_img_url: string; pc_img_url: string }[] };
    };
    const first = slides.carousel?.list[0];
    expect(first).toBeDefined();
    const avif = (url: string) => [400, 640, 800, 1280].map((w) => `${url}?w=${w}&fm=avif ${w}w`).join(', ');
    expect(links.slice(0, 2)).toEqual([
      expect.objectContaining({
        imagesrcset: avif(first!.sp_img_url),
        type: 'image/avif',
        fetchpriority: 'high',
        media: '(max-width: 767px)',
      }),
      expect.objectContaining({
        imagesrcset: avif(first!.pc_img_url),
        type: 'image/avif',
        media: '(min-width: 768px)',
      }),
    ]);
    expect(links[0]!.imagesizes).toBe('(min-width: 1200px) 880px, (min-width: 1024px) 75vw, 100vw');
    expect(head.indexOf('rel="preload" as="image"')).toBeLessThan(head.indexOf('<script type="module"'));
    // The page shows that same picture first: its <picture> offers the same AVIF candidates at the
    // same sizes (so the browser takes the preloaded one), then WebP, then one JPEG, its size given.
    const root = parts(html).root;
    const picture = /<picture>(.*?)<\/picture>/.exec(root)![1]!;
    const sources = [...picture.matchAll(/<source[^>]*>/g)].map((m) => attrs(m[0]));
    expect(sources.find((x) => x.type === 'image/avif' && !x.media)).toEqual({
      type: 'image/avif',
      srcset: avif(first!.sp_img_url),
      sizes: links[0]!.imagesizes,
    });
    expect(sources.some((x) => x.type === 'image/webp' && !x.media)).toBe(true);
    expect(attrs(/<img[^>]*>/.exec(picture)![0])).toMatchObject({
      class: 'carousel__image',
      src: `${first!.sp_img_url}?w=800&fm=jpg`,
      width: '1280',
      height: '400',
      fetchpriority: 'high',
    });
    // Pages without a lead picture get no preload.
    expect((await get('/information')).body).not.toContain('rel="preload" as="image"');
  });

  it("a page links its own chunks (its module's and its features', with those they require) for the browser to load with the entry; the build's map stays on the server", async () => {
    const preloads = async (path: string) =>
      [...(await get(path)).body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(await preloads('/')).toEqual(['/assets/top-page.js', '/assets/rows.js']);
    const top = (await api('contents/top_page_prize', { shop_id: 1, is_top_page: 1 })) as {
      sale_list: { list: { station_id: number }[] }[];
    };
    expect(await preloads(`/game/${top.sale_list[0]!.list[0]!.station_id}`)).toEqual([
      '/assets/play-page.js',
      '/assets/rows.js',
      '/assets/play.js',
    ]);
    // The purchase pages take the money feature, which requires play.
    expect(await preloads('/settlement')).toEqual(['/assets/purchase-pages.js', '/assets/money.js', '/assets/play.js']);
    const html = (await get('/')).body;
    expect(html).not.toContain('onkure-page-chunks');
    expect(html).not.toContain('/assets/menu.js');
  });

  it('a page for signed-in players is rendered without deciding the session (the browser, which holds it, redirects a guest to sign in): no <Navigate> in the static router, no warning', async () => {
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');
    try {
      // Addresses no earlier test rendered (a rendered page is kept, and a kept one is not rendered again).
      for (const path of ['/settlement?from=ssr-probe', '/emailvalid?from=ssr-probe']) {
        const page = await get(path);
        expect(page.statusCode, path).toBe(200);
        expect(page.body).toContain('<div id="root">');
      }
      const said = [...errors.mock.calls, ...warnings.mock.calls].map((c) => c.map(String).join(' '));
      expect(said.filter((line) => /Navigate|StaticRouter/.test(line))).toEqual([]);
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
    }
  });

  it('[R2.1-5] [R2.3-3] a path that is no page answers HTTP 404 with the error page, rendered', async () => {
    for (const path of ['/no-such-character', '/game/abc', '/information/%3Cnot-a-tag%3E']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(parts(res.body).root, path).toContain('data-testid="error-page"');
    }
  });

  it("[R7-13] a play screen is rendered with its station's name and the page title of its route", async () => {
    const top = (await api('contents/top_page_prize', { shop_id: 1, is_top_page: 1 })) as {
      sale_list: { list: { station_id: number; prize_name: string }[] }[];
    };
    const { station_id: stationId, prize_name: name } = top.sale_list[0]!.list[0]!;
    const res = await get(`/game/${stationId}`);
    expect(res.statusCode).toBe(200);
    const { root, data } = parts(res.body);
    expect(root).toMatch(new RegExp(`<h1 class="play-screen__title">${name}</h1>`));
    expect(Object.values(data?.preloaded ?? {})).toEqual([expect.objectContaining({ stationId })]);
    expect(res.body).toMatch(/<title>[^<]*オンクレ<\/title>/);
  });

  it('[R2.1-1] the information list is rendered with its items', async () => {
    const list = JSON.stringify(await api('contents/information', { shop_id: 1 }));
    const title = /"title":"([^"]+)"/.exec(list)?.[1];
    expect(title).toBeTruthy();
    const res = await get('/information');
    expect(res.statusCode).toBe(200);
    expect(parts(res.body).root).toContain(title);
  });

  it('renders each request with its own container: concurrent renders of different pages each show their own page', async () => {
    const [top, info, missing] = await Promise.all([get('/'), get('/information'), get('/no-such-character')]);
    expect(parts(top.body).root).toContain('prize-card');
    expect(parts(info.body).root).toContain('information');
    expect(parts(info.body).root).not.toContain('prize-card');
    expect(missing.statusCode).toBe(404);
  });

  it("[R4.2-10] a station's status change shows on the next render of the top page (the kept answer is dropped)", async () => {
    type Top = { state: { catalogue: { sale_list: { list: { station_id: number; station_status: string }[] }[] } } };
    const statusIn = (html: string, id: number) =>
      (Object.values(parts(html).data?.preloaded ?? {})[0] as Top).state.catalogue.sale_list
        .flatMap((s) => s.list)
        .find((i) => i.station_id === id)?.station_status;
    const first = (await get('/')).body;
    const id = (Object.values(parts(first).data?.preloaded ?? {})[0] as Top).state.catalogue.sale_list[0]!.list[0]!
      .station_id;
    expect(statusIn(first, id)).toBe('open');
    const set = (status: string) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/operator/station_status',
        payload: { station_id: id, station_status: status },
        headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
      });
    expect((await set('maintenance')).statusCode).toBe(200);
    const after = (await get('/')).body;
    expect(statusIn(after, id)).toBe('maintenance');
    expect(parts(after).root).toContain('メンテナンス');
    expect((await set('open')).statusCode).toBe(200);
    expect(statusIn((await get('/')).body, id)).toBe('open');
  });

  it('a rendered page is kept for the next request of its address, sent compressed, and dropped by a station status change', async () => {
    const stationSet = (status: string) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/operator/station_status',
        payload: { station_id: 1, station_status: status },
        headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
      });
    const first = await get('/information');
    const before = t.server.pages.stats();
    const again = await t.server.app.inject({
      method: 'GET',
      url: '/information',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(t.server.pages.stats().renders).toBe(before.renders);
    expect(t.server.pages.stats().hits).toBe(before.hits + 1);
    expect(again.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(first.body);
    expect((await stationSet('maintenance')).statusCode).toBe(200);
    await get('/information');
    expect(t.server.pages.stats().renders).toBe(before.renders + 1);
    expect((await stationSet('open')).statusCode).toBe(200);
    // A 404 is rendered each time (any address a client invents), never kept.
    await get('/no-such-character');
    await get('/no-such-character');
    expect(t.server.pages.stats().renders).toBe(before.renders + 3);
  });

  it('a character split between two chunks of the rendered stream is read whole', async () => {
    const bytes = new TextEncoder().encode('景品一覧');
    async function* split() {
      yield bytes.slice(0, 4);
      yield bytes.slice(4);
    }
    expect(await readRenderedText(split())).toBe('景品一覧');
  });

  it('the page data cannot end its script element or open another (user text stays inert)', () => {
    const script = hydrationScript({ preloaded: { x: { title: '</script><script>alert(1)</script>&\u2028' } } });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).not.toContain('<script>alert');
    const text = /id="onkure-hydration">([^<]*)<\/script>/.exec(script)?.[1] ?? '';
    expect(JSON.parse(text)).toEqual({ preloaded: { x: { title: '</script><script>alert(1)</script>&\u2028' } } });
  });

  it('the API answers stay JSON: only pages are rendered', async () => {
    const res = await t.server.app.inject({ method: 'GET', url: '/api/no-such-call' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe("render budget: a script asking for new addresses cannot hold the server's thread", () => {
  const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'onkure-ssr-budget-'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    s = await startTestServer({
      inMemory: true,
      clock,
      env: { STATIC_DIR: dir },
      renderPages: createPageRenderer,
      renderLimits: { perClient: 3, windowMs: 10_000, inFlight: 2 },
    });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const from = (ip: string, url: string) =>
    s.server.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { accept: 'text/html' } });
  const rendered = (html: string) =>
    html.includes('id="onkure-hydration"') && html.includes('data-testid="prize-card"');
  const shell = (html: string) => html.includes('<div id="root"></div>') && !html.includes('id="onkure-hydration"');

  it("over its renders in the window a client gets the app's shell (200, the browser renders it), kept pages still come rendered, other clients are not affected, and the next window renders again", async () => {
    for (let n = 1; n <= 3; n += 1)
      expect(rendered((await from('10.0.0.1', `/?x=${n}`)).body), `render ${n}`).toBe(true);
    const over = await from('10.0.0.1', '/?x=4');
    expect(over.statusCode).toBe(200);
    expect(shell(over.body)).toBe(true);
    // An address already rendered is served from the kept pages, whoever asks.
    expect(rendered((await from('10.0.0.1', '/?x=1')).body)).toBe(true);
    expect(rendered((await from('10.0.0.2', '/?x=5')).body)).toBe(true);
    clock.advance(10_000);
    expect(rendered((await from('10.0.0.1', '/?x=6')).body)).toBe(true);
  });

  it('at most the in-flight limit of renders run at once; the others get the shell at once, and the budget is given back', async () => {
    clock.advance(10_000);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => from(`10.0.1.${i}`, `/?burst=${i}`)));
    const bodies = answers.map((a) => a.body);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(bodies.filter(rendered).length).toBeGreaterThanOrEqual(1);
    expect(bodies.filter(rendered).length).toBeLessThanOrEqual(2);
    expect(bodies.filter(shell).length).toBe(6 - bodies.filter(rendered).length);
    expect(rendered((await from('10.0.2.1', '/?after-burst')).body)).toBe(true);
  });
});
