// The lite build (no Map/Set polyfills), the one inversify itself imports: one copy in the bundle.
import 'reflect-metadata/lite';
import { PassThrough } from 'node:stream';
import type { PageRenderer, RenderedPage } from '../contract';
import { renderToPipeableStream } from 'react-dom/server';
import { pageTitle } from '../domain';
import { hydrationScript, routeOnServer } from '../ui';
import { readClientConfig } from './client-config';
import { SCRIPTS_TEMPLATE_ATTRIBUTE } from './lead-picture';
import { createAppContainer, type HostEnvironment } from './container';
import { FEATURE_MODULES } from './features/eager';
import type { Feature } from '../application';

/** The id of the built page's element that carries the build's public settings (vite.config.ts writes it). */
export const BUILD_SETTINGS_ID = 'onkure-build';

export type { PageRenderer, PageRequest, RenderedPage } from '../contract';

/** How long a render may take before React gives up and the browser finishes the page. */
const RENDER_ABORT_MS = 5_000;

const ROOT = '<div id="root"></div>';

/** The build's public settings (its VITE_* variables), written into the built page by vite.config.ts. */
export function buildSettingsOf(template: string): Record<string, string> {
  const match = new RegExp(`<script type="application/json" id="${BUILD_SETTINGS_ID}">([^<]*)</script>`).exec(template);
  if (!match?.[1]) return {};
  const parsed: unknown = JSON.parse(match[1]);
  if (!parsed || typeof parsed !== 'object') return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The id of the built page's element that maps each lazily loaded module to its chunks (vite.config.ts writes it). */
export const PAGE_CHUNKS_ID = 'onkure-page-chunks';

const PAGE_CHUNKS = new RegExp(`<script type="application/json" id="${PAGE_CHUNKS_ID}">([^<]*)</script>`);

/** The build's map of lazily loaded modules to the chunks they load beyond the entry's (empty when the page has none). */
export function pageChunksOf(template: string): ReadonlyMap<string, readonly string[]> {
  const match = PAGE_CHUNKS.exec(template);
  if (!match?.[1]) return new Map();
  const parsed: unknown = JSON.parse(match[1]);
  if (!parsed || typeof parsed !== 'object') return new Map();
  return new Map(
    Object.entries(parsed).flatMap(([id, files]) =>
      Array.isArray(files) && files.every((f) => typeof f === 'string' && f.startsWith('/'))
        ? [[id, files as string[]] as const]
        : [],
    ),
  );
}

/** A feature's module (src/main/features/<feature>.ts) and those of the features it requires. */
function featureModules(features: readonly Feature[]): string[] {
  const all = new Set<Feature>();
  const add = (feature: Feature) => {
    if (all.has(feature)) return;
    all.add(feature);
    for (const required of FEATURE_MODULES[feature].requires ?? []) add(required);
  };
  features.forEach(add);
  return [...all].map((feature) => `src/main/features/${feature}.ts`);
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The server-side composition root: a renderer for the built page `template` (dist/client/index.html
 * with the server's feed mode in it). Each request gets its own container, configured exactly as the
 * browser's (the build's settings travel in the page), whose API calls go to `request.fetch`; its
 * routes' preloads run, the page is rendered into the template as a stream, and the loaded data is
 * written once into the page for the browser to adopt (docs/server-rendering.md).
 */
export function createPageRenderer(template: string): PageRenderer {
  if (!template.includes(ROOT)) throw new Error('the built page has no <div id="root"></div>');
  const settings = buildSettingsOf(template);
  const chunks = pageChunksOf(template);
  // The map is for this renderer only: the page goes out without it.
  template = template.replace(PAGE_CHUNKS, '');
  const at = template.indexOf(ROOT);
  const feed = /<meta name="onkure-feed" content="([a-z]*)"/.exec(template)?.[1] ?? null;
  const before = template.slice(0, at + ROOT.length - '</div>'.length);
  const after = template.slice(at + ROOT.length - '</div>'.length);

  return async (request) => {
    const url = new URL(request.url);
    const host: HostEnvironment = {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
      fetch: request.fetch,
    };
    const container = createAppContainer(readClientConfig(settings, url.origin, feed), [], host);
    const routing = await routeOnServer(container, new Request(url, { headers: { accept: 'text/html' } }));
    // The title of the route, then a preload of each picture the page leads with, ahead of the scripts.
    const leads = routing.leadImages
      .map(
        (image) =>
          `<link rel="preload" as="image" href="${escapeHtml(image.href)}"${image.srcSet ? ` imagesrcset="${escapeHtml(image.srcSet)}" imagesizes="${escapeHtml(image.sizes ?? '100vw')}"` : ''}${image.type ? ` type="${escapeHtml(image.type)}"` : ''} fetchpriority="high"${image.media ? ` media="${escapeHtml(image.media)}"` : ''}>`,
      )
      .join('');
    // Then the page's own chunks (its module and its features'), fetched with the entry's scripts.
    const pageScripts = [
      ...new Set([...routing.pageModules, ...featureModules(routing.features)].flatMap((id) => chunks.get(id) ?? [])),
    ]
      .map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`)
      .join('');
    // Inert until the page's entry releases them with the app's (src/main/lead-picture.ts).
    const pageTemplate = pageScripts ? `<template ${SCRIPTS_TEMPLATE_ATTRIBUTE}>${pageScripts}</template>` : '';
    // The page's own title and link-preview tags where its route has them, else the route's title.
    const title = routing.head?.title ?? pageTitle(url.pathname);
    const meta = (routing.head?.meta ?? [])
      .map((m) => `<meta ${m.attribute}="${escapeHtml(m.key)}" content="${escapeHtml(m.content)}">`)
      .join('');
    const head = before.replace(
      /<title>[^<]*<\/title>/,
      () => `<title>${escapeHtml(title)}</title>${meta}${leads}${pageTemplate}`,
    );
    const tail = `</div>${hydrationScript(routing.hydrationData)}${after.slice('</div>'.length)}`;
    return new Promise<RenderedPage>((resolve, reject) => {
      let status = 200;
      const react = renderToPipeableStream(
        routing.render({
          notFound: () => {
            status = 404;
          },
        }),
        {
          // Nothing suspends on the server (the route preloads ran before): the whole page is ready
          // with the shell, and is sent in one piece with no streaming script.
          onAllReady() {
            const body = new PassThrough();
            body.write(head);
            const markup = new PassThrough();
            markup.on('data', (chunk: Buffer) => body.write(chunk));
            markup.on('end', () => body.end(tail));
            react.pipe(markup);
            resolve({ status, body, ...(routing.noStore ? { noStore: true } : {}) });
          },
          onShellError: reject,
          // The page goes out whole, each Suspense boundary in place: React would otherwise move a
          // boundary past ~12.8 KB of markup to the end and reveal it with an inline script, which
          // the page's CSP does not run. The boundaries are there so the browser hydrates in parts.
          progressiveChunkSize: Number.POSITIVE_INFINITY,
        },
      );
      setTimeout(() => react.abort(), RENDER_ABORT_MS).unref();
    });
  };
}
