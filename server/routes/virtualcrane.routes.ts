import type { FastifyInstance } from 'fastify';
import { virtualCraneListRequestSchema } from '../../src/contract';
import { requireUser } from '../auth/identity';
import { ContentsRepository } from '../catalogue/contents.repository';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import type { ApiDeps } from './deps';

/** POST /virtualcrane/list: signed-in users only, since guests cannot see the virtual crane [R6-1]. */
export async function virtualCraneRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const contents = new ContentsRepository(deps.db, deps.catalogue.imageUrl);
  app.post('/virtualcrane/list', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(virtualCraneListRequestSchema, request.body, reply);
    if (!body) return reply;
    const { list, newCount } = await contents.virtualCranes(deps.now());
    return ok({ list, Badge: newCount });
  });
}
