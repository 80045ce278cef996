import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { join, sep } from 'node:path';
import { CAMERA_PAGE_FILE, OPERATOR_PAGE_FILE, registerOperatorPage } from '../http/operator-page';

/**
 * The built app's files (STATIC_DIR): hashed assets cached for a year, everything else revalidated;
 * the pages themselves only at their addresses (the player's pages through the page renderer, the
 * console at /operator).
 */
export const staticPlugin: FastifyPluginAsync<{ staticDir: string }> = async (app, { staticDir }) => {
  const assetsDir = join(staticDir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: staticDir,
    wildcard: false,
    index: false,
    allowedPath: (path) =>
      path !== '/index.html' && path !== `/${OPERATOR_PAGE_FILE}` && path !== `/${CAMERA_PAGE_FILE}`,
    // Our own Cache-Control: with the plugin's on, it overwrites the header set here.
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  registerOperatorPage(app, staticDir);
};
