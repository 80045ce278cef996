import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agreeResponseSchema,
  getAddressResponseSchema,
  getDeliveryResponseSchema,
  getEmailResponseSchema,
  itemInfoResponseSchema,
  movieDeleteTokenResponseSchema,
  readInfoResponseSchema,
  setHideCharacterResponseSchema,
  setVolumeResponseSchema,
  tcResponseSchema,
  ticketResponseSchema,
  userAdditionalResponseSchema,
  userDataResponseSchema,
} from '../../src/contract';
import { RESERVING_STATUSES } from '../../src/domain';
import { AddressesRepository } from '../../server/account/addresses.repository';
import { PrizesRepository } from '../../server/delivery/prizes.repository';
import { UsersRepository } from '../../server/account/users.repository';
import { Ledger } from '../../server/wallet/ledger';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, JAPANESE, post, validAddress } from './user-helpers';
import { systemClock } from '../../server/clock';
import { stationOps } from '../support/station-ops';

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

const userRow = async (id: number) =>
  (await t.server.store().query<Record<string, unknown>>('SELECT * FROM users WHERE user_id = $1', [id]))[0]!;

describe('§7 /user/* calls', () => {
  it('[R7-6][R5-1][R3-18] POST /user/set_hide_character stores the flag coerced to 1 or 0', async () => {
    for (const [sent, stored] of [
      [1, 1],
      [0, 0],
      [true, 1],
      [false, 0],
      ['1', 1],
      ['0', 0],
    ] as const) {
      const body = setHideCharacterResponseSchema.parse(
        expectOk(await post(t, 'user/set_hide_character', as(a, { set_hide_character: { character: sent } }))),
      );
      expect(body.set_hide_character.character).toBe(stored);
      expect((await userRow(a.user_id)).hide_character).toBe(stored);
    }
    for (const bad of [2, -1, 'yes', null, 0.5]) {
      await expectRefusedUnchanged(
        t,
        () => post(t, 'user/set_hide_character', as(a, { set_hide_character: { character: bad } })),
        400,
      );
    }
  });

  it('[R7-6][R5-1][R3-18] POST /user/set_volume stores the sound flag coerced to 1 or 0', async () => {
    setVolumeResponseSchema.parse(expectOk(await post(t, 'user/set_volume', as(a, { set_volume: { volume: false } }))));
    expect((await userRow(a.user_id)).sound).toBe(0);
    expectOk(await post(t, 'user/set_volume', as(a, { set_volume: { volume: '1' } })));
    expect((await userRow(a.user_id)).sound).toBe(1);
  });

  it('[R7-6][R3-4][R5-5] POST /user/get_address answers the address response with the main address flattened', async () => {
    const empty = getAddressResponseSchema.parse(
      expectOk(await post(t, 'user/get_address', as(a, { get_address: {} }))),
    );
    expect(empty.data.address_bool).toBe(false);
    expect(empty.data.all_address).toEqual({ id: 0, birth: '1990-05-06', email: 'a@example.jp', list: [] });
    const reg = expectOk(await post(t, 'account/address/register', as(a, { address: validAddress() })));
    const id = (reg.address as { id: number }).id;
    expectOk(
      await post(
        t,
        'account/address/register',
        as(a, { address: validAddress({ address1: '大阪府', zip: '5300001' }) }),
      ),
    );
    const body = getAddressResponseSchema.parse(
      expectOk(await post(t, 'user/get_address', as(a, { get_address: {} }))),
    );
    expect(body.data).toMatchObject({
      address_bool: true,
      first_name: '花子',
      last_name: '山田',
      zip: '150-0001',
      address1: '東京都',
      tel: '09012345678',
      birth: '1990-05-06',
    });
    expect(body.data.all_address.id).toBe(id);
    expect(body.data.all_address.list).toHaveLength(2);
    expect(body.data.all_address.list.filter((x) => x.is_main === 1)).toHaveLength(1);
  });

  it('[R7-6] POST /user/get_email answers the current e-mail and whether it is verified', async () => {
    const body = getEmailResponseSchema.parse(expectOk(await post(t, 'user/get_email', as(a))));
    expect(body).toMatchObject({ email: 'a@example.jp', email_verified: 0 });
  });

  it("[R7-6][R3-15] POST /user/get_delivery answers get_delivery_address.data for the caller's prize", async () => {
    const id = await prizes.recordWin(a.user_id, { prize_kind: 'crane', product_name: 'ふわふわぬいぐるみ' });
    const before = getDeliveryResponseSchema.parse(
      expectOk(await post(t, 'user/get_delivery', as(a, { get_delivery: { play_history_id: id } }))),
    );
    expect(before.get_delivery_address.data).toMatchObject({
      play_history_id: id,
      delivery_status: 'not_requested',
      prize_shipmented_at: '-',
      prize_contact_number: '',
    });
    expect(before.get_delivery_address.data.address?.zip).toBe('150-0001');
    const [main] = await t.server
      .store()
      .query<{ id: number }>('SELECT id FROM addresses WHERE user_id = $1 AND is_main', [a.user_id]);
    expectOk(
      await post(
        t,
        'delivery/request',
        as(a, {
          delivery_request: { request_id: `req-${id}-get-delivery`, play_history_ids: [id], address_id: main!.id },
        }),
      ),
    );
    const after = getDeliveryResponseSchema.parse(
      expectOk(await post(t, 'user/get_delivery', as(a, { get_delivery: { play_history_id: id } }))),
    );
    expect(after.get_delivery_address.data.delivery_status).toBe('requested');
    expect(after.get_delivery_address.data.prize_shipmented_at).toBe('-');
  });

  it("[R7-6] POST /user/item answers item_info with the caller's won prizes only", async () => {
    await prizes.recordWin(a.user_id, {
      prize_kind: 'kuji',
      product_name: 'A賞 フィギュア',
      kuji_name: 'にゃんこくじ',
    });
    await prizes.recordWin(b.user_id, { prize_kind: 'crane', product_name: 'Bさんの景品' });
    const body = itemInfoResponseSchema.parse(expectOk(await post(t, 'user/item', as(a))));
    expect(body.item_info.count).toBe(body.item_info.list.length);
    expect(body.item_info.list.map((p) => p.product_name)).toEqual(
      expect.arrayContaining(['A賞 フィギュア', 'ふわふわぬいぐるみ']),
    );
    expect(body.item_info.list.map((p) => p.product_name)).not.toContain('Bさんの景品');
  });

  it('[R7-6][R1-2] POST /user/tc answers tc_all = tc_free + tc_toll from the ledger', async () => {
    expect(tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(b)))).data).toEqual({
      tc_all: 0,
      tc_free: 0,
      tc_toll: 0,
    });
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
    const one = readInfoResponseSchema.parse(
      expectOk(await post(t, 'user/read_info', as(a, { read_info: { type: 'news' } }))),
    );
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
    const body = userAdditionalResponseSchema.parse(
      expectOk(await post(t, 'user/user_additional', as(a, { additional_key: 'tutorial_top', additional_value: 1 }))),
    );
    expect(body.additional_list).toEqual({ tutorial_top: 1, tutorial_play: 0 });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'user/user_additional', as(a, { additional_key: 'vip_level', additional_value: 1 })),
      400,
    );
    expect(r.json.error_info).toBe('設定できない項目です。');
  });

  it("[R7-6] POST /movie/delete_token revokes the caller's media tokens, not the access token", async () => {
    await users.recordMediaToken(a.user_id, 'media-token-a-1', 1, 60_000);
    await users.recordMediaToken(b.user_id, 'media-token-b-1', 1, 60_000);
    const body = movieDeleteTokenResponseSchema.parse(
      expectOk(await post(t, 'movie/delete_token', as(a, { read_info: {} }))),
    );
    expect(body.revoked).toBe(1);
    const live = await t.server
      .store()
      .query<{ user_id: number }>('SELECT user_id FROM media_tokens WHERE revoked_at IS NULL');
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
    ['user/user_data', {}],
  ];

  it("[R3-1][R7-4] refuses every call without identity, with a wrong token, or with B's token and A's user_id", async () => {
    for (const [path, extra] of calls) {
      await expectRefusedUnchanged(t, () => post(t, path, extra), 401);
      await expectRefusedUnchanged(
        t,
        () => post(t, path, { ...extra, user_id: a.user_id, access_token: 'x'.repeat(43) }),
        401,
      );
      await expectRefusedUnchanged(
        t,
        () => post(t, path, { ...extra, user_id: a.user_id, access_token: b.access_token }),
        401,
      );
    }
  });

  it("B cannot read A's delivery through A's play_history_id", async () => {
    const id = await prizes.recordWin(a.user_id, { prize_kind: 'crane', product_name: 'Aさんだけの景品' });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'user/get_delivery', as(b, { get_delivery: { play_history_id: id } })),
      404,
    );
    expect(JSON.stringify(r.json)).not.toContain('Aさんだけの景品');
  });

  it("B's calls never answer or change A's data", async () => {
    const aBefore = await userRow(a.user_id);
    expectOk(await post(t, 'user/set_hide_character', as(b, { set_hide_character: { character: 0 } })));
    expectOk(await post(t, 'movie/delete_token', as(b, { read_info: {} })));
    expectOk(await post(t, 'user/read_info', as(b)));
    expect(await userRow(a.user_id)).toEqual(aBefore);
    const addr = getAddressResponseSchema.parse(
      expectOk(await post(t, 'user/get_address', as(b, { get_address: {} }))),
    );
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

describe('POST /user/user_data (designed call, docs/api/user.md)', () => {
  const userData = async (u: TestUser) =>
    userDataResponseSchema.parse(expectOk(await post(t, 'user/user_data', as(u)))).user_data;

  it("[R3-6] answers the caller's user data of spec §3, all of it the caller's own and without the access token", async () => {
    const c = await createTestUser(t, { email: 'c@example.jp', nickname: 'しーさん', birth: '1988-02-03' });
    await users.setSound(c.user_id, 0);
    await users.setAdditional(c.user_id, 'tutorial_play', 1);
    await users.markUnread(c.user_id, 'kuji');
    await ledger.credit(c.user_id, 'free', { amount: 120, reason: 'admin', idempotencyKey: 'user-data-free' });
    await ledger.creditTickets(c.user_id, { amount: 2, reason: 'admin', idempotencyKey: 'user-data-ticket' });
    const res = await post(t, 'user/user_data', as(c));
    const data = userDataResponseSchema.parse(expectOk(res)).user_data;
    expect(data.auth_info).toEqual({ user_id: c.user_id, agree_contract: 0 });
    expect(JSON.stringify(res.json)).not.toContain(c.access_token);
    expect(JSON.stringify(res.json)).not.toContain('access_token');
    expect(data.login_info).toMatchObject({
      sound: 0,
      hide_character: 0,
      vip_level: 0,
      status: 1,
      is_sms: 0,
      notice_get: 1,
      play_info: { station_id: null, reserve_status: null },
      additional_list: { tutorial_top: 0, tutorial_play: 1 },
      modal_list: [],
    });
    expect(data.nickname_info).toEqual({ userId: c.user_id, nickname: 'しーさん', isNicknameUnregistered: false });
    expect(data.profile).toMatchObject({ sex: 0, birth: '1988-02-03', prefectures: '' });
    expect(data.tc_info).toEqual({ tc_all: 120, tc_free: 120, tc_toll: 0 });
    expect(data.ticket_info).toEqual({ ticket_all: 2 });
    expect(data.unread).toMatchObject({ kuji: 1, news: 0 });
    expect(data.crane_items).toEqual([]);
    expect(data.email).toBe('c@example.jp');
    // The same values the single-purpose calls answer.
    expect(tcResponseSchema.parse(expectOk(await post(t, 'user/tc', as(c)))).data).toEqual(data.tc_info);
    expect(ticketResponseSchema.parse(expectOk(await post(t, 'user/ticket', as(c)))).data).toEqual(data.ticket_info);
  });

  it('[R6-2] [R2.6-4] carries vip_level: above normal for a VIP user, 0 for a normal one', async () => {
    const vip = await createTestUser(t, { vip_level: 2 });
    const normal = await createTestUser(t);
    expect((await userData(vip)).login_info.vip_level).toBe(2);
    expect((await userData(normal)).login_info.vip_level).toBe(0);
  });

  it("lists the caller's crane items (a second gift of a kind adds to its count); a user with none gets an empty list", async () => {
    const c = await createTestUser(t);
    const d = await createTestUser(t);
    await users.giveCraneItem(c.user_id, { item_id: 2, name: 'アームパワーアップ' }, 1);
    await users.giveCraneItem(c.user_id, { item_id: 1, name: 'おためしチケット' }, 3);
    await users.giveCraneItem(c.user_id, { item_id: 2, name: 'アームパワーアップ' }, 2);
    expect((await userData(c)).crane_items).toEqual([
      { item_id: 1, name: 'おためしチケット', count: 3 },
      { item_id: 2, name: 'アームパワーアップ', count: 3 },
    ]);
    expect((await userData(d)).crane_items).toEqual([]);
  });

  it("[R3-1] [R7-4] another user's token never reads this user's data: with A's user_id it is 401, alone it answers only B's own", async () => {
    const c = await createTestUser(t, { email: 'secret-c@example.jp', nickname: 'ひみつのしー', vip_level: 3 });
    const d = await createTestUser(t, { email: 'd@example.jp' });
    await users.giveCraneItem(c.user_id, { item_id: 7, name: 'しーさんだけのアイテム' }, 1);
    const refused = await expectRefusedUnchanged(
      t,
      () => post(t, 'user/user_data', { user_id: c.user_id, access_token: d.access_token }),
      401,
    );
    const own = await post(t, 'user/user_data', as(d));
    const data = userDataResponseSchema.parse(expectOk(own)).user_data;
    expect(data.auth_info.user_id).toBe(d.user_id);
    expect(data.nickname_info.userId).toBe(d.user_id);
    expect(data.email).toBe('d@example.jp');
    expect(data.login_info.vip_level).toBe(0);
    expect(data.crane_items).toEqual([]);
    for (const answer of [refused.json, own.json]) {
      for (const secret of ['secret-c@example.jp', 'ひみつのしー', 'しーさんだけのアイテム'])
        expect(JSON.stringify(answer)).not.toContain(secret);
    }
  });

  it('refuses a body with anything besides the identity: 400 with Japanese error_info, nothing changed', async () => {
    const c = await createTestUser(t);
    for (const extra of [{ shop_id: 1 }, { user_data: {} }, { user_id_list: [c.user_id] }]) {
      const r = await expectRefusedUnchanged(t, () => post(t, 'user/user_data', as(c, extra)), 400);
      expect(r.json.error_code).toBe(400);
      expect(r.json.error_info).toMatch(JAPANESE);
    }
  });

  // Last in the file: a reservation sets the play loop going on this server.
  it('[R3-6] play_info names the station the caller is reserving, and is null again once the reservation ends', async () => {
    const c = await createTestUser(t, {}, { freeTc: 10_000 });
    const station = await playableStation(t);
    await t.server.services().rooms.send('station', station.station_id, { type: 'join', userId: c.user_id });
    const during = (await userData(c)).login_info.play_info;
    expect(during.station_id).toBe(station.station_id);
    expect(RESERVING_STATUSES).toContain(during.reserve_status);
    await stationOps(t.server).setStatus(station.station_id, 'maintenance');
    await stationOps(t.server).setStatus(station.station_id, 'open');
    expect((await userData(c)).login_info.play_info).toEqual({ station_id: null, reserve_status: null });
  });
});
