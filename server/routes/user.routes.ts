import type { FastifyInstance } from 'fastify';
import {
  agreeRequestSchema, getAddressRequestSchema, getDeliveryRequestSchema, getEmailRequestSchema, itemRequestSchema,
  movieDeleteTokenRequestSchema, readInfoRequestSchema, setHideCharacterRequestSchema, setVolumeRequestSchema,
  tcRequestSchema, ticketRequestSchema, userAdditionalRequestSchema,
} from '../../src/contract';
import { addressResponseOf } from '../../src/domain';
import { parseBody } from '../http/validate';
import { accountServices, answer } from '../account/services';
import { requireUser } from '../auth/identity';
import { ok } from '../http/reply';
import type { ApiDeps } from './deps';

/** The /user/* calls of spec §7 and POST /movie/delete_token. All authenticated (body identity). */
export async function userRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const s = accountServices(deps);

  app.post('/user/set_hide_character', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(setHideCharacterRequestSchema, request.body, reply);
    if (!body) return reply;
    await s.users.setHideCharacter(user.user_id, body.set_hide_character.character);
    return ok({ set_hide_character: { character: body.set_hide_character.character } });
  });

  app.post('/user/set_volume', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(setVolumeRequestSchema, request.body, reply);
    if (!body) return reply;
    await s.users.setSound(user.user_id, body.set_volume.volume);
    return ok({ set_volume: { volume: body.set_volume.volume } });
  });

  app.post('/user/get_address', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(getAddressRequestSchema, request.body, reply)) return reply;
    return answer(reply, async () => {
      const u = await s.users.get(user.user_id);
      return ok({ data: addressResponseOf(await s.addresses.list(user.user_id), u) });
    });
  });

  app.post('/user/get_email', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(getEmailRequestSchema, request.body, reply)) return reply;
    return answer(reply, async () => {
      const u = await s.users.get(user.user_id);
      return ok({ email: u.email ?? '', email_verified: u.email_verified_at ? 1 : 0 });
    });
  });

  app.post('/user/get_delivery', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(getDeliveryRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok({ get_delivery_address: { data: await s.prizes.deliveryOf(user.user_id, body.get_delivery.play_history_id) } }));
  });

  app.post('/user/item', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(itemRequestSchema, request.body, reply)) return reply;
    const list = await s.prizes.list(user.user_id);
    return ok({ item_info: { list, count: list.length } });
  });

  app.post('/user/tc', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(tcRequestSchema, request.body, reply)) return reply;
    return ok({ data: await s.ledger.balance(user.user_id) });
  });

  app.post('/user/ticket', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(ticketRequestSchema, request.body, reply)) return reply;
    return ok({ data: { ticket_all: await s.ledger.tickets(user.user_id) } });
  });

  app.post('/user/read_info', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(readInfoRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok({ unread: await s.users.markRead(user.user_id, body.read_info?.type) });
  });

  app.post('/user/agree', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(agreeRequestSchema, request.body, reply)) return reply;
    await s.users.agree(user.user_id);
    return ok({ agree_contract: 1 as const });
  });

  app.post('/user/user_additional', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(userAdditionalRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok({ additional_list: await s.users.setAdditional(user.user_id, body.additional_key, body.additional_value) });
  });

  // Revokes the caller's live media (stream) tokens, not the access token: leaving the play screen
  // must end the stream without signing the player out (docs/api/user.md).
  app.post('/movie/delete_token', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(movieDeleteTokenRequestSchema, request.body, reply)) return reply;
    return ok({ revoked: await s.users.revokeMediaTokens(user.user_id) });
  });
}
