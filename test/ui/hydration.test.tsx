/** @vitest-environment jsdom */
import { act } from '@testing-library/react';
import { type Root } from 'react-dom/client';
import { renderToPipeableStream } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKENS } from '../../src/application';
import { createAppContainer } from '../../src/main/container';
import { createPageRenderer } from '../../src/main/server-render';
import { FakeRealtime, FakeRtcVideo, FakeStillFrames } from '../../src/testing';
import { OnkureApp, hydrateServerPage, readHydrationData, routesLoadedFor } from '../../src/ui';
import { readRenderedText } from '../../server/http/pages';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';

/** The built page's shape (vite.config.ts writes the build's settings into it). */
const PAGE = `<!doctype html><html lang="ja"><head><meta name="onkure-feed" content="jpg" /><title>景品一覧</title>
<script type="application/json" id="onkure-build">{"VITE_ONKURE_TARGET":"web"}</script></head><body><div id="root"></div></body></html>`;

let t: TestServer;
let root: Root | null = null;
beforeAll(async () => {
  t = await startTestServer();
  // The spectators' HLS adapter loads hls.js on first use. Loaded here, its source is ready within
  // the first turns after hydrating, as it was when another test file in this worker had loaded it
  // (jsdom plays no HLS: the adapter fails over to the stills, which must not break the page).
  await import('hls.js/light');
});
afterAll(async () => t?.close());
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.restoreAllMocks();
  // Test files share the worker's document: leave it as found.
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

/** The server's page for `path`, as a browser receives it. */
async function serverPage(path: string): Promise<string> {
  const page = await createPageRenderer(PAGE)({ url: `http://localhost${path}`, fetch: injectFetch(t.server.app) });
  const html = await readRenderedText(page.body);
  await leaveServerRendererContext();
  return html;
}

/**
 * React's server renderer switches the shared context objects to a task's values when it runs the
 * task and leaves the last task's there when it stops (react-dom-server's performWork restores them
 * only when nested). A page with Suspense boundaries ends on a boundary's task, deep inside the
 * router's providers, so a browser renderer in the same realm (this test; never a browser) would
 * start inside a router. Rendering an empty tree switches them back to the defaults.
 */
async function leaveServerRendererContext(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    renderToPipeableStream(<></>, { onAllReady: resolve, onShellError: reject });
  });
}

/**
 * Loads the server's page into the document and hydrates it as src/main/browser.tsx does, with a
 * client container whose API calls are recorded. Answers the calls and the errors React reported.
 */
