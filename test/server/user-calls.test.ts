import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agreeResponseSchema, getAddressResponseSchema, getDeliveryResponseSchema, getEmailResponseSchema, itemInfoResponseSchema,
  movieDeleteTokenResponseSchema, readInfoResponseSchema, setHideCharacterResponseSchema, setVolumeResponseSchema,
  tcResponseSchema, ticketResponseSchema, userAdditionalResponseSchema,
} from '../../src/contract';
import { AddressesRepository } from '../../server/account/addresses.repository';
import { PrizesRepository } from '../../server/account/prizes.repository';
import { UsersRepository } from '../../server/account/users.repository';
import { Ledger } from '../../server/wallet/ledger';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, post, validAddress } from './user-helpers';
import { systemClock } from '../../server/clock';

let t: TestServer;
let a: TestUser;
let b: TestUser;
let prizes: PrizesRepository;
let users: UsersRepository;
let ledger: Ledger;
const now = systemClock;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  const store = t.server.store();
  const addresses = new AddressesRepository(store, now);
  prizes = new PrizesRepository(store, now, addresses);
  users = new UsersRepository(store, now);
  ledger = new Ledger(store, now);
  a = await createTestUser(t, { email: 'a@example.jp', birth: '1990-05-06', nickname: 'えーさん' });
  b = await createTestUser(t, { email: 'b@example.jp' });
});
afterAll(async () => t?.close());

const userRow = async (id: number) => (await t.server.store().query<Record<string, unknown>>('SELECT * FROM users WHERE user_id = $1', [id]))[0]!;

