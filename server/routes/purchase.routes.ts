import type { FastifyInstance } from 'fastify';
import {
  isPayMethodOf, mobileItemsQuerySchema, payMethodImageKey, payMethodsFor, PURCHASE_ENDPOINTS, purchaseTcRequestSchema, settlementResultRequestSchema,
  type PayMethodId,
} from '../../src/contract';
import { bonusLabel, PURCHASE_MESSAGES } from '../../src/domain';
import { parseBody } from '../http/validate';
import { accountServices, answer } from '../account/services';
import { requireUser, requireUserFromHeader } from '../auth/identity';
import { ok, replyError } from '../http/reply';
import type { ApiDeps } from './deps';
import { imageUrl } from './images.routes';

/**
 * §7's two purchase GETs (token in the X-Access-Token header, path user_id = the token's user)
 * and the designed TC purchase and settlement-result calls.
 */
export async function purchaseRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const s = accountServices(deps);
  const image = imageUrl(deps.config.apiPrefix);
  const payImage = (id: PayMethodId) => image(payMethodImageKey(id));

  app.get<{ Params: { user_id: string } }>('/purchase/pay_method_list/:user_id', async (request, reply) => {
    const user = await requireUserFromHeader(deps.identity, request, reply, request.params.user_id);
    if (!user) return reply;
    return ok({ list: payMethodsFor(deps.config.target, payImage) });
  });

  app.get<{ Params: { user_id: string }; Querystring: Record<string, unknown> }>('/mobile/items/:user_id', async (request, reply) => {
    const user = await requireUserFromHeader(deps.identity, request, reply, request.params.user_id);
    if (!user) return reply;
    const query = parseBody(mobileItemsQuerySchema, request.query, reply);
    if (!query) return reply;
    if (query.payMethod && !isPayMethodOf(deps.config.target, query.payMethod)) return replyError(reply, 400, PURCHASE_MESSAGES.payMethodUnavailable);
    const products = await s.purchases.products(query.payMethod);
    return ok({
      list: products.map((p) => ({
        product_id: p.product_id, product_name: p.product_name, price: p.price, toll_tc: p.toll_tc, free_tc: p.free_tc,
        bonus_label: bonusLabel(p.free_tc), is_sale: p.is_sale ? 1 as const : 0 as const,
      })),
      registered_birth: (await s.purchases.hasBirth(user.user_id)) ? 1 as const : 0 as const,
      bonus_item_list: products.filter((p) => p.bonus_ticket > 0).map((p) => ({ product_id: p.product_id, item_name: 'チケット', count: p.bonus_ticket })),
      is_tc_sale: products.some((p) => p.is_sale) ? 1 as const : 0 as const,
      is_ticket_present: products.some((p) => p.bonus_ticket > 0) ? 1 as const : 0 as const,
    });
  });

  app.post(`/${PURCHASE_ENDPOINTS.purchaseTc}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(purchaseTcRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(await s.purchases.purchase(user.user_id, body.purchase)));
  });

  app.post(`/${PURCHASE_ENDPOINTS.settlementResult}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(settlementResultRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok({ settlement: await s.purchases.settlement(user.user_id, body.product_settlement_id) }));
  });
}
