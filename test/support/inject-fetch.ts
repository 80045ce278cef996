import type { FastifyInstance } from 'fastify';
import { inProcessFetch } from '../../server/http/pages';

/**
 * A `fetch` that answers through Fastify's `inject` (the server's own in-process fetch, which its
 * page renders use): pass it as `HostEnvironment.fetch` so the real ky adapters talk to an
 * in-process server.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return inProcessFetch(app);
}
