import {
  agreeRequestSchema,
  getAddressRequestSchema,
  getDeliveryRequestSchema,
  getEmailRequestSchema,
  itemRequestSchema,
  movieDeleteTokenRequestSchema,
  readInfoRequestSchema,
  setHideCharacterRequestSchema,
  setVolumeRequestSchema,
  tcRequestSchema,
  ticketRequestSchema,
  userAdditionalRequestSchema,
  userDataRequestSchema,
} from '../../src/contract';
import { addressResponseOf, vipLevelOf } from '../../src/domain';
import type { ApiDeps } from './deps';

/** The /user/* calls of spec §7 and POST /movie/delete_token. All authenticated (body identity). */
export async function userRoutes({ route, services: s }: ApiDeps): Promise<void> {
  route.authed('/user/set_hide_character', setHideCharacterRequestSchema, async (user, body) => {
    await s.users.setHideCharacter(user.user_id, body.set_hide_character.character);
    return { set_hide_character: { character: body.set_hide_character.character } };
  });

  route.authed('/user/set_volume', setVolumeRequestSchema, async (user, body) => {
    await s.users.setSound(user.user_id, body.set_volume.volume);
    return { set_volume: { volume: body.set_volume.volume } };
  });

  route.authed('/user/get_address', getAddressRequestSchema, async (user) => {
    const u = await s.users.get(user.user_id);
    return { data: addressResponseOf(await s.addresses.list(user.user_id), u) };
  });

  route.authed('/user/get_email', getEmailRequestSchema, async (user) => {
    const u = await s.users.get(user.user_id);
    return { email: u.email ?? '', email_verified: u.email_verified_at ? 1 : 0 };
  });

  route.authed('/user/get_delivery', getDeliveryRequestSchema, async (user, body) => {
    return {
      get_delivery_address: { data: await s.prizes.deliveryOf(user.user_id, body.get_delivery.play_history_id) },
    };
  });

  route.authed('/user/item', itemRequestSchema, async (user) => {
    const list = await s.prizes.list(user.user_id);
    return { item_info: { list, count: list.length } };
  });

  route.authed('/user/tc', tcRequestSchema, async (user) => {
    return { data: await s.ledger.balance(user.user_id) };
  });

  route.authed('/user/ticket', ticketRequestSchema, async (user) => {
    return { data: { ticket_all: await s.ledger.tickets(user.user_id) } };
  });

  route.authed('/user/read_info', readInfoRequestSchema, async (user, body) => {
    return { unread: await s.users.markRead(user.user_id, body.read_info?.type) };
  });

  route.authed('/user/agree', agreeRequestSchema, async (user) => {
    await s.users.agree(user.user_id);
    return { agree_contract: 1 as const };
  });

  route.authed('/user/user_additional', userAdditionalRequestSchema, async (user, body) => {
    return { additional_list: await s.users.setAdditional(user.user_id, body.additional_key, body.additional_value) };
  });

  // Designed call (docs/api/user.md): the user data of spec §3 minus the access token, all the caller's own.
  route.authed('/user/user_data', userDataRequestSchema, async (user) => {
    // The day's first read grants the day's free play [R11-8] (before the reads that follow).
    const daily = await s.dailyFree.grant(user.user_id);
    const [data, tc_info, tc_free_expiring, ticket_all, vip] = await Promise.all([
      s.users.userData(user.user_id),
      s.ledger.balance(user.user_id),
      s.ledger.nextFreeExpiry(user.user_id),
      s.ledger.tickets(user.user_id),
      s.vipGate.qualifies(s.store, user.user_id, s.clock.now()),
    ]);
    // VIP by purchases [R6-3, R2.6-4]: decided on every read, so it starts and ends with the window.
    const login_info = { ...data.login_info, vip_level: vipLevelOf(data.login_info.vip_level, vip) };
    const daily_free_play = { available: daily.available, day: daily.day, expires_at: daily.expires_at };
    return {
      user_data: { ...data, login_info, tc_info, tc_free_expiring, daily_free_play, ticket_info: { ticket_all } },
    };
  });

  // Revokes the caller's live media (stream) tokens, not the access token: leaving the play screen
  // must end the stream without signing the player out (docs/api/user.md).
  route.authed('/movie/delete_token', movieDeleteTokenRequestSchema, async (user) => {
    return { revoked: await s.users.revokeMediaTokens(user.user_id) };
  });
}
