import type { FastifyInstance } from 'fastify';
import { newArrivalsQuerySchema } from '../../src/contract';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import type { ApiDeps } from './deps';

/** GET /store/new_arrivals: the public prize-store listing of new arrivals, no identity [R7-7]. */
export async function storeRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  app.get('/store/new_arrivals', async (request, reply) => {
    const query = parseBody(newArrivalsQuerySchema, request.query, reply);
    if (!query) return reply;
    reply.header('Cache-Control', 'public, max-age=60');
    return ok({ list: await deps.catalogue.newArrivals(deps.now(), query.limit) });
  });
}
