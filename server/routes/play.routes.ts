import type { FastifyInstance } from 'fastify';
import {
  getReserveRequestSchema, reserveCancelRequestSchema, reserveRequestSchema, visitCancelRequestSchema, visitRequestSchema,
} from '../../src/contract';
import { requireUser } from '../auth/identity';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import { answerOrRefuse } from '../play/refusal';
import { StationReservations } from '../play/station-reservations';
import { StoreTcLedgerSource, VipGate } from '../play/vip-gate';
import type { ApiDeps } from './deps';

/** Station reservation calls: /v2/play/* of spec §7 plus the designed visit and reserve. */
export async function playRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const reservations = new StationReservations(deps.db, deps.catalogue, new VipGate(new StoreTcLedgerSource()), deps.now);

  app.post('/v2/play/get_reserve', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(getReserveRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ reserve_info: await reservations.getReserve(user.user_id, body.station_id) }));
  });

  app.post('/v2/play/visit', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(visitRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ reserve_info: await reservations.visit(user.user_id, body.station_id) }));
  });

  app.post('/v2/play/reserve', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(reserveRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok(await reservations.reserve(user.user_id, body.station_id, body.shop_id)));
  });

  app.post('/v2/play/reserve_cancel', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(reserveCancelRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ reserve_cancel: await reservations.cancelReservation(user.user_id, body.shop_id, body.reserve_cancel.station_setting_id) }));
  });

  app.post('/v2/play/visit_cancel', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(visitCancelRequestSchema, request.body, reply);
    if (!body) return reply;
    return answerOrRefuse(reply, async () => ok({ visit_cancel: await reservations.cancelVisit(user.user_id, body.station_setting_id) }));
  });
}
