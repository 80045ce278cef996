import type { FastifyInstance } from 'fastify';
import { topPagePrizeRequestSchema } from '../../src/contract';
import { buildTopPage } from '../catalogue/catalogue.repository';
import type { ApiDeps } from './deps';
import { ok, replyError } from '../http/reply';
import { parseBody } from '../http/validate';


/** The /contents/* calls of spec §7. */
export async function contentsRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  app.post('/contents/top_page_prize', async (request, reply) => {
    const body = parseBody(topPagePrizeRequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, 'ショップが見つかりません。');
    const page = await buildTopPage(deps.catalogue, body.shop_id, deps.now(), { signedIn: false, ...(body.fes_id ? { fesId: body.fes_id } : {}) });
    return ok(page);
  });
}