async function hydrate(path: string) {
  const html = await serverPage(path);
  window.history.replaceState(null, '', path);
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '';
  const calls: string[] = [];
  const fetch = injectFetch(t.server.app);
  const container = createAppContainer(
    { ...TEST_CLIENT_CONFIG, feedMode: 'jpg' },
    [
      [TOKENS.RealtimePort, new FakeRealtime()],
      [TOKENS.StillFramePort, new FakeStillFrames()],
      [TOKENS.RtcVideoPort, new FakeRtcVideo()],
    ],
    {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
      fetch: async (input, init) => {
        calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    },
  );
  const errors: unknown[] = [];
  const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const data = readHydrationData(document);
  expect(data).toBeDefined();
  const routeTable = await routesLoadedFor(path);
  const element = document.getElementById('root')!;
  const served = element.innerHTML;
  await act(async () => {
    root = hydrateServerPage(
      element,
      <OnkureApp container={container} hydrationData={data!} routeTable={routeTable} />,
      {
        onRecoverableError: (error) => errors.push(error),
      },
    );
  });
  // Let the page's effects run their commands (a call, if any, is recorded when it starts): a few
  // turns of the event loop, no timer.
  await act(async () => {
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  });
  return {
    calls,
    errors,
    consoleErrors: consoleErrors.mock.calls.map((c) => c.map(String).join(' ')),
    served,
    element,
  };
}

describe('hydrating a server-rendered page (issue 11)', () => {
  it('[R2.1-1] the top page hydrates without a mismatch and does not ask for the catalogue again', async () => {
    const { calls, errors, consoleErrors, element } = await hydrate('/');
    expect(errors).toEqual([]);
    expect(consoleErrors.filter((m) => /hydrat|did not match/i.test(m))).toEqual([]);
    expect(element.querySelectorAll('[data-testid="prize-card"]').length).toBeGreaterThan(0);
    // The catalogue and the editorial rows (carousel, news, new arrivals) all came in the page.
    for (const call of [
      'contents/top_page_prize',
      'contents/character',
      'contents/carousel',
      'contents/get_start_news',
      'store/new_arrivals',
    ]) {
      expect(calls).not.toContain(`/api/${call}`);
    }
    expect(element.querySelector('[data-testid="carousel"]')).not.toBeNull();
  });

  it('[R2.1-1] the top page is served whole, its parts in place, with no script for the page CSP to block', async () => {
    const html = await serverPage('/');
    // The parts React hydrates on their own: the page, its rows, the footer (completed boundaries).
    expect(html.match(/<!--\$-->/g)?.length ?? 0).toBeGreaterThan(5);
    // None moved to the end to be revealed by script, none left for the browser to render.
    expect(html).not.toMatch(/<!--\$[?!]-->/);
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.every((attributes) => /type="application\/json"/.test(attributes!))).toBe(true);
  });

  it('[R2.1-1] the arrival-items page hydrates with its arrivals and does not ask for them again', async () => {
    const { calls, errors, element } = await hydrate('/arrival-items');
    expect(errors).toEqual([]);
    expect(element.querySelectorAll('.arrival-grid li').length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.startsWith('/api/store/new_arrivals'))).toEqual([]);
  });

  it('[R2.1-5] the 404 page hydrates without a mismatch', async () => {
    const { errors, element } = await hydrate('/no-such-character');
    expect(errors).toEqual([]);
    expect(element.querySelector('[data-testid="error-page"]')).not.toBeNull();
  });

  it('a play screen hydrates without a mismatch, showing its front camera’s latest picture, and asks for neither its station nor its feed again', async () => {
    const top = (
      await t.server.app.inject({
        method: 'POST',
        url: '/api/contents/top_page_prize',
        payload: { shop_id: 1, is_top_page: 1 },
      })
    ).json<{ sale_list: { list: { station_id: number; prize_name: string; type: string }[] }[] }>();
    const normal = top.sale_list.flatMap((section) => section.list).find((item) => item.type === 'normal')!;
    const { calls, errors, element, served, consoleErrors } = await hydrate(`/game/${normal.station_id}`);
    expect(errors).toEqual([]);
    // Nothing in the page failed after hydrating (an error boundary would show the error page).
    expect(consoleErrors.filter((m) => /error boundary|above error occurred/i.test(m))).toEqual([]);
    expect(element.querySelector('h1')?.textContent).toBe(normal.prize_name);
    // The server's markup shows the picture; the feed's first still (a scripted one here) replaces it.
    const page = document.createElement('div');
    page.innerHTML = served;
    expect(page.querySelector('[data-testid="camera-poster"]')?.getAttribute('src')).toBe(
      `/api/stations/${normal.station_id}/camera/front.jpg`,
    );
    expect(element.querySelector('[data-testid="camera-poster"]')).toBeNull();
    expect(element.querySelector('.cameras__still')).not.toBeNull();
    expect(calls).not.toContain('/api/v2/play/station_info');
    expect(calls).not.toContain('/api/contents/prize');
  });

  it('[R2.1-1] the information list hydrates without a mismatch and is not asked for again', async () => {
    const { calls, errors } = await hydrate('/information');
    expect(errors).toEqual([]);
    expect(calls).not.toContain('/api/contents/information');
  });
});