describe('§7 /user/* calls', () => {
  it('[R7-6][R5-1][R3-18] POST /user/set_hide_character stores the flag coerced to 1 or 0', async () => {
    for (const [sent, stored] of [[1, 1], [0, 0], [true, 1], [false, 0], ['1', 1], ['0', 0]] as const) {
      const body = setHideCharacterResponseSchema.parse(expectOk(await post(t, 'user/set_hide_character', as(a, { set_hide_character: { character: sent } }))));
      expect(body.set_hide_character.character).toBe(stored);
      expect((await userRow(a.user_id)).hide_character).toBe(stored);
    }
    for (const bad of [2, -1, 'yes', null, 0.5]) {
      await expectRefusedUnchanged(t, () => post(t, 'user/set_hide_character', as(a, { set_hide_character: { character: bad } })), 400);
    }
  });

  it('[R7-6][R5-1][R3-18] POST /user/set_volume stores the sound flag coerced to 1 or 0', async () => {
    setVolumeResponseSchema.parse(expectOk(await post(t, 'user/set_volume', as(a, { set_volume: { volume: false } }))));
    expect((await userRow(a.user_id)).sound).toBe(0);
    expectOk(await post(t, 'user/set_volume', as(a, { set_volume: { volume: '1' } })));
    expect((await userRow(a.user_id)).sound).toBe(1);
  });

  it('[R7-6][R3-4][R5-5] POST /user/get_address answers the address response with the main address flattened', async () => {
    const empty = getAddressResponseSchema.parse(expectOk(await post(t, 'user/get_address', as(a, { get_address: {} }))));
    expect(empty.data.address_bool).toBe(false);
    expect(empty.data.all_address).toEqual({ id: 0, birth: '1990-05-06', email: 'a@example.jp', list: [] });
    const reg = expectOk(await post(t, 'account/address/register', as(a, { address: validAddress() })));
    const id = (reg.address as { id: number }).id;
    expectOk(await post(t, 'account/address/register', as(a, { address: validAddress({ address1: '大阪府', zip: '5300001' }) })));
    const body = getAddressResponseSchema.parse(expectOk(await post(t, 'user/get_address', as(a, { get_address: {} }))));
    expect(body.data).toMatchObject({
      address_bool: true, first_name: '花子', last_name: '山田', zip: '150-0001', address1: '東京都', tel: '09012345678', birth: '1990-05-06',
    });
    expect(body.data.all_address.id).toBe(id);
    expect(body.data.all_address.list).toHaveLength(2);
    expect(body.data.all_address.list.filter((x) => x.is_main === 1)).toHaveLength(1);
  });

  it('[R7-6] POST /user/get_email answers the current e-mail and whether it is verified', async () => {
    const body = getEmailResponseSchema.parse(expectOk(await post(t, 'user/get_email', as(a))));
    expect(body).toMatchObject({ email: 'a@example.jp', email_verified: 0 });
  });

  it('[R7-6][R3-15] POST /user/get_delivery answers get_delivery_address.data for the caller\'s prize', async () => {
    const id = await prizes.recordWin(a.user_id, { prize_kind: 'crane', product_name: 'ふわふわぬいぐるみ' });
    const before = getDeliveryResponseSchema.parse(expectOk(await post(t, 'user/get_delivery', as(a, { get_delivery: { play_history_id: id } }))));
    expect(before.get_delivery_address.data).toMatchObject({ play_history_id: id, delivery_status: 'not_requested', prize_shipmented_at: '-', prize_contact_number: '' });
    expect(before.get_delivery_address.data.address?.zip).toBe('150-0001');
    const [main] = await t.server.store().query<{ id: number }>('SELECT id FROM addresses WHERE user_id = $1 AND is_main', [a.user_id]);
    await prizes.requestDelivery(a.user_id, [id], main!.id);
    const after = getDeliveryResponseSchema.parse(expectOk(await post(t, 'user/get_delivery', as(a, { get_delivery: { play_history_id: id } }))));
    expect(after.get_delivery_address.data.delivery_status).toBe('requested');
    expect(after.get_delivery_address.data.prize_shipmented_at).toBe('-');
  });

  it('[R7-6] POST /user/item answers item_info with the caller\'s won prizes only', async () => {
    await prizes.recordWin(a.user_id, { prize_kind: 'kuji', product_name: 'A賞 フィギュア', kuji_name: 'にゃんこくじ' });
    await prizes.recordWin(b.user_id, { prize_kind: 'crane', product_name: 'Bさんの景品' });
    const body = itemInfoResponseSchema.parse(expectOk(await post(t, 'user/item', as(a))));
    expect(body.item_info.count).toBe(body.item_info.list.length);
    expect(body.item_info.list.map((p) => p.product_name)).toEqual(expect.arrayContaining(['A賞 フィギュア', 'ふわふわぬいぐるみ']));
    expect(body.item_info.list.map((p) => p.product_name)).not.toContain('Bさんの景品');
  });

  it('[R7-6][R1-2] POST /user/tc answers tc_all = tc_free + tc_toll from the ledger', async () => {
    expect(tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(b)))).data).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    await ledger.credit(a.user_id, 'free', { amount: 300, reason: 'admin', idempotencyKey: 'tc-test-free' });
    await ledger.credit(a.user_id, 'toll', { amount: 1200, reason: 'purchase', idempotencyKey: 'tc-test-toll' });
    const data = tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(a)))).data;
    expect(data).toEqual({ tc_all: 1500, tc_free: 300, tc_toll: 1200 });
  });

  it('[R7-6][R1-2] POST /user/ticket answers ticket_all, counted apart from TC', async () => {
    await ledger.creditTickets(a.user_id, { amount: 4, reason: 'admin', idempotencyKey: 'ticket-test' });
    expect(ticketResponseSchema.parse(expectOk(await post(t, 'user/ticket', as(a)))).data).toEqual({ ticket_all: 4 });
    expect(tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(a)))).data.tc_all).toBe(1500);
  });

  it('[R7-6] POST /user/read_info clears one unread flag or all of them', async () => {
    await users.markUnread(a.user_id, 'news');
    await users.markUnread(a.user_id, 'prize');
    const one = readInfoResponseSchema.parse(expectOk(await post(t, 'user/read_info', as(a, { read_info: { type: 'news' } }))));
    expect(one.unread).toMatchObject({ news: 0, prize: 1 });
    const all = readInfoResponseSchema.parse(expectOk(await post(t, 'user/read_info', as(a))));
    expect(Object.values(all.unread).every((v) => v === 0)).toBe(true);
  });

  it('[R7-6] POST /user/agree records agree_contract 1 and refuses any other value', async () => {
    await expectRefusedUnchanged(t, () => post(t, 'user/agree', as(a, { agree_contract: 0 })), 400);
    agreeResponseSchema.parse(expectOk(await post(t, 'user/agree', as(a, { agree_contract: 1 }))));
    expect((await userRow(a.user_id)).agree_contract).toBe(1);
  });

  it('[R7-6] POST /user/user_additional sets whitelisted flags only', async () => {
    const body = userAdditionalResponseSchema.parse(expectOk(await post(t, 'user/user_additional', as(a, { additional_key: 'tutorial_top', additional_value: 1 }))));
    expect(body.additional_list).toEqual({ tutorial_top: 1, tutorial_play: 0 });
    const r = await expectRefusedUnchanged(t, () => post(t, 'user/user_additional', as(a, { additional_key: 'vip_level', additional_value: 1 })), 400);
    expect(r.json.error_info).toBe('設定できない項目です。');
  });

  it('[R7-6] POST /movie/delete_token revokes the caller\'s media tokens, not the access token', async () => {
    await users.recordMediaToken(a.user_id, 'media-token-a-1', 1, 60_000);
    await users.recordMediaToken(b.user_id, 'media-token-b-1', 1, 60_000);
    const body = movieDeleteTokenResponseSchema.parse(expectOk(await post(t, 'movie/delete_token', as(a, { read_info: {} }))));
    expect(body.revoked).toBe(1);
    const live = await t.server.store().query<{ user_id: number }>('SELECT user_id FROM media_tokens WHERE revoked_at IS NULL');
    expect(live.map((r) => r.user_id)).toEqual([b.user_id]);
    expectOk(await post(t, 'user/tc', as(a)));
  });
});

