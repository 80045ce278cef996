import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { replyError } from './reply';

/** The console's built page inside the static folder (Vite's second HTML entry). */
export const OPERATOR_PAGE_FILE = 'operator.html';
/** The camera page (docs/live-feed.md "The camera page"), built with the console. */
export const CAMERA_PAGE_FILE = 'camera.html';

/**
 * The operator console's page at `/operator` and its client routes `/operator/*`: the static page
 * Vite built (no server rendering: it shows nothing before sign-in), under the same security headers
 * and strict CSP as every answer (registerSecurityHeaders is global). Its stylesheet stays a file
 * (style-src 'self'), so the CSP needs no hash for it. Never cached by a shared cache, never indexed.
 * The page is read once at start; without a build it answers 404.
 */
export function registerOperatorPage(app: FastifyInstance, staticDir: string): void {
  registerPage(app, staticDir, OPERATOR_PAGE_FILE, ['/operator', '/operator/*']);
  // The camera page: a phone or webcam publishes itself as a station's camera (with the station's key).
  registerPage(app, staticDir, CAMERA_PAGE_FILE, ['/camera']);
}

function registerPage(app: FastifyInstance, staticDir: string, file: string, paths: readonly string[]): void {
  const path = join(resolve(staticDir), file);
  const html = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const send = async (_request: unknown, reply: FastifyReply) => {
    if (html === null) return replyError(reply, 404);
    return reply
      .header('Cache-Control', 'no-store')
      .header('X-Robots-Tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  for (const at of paths) app.get(at, send);
}
