import {
  ACCOUNT_ENDPOINTS,
  accountDeletePreviewRequestSchema,
  accountDeleteRequestSchema,
  addressChangeRequestSchema,
  addressDeleteRequestSchema,
  addressListRequestSchema,
  addressRegisterRequestSchema,
  zipLookupRequestSchema,
  inviteRequestSchema,
  nicknameSetRequestSchema,
  phoneSendCodeRequestSchema,
  phoneVerifyRequestSchema,
  presentCodeRequestSchema,
  profileGetRequestSchema,
  profileSetRequestSchema,
} from '../../src/contract';
import { checkAddress } from '../account/addresses.repository';
import { lookupZip } from '../account/zip-lookup';
import { UsersRepository } from '../account/users.repository';
import type { ApiDeps } from './deps';

/** Base of the links the invite text carries; configurable for deployments. */

/**
 * The designed account calls: addresses, profile, nickname, phone check, present code, invite, and
 * the account's deletion [R10-7].
 */
export async function accountRoutes({ route, services: s, config }: ApiDeps): Promise<void> {
  const E = ACCOUNT_ENDPOINTS;

  route.authed(`/${E.addressList}`, addressListRequestSchema, async (user) => {
    return { list: await s.addresses.list(user.user_id) };
  });

  route.authed(`/${E.addressRegister}`, addressRegisterRequestSchema, async (user, body) => {
    const address = await s.addresses.register(user.user_id, checkAddress(body.address));
    return { address, list: await s.addresses.list(user.user_id) };
  });

  route.authed(`/${E.addressChange}`, addressChangeRequestSchema, async (user, body) => {
    const { id, ...values } = body.address;
    const address = await s.addresses.change(user.user_id, id, checkAddress(values));
    return { address, list: await s.addresses.list(user.user_id) };
  });

  // Postal-code lookup (Japan Post's table, bundled): fills the prefecture and city of the address form.
  route.authed(`/${E.zipLookup}`, zipLookupRequestSchema, async (_user, body) => lookupZip(body.zip_lookup.zip));

  route.authed(`/${E.addressDelete}`, addressDeleteRequestSchema, async (user, body) => {
    return { list: await s.addresses.remove(user.user_id, body.address_delete.id) };
  });

  route.authed(`/${E.profileGet}`, profileGetRequestSchema, async (user) => {
    return UsersRepository.profileView(await s.users.get(user.user_id));
  });

  route.authed(`/${E.profileSet}`, profileSetRequestSchema, async (user, body) => {
    return UsersRepository.profileView(await s.users.setProfile(user.user_id, body.profile));
  });

  route.authed(`/${E.nicknameSet}`, nicknameSetRequestSchema, async (user, body) => {
    await s.users.setNickname(user.user_id, body.nickname.nickname);
    return UsersRepository.profileView(await s.users.get(user.user_id));
  });

  route.authed(`/${E.phoneSendCode}`, phoneSendCodeRequestSchema, async (user, body) => {
    return await s.verification.send(user.user_id, 'tel', body.phone.tel);
  });

  route.authed(`/${E.phoneVerify}`, phoneVerifyRequestSchema, async (user, body) => {
    const done = await s.verification.verify(user.user_id, 'tel', body.phone_verify.code);
    return { tel: done.target, tel_verified_at: done.verified_at };
  });

  route.authed(`/${E.presentCode}`, presentCodeRequestSchema, async (user, body, { request }) => {
    return await s.rewards.redeem(user.user_id, body.present_code.code, request.ip);
  });

  route.authed(`/${E.invite}`, inviteRequestSchema, async (user) => {
    return { invite_info: await s.rewards.inviteInfo(user.user_id, config.publicUrl) };
  });

  route.authed(`/${E.deletePreview}`, accountDeletePreviewRequestSchema, async (user) => ({
    preview: await s.accountDeletion.preview(user.user_id),
  }));

  route.authed(`/${E.delete}`, accountDeleteRequestSchema, async (user, body) => {
    await s.accountDeletion.delete(user.user_id, body.account_delete.password);
    return {};
  });
}