describe('identity rules on the /user/* calls', () => {
  const calls: [string, Record<string, unknown>][] = [
    ['user/set_hide_character', { set_hide_character: { character: 1 } }],
    ['user/set_volume', { set_volume: { volume: 0 } }],
    ['user/get_address', { get_address: {} }],
    ['user/get_email', {}],
    ['user/get_delivery', { get_delivery: { play_history_id: 1 } }],
    ['user/item', {}],
    ['user/tc', {}],
    ['user/ticket', {}],
    ['user/read_info', {}],
    ['user/agree', { agree_contract: 1 }],
    ['user/user_additional', { additional_key: 'tutorial_play', additional_value: 1 }],
    ['movie/delete_token', { read_info: {} }],
  ];

  it('[R3-1][R7-4] refuses every call without identity, with a wrong token, or with B\'s token and A\'s user_id', async () => {
    for (const [path, extra] of calls) {
      await expectRefusedUnchanged(t, () => post(t, path, extra), 401);
      await expectRefusedUnchanged(t, () => post(t, path, { ...extra, user_id: a.user_id, access_token: 'x'.repeat(43) }), 401);
      await expectRefusedUnchanged(t, () => post(t, path, { ...extra, user_id: a.user_id, access_token: b.access_token }), 401);
    }
  });

  it('B cannot read A\'s delivery through A\'s play_history_id', async () => {
    const id = await prizes.recordWin(a.user_id, { prize_kind: 'crane', product_name: 'Aさんだけの景品' });
    const r = await expectRefusedUnchanged(t, () => post(t, 'user/get_delivery', as(b, { get_delivery: { play_history_id: id } })), 404);
    expect(JSON.stringify(r.json)).not.toContain('Aさんだけの景品');
  });

  it('B\'s calls never answer or change A\'s data', async () => {
    const aBefore = await userRow(a.user_id);
    expectOk(await post(t, 'user/set_hide_character', as(b, { set_hide_character: { character: 0 } })));
    expectOk(await post(t, 'movie/delete_token', as(b, { read_info: {} })));
    expectOk(await post(t, 'user/read_info', as(b)));
    expect(await userRow(a.user_id)).toEqual(aBefore);
    const addr = getAddressResponseSchema.parse(expectOk(await post(t, 'user/get_address', as(b, { get_address: {} }))));
    expect(addr.data.all_address.list).toEqual([]);
    expect(tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(b)))).data.tc_all).toBe(0);
  });

  it('answers error_code 9002 (invaliduser) to a suspended user, and changes nothing', async () => {
    const suspended = await createTestUser(t, { status: 2 });
    for (const [path, extra] of calls) {
      const r = await expectRefusedUnchanged(t, () => post(t, path, as(suspended, extra)), 403);
      expect(r.json.error_code).toBe(9002);
    }
  });
});
