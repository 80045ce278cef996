import type { FastifyInstance } from 'fastify';
import { FRAMED_PAGE_HEADERS, framedPage } from './provider/provider-pages';
import { PROVIDER_MESSAGES as M } from './provider/provider.messages';

/**
 * The shop's return page inside the purchase modal's iframe (`/purchase-return/{settlementId}`):
 * the provider sends the player here when the payment ends. The modal sees the frame arrive here
 * and asks the service how the settlement stands; the page itself only says so, without script.
 */
export async function shopReturnPage(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { id: string } }>('/purchase-return/:id', async (_request, reply) => {
    for (const [k, v] of Object.entries(FRAMED_PAGE_HEADERS)) reply.header(k, v);
    return reply.send(framedPage(M.returnTitle, `<h1>${M.returnTitle}</h1><p>${M.returnLead}</p>`));
  });
}
