import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_ENDPOINTS, addressChangeRequestSchema, addressDeleteRequestSchema, addressListRequestSchema, addressRegisterRequestSchema,
  inviteRequestSchema, nicknameSetRequestSchema, phoneSendCodeRequestSchema, phoneVerifyRequestSchema, presentCodeRequestSchema,
  profileGetRequestSchema, profileSetRequestSchema,
} from '../../src/contract';
import { checkAddress } from '../account/addresses.repository';
import { parseBody } from '../http/validate';
import { accountServices, answer } from '../account/services';
import { UsersRepository } from '../account/users.repository';
import { requireUser } from '../auth/identity';
import { ok } from '../http/reply';
import type { ApiDeps } from './deps';

/** Base of the links the invite text carries; configurable for deployments. */

/** The designed account calls: addresses, profile, nickname, phone check, present code, invite. */
export async function accountRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const s = accountServices(deps);
  const E = ACCOUNT_ENDPOINTS;

  app.post(`/${E.addressList}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(addressListRequestSchema, request.body, reply)) return reply;
    return ok({ list: await s.addresses.list(user.user_id) });
  });

  app.post(`/${E.addressRegister}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(addressRegisterRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      const address = await s.addresses.register(user.user_id, checkAddress(body.address));
      return ok({ address, list: await s.addresses.list(user.user_id) });
    });
  });

  app.post(`/${E.addressChange}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(addressChangeRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      const { id, ...values } = body.address;
      const address = await s.addresses.change(user.user_id, id, checkAddress(values));
      return ok({ address, list: await s.addresses.list(user.user_id) });
    });
  });

  app.post(`/${E.addressDelete}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(addressDeleteRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok({ list: await s.addresses.remove(user.user_id, body.address_delete.id) }));
  });

  app.post(`/${E.profileGet}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(profileGetRequestSchema, request.body, reply)) return reply;
    return answer(reply, async () => ok(UsersRepository.profileView(await s.users.get(user.user_id))));
  });

  app.post(`/${E.profileSet}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(profileSetRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(UsersRepository.profileView(await s.users.setProfile(user.user_id, body.profile))));
  });

  app.post(`/${E.nicknameSet}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(nicknameSetRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      await s.users.setNickname(user.user_id, body.nickname.nickname);
      return ok(UsersRepository.profileView(await s.users.get(user.user_id)));
    });
  });

  app.post(`/${E.phoneSendCode}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(phoneSendCodeRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(await s.verification.send(user.user_id, 'tel', body.phone.tel)));
  });

  app.post(`/${E.phoneVerify}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(phoneVerifyRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      const done = await s.verification.verify(user.user_id, 'tel', body.phone_verify.code);
      return ok({ tel: done.target, tel_verified_at: done.verified_at });
    });
  });

  app.post(`/${E.presentCode}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(presentCodeRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(await s.rewards.redeem(user.user_id, body.present_code.code)));
  });

  app.post(`/${E.invite}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(inviteRequestSchema, request.body, reply)) return reply;
    return ok({ invite_info: await s.rewards.inviteInfo(user.user_id, deps.config.publicUrl) });
  });
}
