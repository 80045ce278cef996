import fp from 'fastify-plugin';
import { CompressedText, sendCompressed } from '../http/compressed';
import type { PageShell } from '../http/page-shell';
import { inProcessFetch, readRenderedText, type PageRequest, type RenderedPage } from '../http/pages';
import { DEFAULT_RENDER_LIMITS, RenderBudget } from '../http/render-budget';
import { replyError } from '../http/reply';
import type { ServerParts } from './server-parts';

const HTML = 'text/html; charset=utf-8';

/**
 * Every other GET is a page of the app (docs/server-rendering.md): rendered on the server with its
 * data and kept per address until the data behind it changes; the app's shell instead (the browser
 * renders it) until the store is open, without a renderer, for a client over its render budget, or
 * when rendering fails.
 */
export const pagesPlugin = fp<{ parts: ServerParts; pageShell: PageShell }>(async (app, { parts, pageShell }) => {
  const { config, options, pages } = parts;
  const renderBudget = new RenderBudget(parts.clock, options.renderLimits ?? DEFAULT_RENDER_LIMITS);
  // The app shell, with the live feed's default mode in its meta tag (ONKURE_FEED, docs/live-feed.md).
  let shell: string | null = null;
  const appShell = () => {
    if (shell === null) {
      const mode = config.feed.mode;
      shell = pageShell.html.replace(
        /<meta name="onkure-feed" content="[a-z]*"/,
        `<meta name="onkure-feed" content="${mode}"`,
      );
    }
    return shell;
  };
  let renderPage: ((request: PageRequest) => Promise<RenderedPage>) | null = null;
  const renderer = () => (renderPage ??= options.renderPages!(appShell()));
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith(`${config.apiPrefix}/`)) return replyError(reply, 404);
    reply.header('Cache-Control', 'no-cache');
    if (!options.renderPages || !parts.services) return reply.type(HTML).send(appShell());
    const accept = request.headers['accept-encoding'];
    const kept = pages.get(request.url);
    if (kept) return sendCompressed(reply, accept, kept, HTML);
    if (!renderBudget.take(request.ip)) return reply.type(HTML).send(appShell());
    try {
      // The address's host is ours, never the request's Host header: nothing rendered may depend on it.
      const page = await renderer()({
        url: `http://localhost${request.url}`,
        fetch: inProcessFetch(app, request.ip),
      });
      const html = await readRenderedText(page.body);
      // A page that may change or go at once for everyone (a shared clip): kept by no cache.
      if (page.noStore)
        return sendCompressed(
          reply.status(page.status).header('Cache-Control', 'no-store'),
          accept,
          new CompressedText(html),
          HTML,
        );
      return sendCompressed(reply.status(page.status), accept, pages.keep(request.url, page.status, html), HTML);
    } catch (error) {
      request.log.error({ err: error }, 'server render failed');
      return reply.type(HTML).send(appShell());
    } finally {
      renderBudget.release();
    }
  });
});
