import type { FastifyInstance } from 'fastify';
import {
  kujiPollingRequestSchema, kujiReserveCancelRequestSchema, kujiReserveRequestSchema, kujiStatusCheckRequestSchema,
} from '../../src/contract';
import { requireUser } from '../auth/identity';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import { KujiReservations } from '../kuji/kuji-reservations';
import { answerOrRefuse } from '../play/refusal';
import type { ApiDeps } from './deps';

/** Kuji play calls: /play/kuji_* of spec §7 plus the designed kuji_reserve. */
export async function kujiRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const kuji = new KujiReservations(deps.db, deps.now);

  app.post('/play/kuji_status_check', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(kujiStatusCheckRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok({ play_info: await kuji.statusCheck(user.user_id) });
  });

  app.post('/play/kuji_reserve', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(kujiReserveRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ play_info: await kuji.reserve(user.user_id, body.kuji_id, body.box_id) }));
  });

  app.post('/play/kuji_polling', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(kujiPollingRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ polling: { play_info: await kuji.polling(user.user_id, body.reserve_token, body.kuji_id, body.box_id) } }));
  });

  app.post('/play/kuji_reserve_cancel', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(kujiReserveCancelRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ play_info: await kuji.cancel(user.user_id, body.reserve_token, body.kuji_id, body.box_id) }));
  });
}
