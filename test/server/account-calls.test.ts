import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressListResponseSchema,
  addressResponseSchema,
  inviteResponseSchema,
  phoneVerifiedResponseSchema,
  presentCodeResponseSchema,
  profileResponseSchema,
} from '../../src/contract';
import { addressToForm, addressFromForm } from '../../src/domain';
import { Ledger } from '../../server/wallet/ledger';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, post, validAddress } from './user-helpers';
import { systemClock } from '../../server/clock';

let t: TestServer;
let a: TestUser;
let b: TestUser;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  a = await createTestUser(t, { email: 'acc-a@example.jp' });
  b = await createTestUser(t, { email: 'acc-b@example.jp' });
});
afterAll(async () => t?.close());

const register = async (u: TestUser, over: Record<string, unknown> = {}) =>
  addressResponseSchema.parse(
    expectOk(await post(t, 'account/address/register', as(u, { address: validAddress(over) }))),
  ).address;
const outboxCode = async (u: TestUser, channel: 'email' | 'sms') => {
  const [row] = await t.server
    .store()
    .query<{ body: string }>(
      'SELECT body FROM dev_outbox WHERE user_id = $1 AND channel = $2 ORDER BY message_id DESC LIMIT 1',
      [u.user_id, channel],
    );
  return /([0-9]{6})/.exec(row!.body)![1]!;
};

describe('addresses', () => {
  it('[R3-3] registers an address, normalises zip and phone, and maps to the form spelling', async () => {
    const rec = await register(a, { zip: '１５００００１', tel: '03-1234-5678', lead_times: '午前中' });
    expect(rec).toMatchObject({
      is_main: 1,
      zip: '150-0001',
      tel: '0312345678',
      lead_times: '午前中',
      first_name: '花子',
      last_name: '山田',
    });
    const form = addressToForm(rec);
    expect(form).toMatchObject({ isMain: true, firstName: '花子', lastName: '山田', leadTimes: '午前中' });
    expect(addressFromForm(form)).toEqual(rec);
  });

  it('keeps exactly one main address across register, change and delete', async () => {
    const second = await register(a, { is_main: 1, address1: '北海道', zip: '060-0001' });
    let list = addressListResponseSchema.parse(expectOk(await post(t, 'account/address/list', as(a)))).list;
    expect(list.filter((x) => x.is_main === 1).map((x) => x.id)).toEqual([second.id]);
    const first = list.find((x) => x.id !== second.id)!;
    expectOk(
      await post(
        t,
        'account/address/change',
        as(a, { address: { ...validAddress({ address3: '別館202' }), id: first.id, is_main: 1 } }),
      ),
    );
    list = addressListResponseSchema.parse(expectOk(await post(t, 'account/address/list', as(a)))).list;
    expect(list.filter((x) => x.is_main === 1).map((x) => x.id)).toEqual([first.id]);
    expect(list.find((x) => x.id === first.id)!.address3).toBe('別館202');
    list = addressListResponseSchema.parse(
      expectOk(await post(t, 'account/address/delete', as(a, { address_delete: { id: first.id } }))),
    ).list;
    expect(list.map((x) => x.id)).toEqual([second.id]);
    expect(list[0]!.is_main).toBe(1);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/address/change', as(a, { address: { ...validAddress(), id: second.id, is_main: 0 } })),
      409,
    );
  });

  it('refuses bad fields with a Japanese error_info naming the field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ zip: '12-34567' }, /郵便番号/],
      [{ zip: '1234' }, /郵便番号/],
      [{ tel: '123' }, /電話番号/],
      [{ tel: '090-1234-56789' }, /電話番号/],
      [{ last_name: '' }, /姓/],
      [{ first_name: 'あ'.repeat(21) }, /名/],
      [{ address1: '東京' }, /都道府県/],
      [{ address2: 'x'.repeat(33) }, /市区町村/],
      [{ address3: '' }, /番地・建物名/],
      [{ email: 'not-an-email' }, /メールアドレス/],
      [{ zip: 1500001 }, /郵便番号/],
      [{ lead_times: '深夜' }, /時間帯/],
      [{ last_name: '山田\u0000' }, /姓/],
    ];
    for (const [over, field] of cases) {
      const r = await expectRefusedUnchanged(
        t,
        () => post(t, 'account/address/register', as(b, { address: validAddress(over) })),
        400,
      );
      expect(r.json.error_info, JSON.stringify(over)).toMatch(field);
    }
  });

  it("B cannot list, change or delete A's addresses by id", async () => {
    const aAddr = await register(a, { address3: 'Aの部屋' });
    const listB = addressListResponseSchema.parse(expectOk(await post(t, 'account/address/list', as(b)))).list;
    expect(listB.map((x) => x.id)).not.toContain(aAddr.id);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/address/change', as(b, { address: { ...validAddress(), id: aAddr.id } })),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/address/delete', as(b, { address_delete: { id: aAddr.id } })),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () =>
        post(t, 'account/address/register', {
          user_id: a.user_id,
          access_token: b.access_token,
          address: validAddress(),
        }),
      401,
    );
  });

  it('caps the number of addresses per user', async () => {
    const c = await createTestUser(t);
    for (let i = 0; i < 10; i++) await register(c, { address3: `部屋${i}` });
    await expectRefusedUnchanged(t, () => post(t, 'account/address/register', as(c, { address: validAddress() })), 409);
  });
});

describe('profile and nickname', () => {
  it('sets sex, birth and prefecture; birth cannot change once registered', async () => {
    const body = profileResponseSchema.parse(
      expectOk(
        await post(
          t,
          'account/profile/set',
          as(a, { profile: { sex: 2, birth: '2001-02-03', prefectures: '大阪府' } }),
        ),
      ),
    );
    expect(body.profile).toMatchObject({ sex: 2, birth: '2001-02-03', prefectures: '大阪府' });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'account/profile/set', as(a, { profile: { birth: '2000-01-01' } })),
      409,
    );
    expect(r.json.error_info).toMatch(/生年月日/);
    for (const bad of [
      { birth: '2023-02-30' },
      { birth: '2999-01-01' },
      { sex: 9 },
      { prefectures: '東京' },
      { prefectures: 13 },
    ]) {
      await expectRefusedUnchanged(t, () => post(t, 'account/profile/set', as(b, { profile: bad })), 400);
    }
    const got = profileResponseSchema.parse(expectOk(await post(t, 'account/profile/get', as(a))));
    expect(got.nickname_info).toEqual({ userId: a.user_id, nickname: '', isNicknameUnregistered: true });
  });

  it('registers a nickname within 1-16 characters', async () => {
    const body = profileResponseSchema.parse(
      expectOk(await post(t, 'account/nickname/set', as(a, { nickname: { nickname: ' クレーン名人 ' } }))),
    );
    expect(body.nickname_info).toEqual({ userId: a.user_id, nickname: 'クレーン名人', isNicknameUnregistered: false });
    for (const bad of ['', 'あ'.repeat(17), 12, 'a\nb']) {
      const r = await expectRefusedUnchanged(
        t,
        () => post(t, 'account/nickname/set', as(a, { nickname: { nickname: bad } })),
        400,
      );
      expect(r.json.error_info).toMatch(/ニックネーム/);
    }
  });
});

describe('phone check', () => {
  it('sends a code to the dev outbox and verifies it, setting tel_verified_at', async () => {
    expectOk(await post(t, 'account/phone/send_code', as(a, { phone: { tel: '080-1111-2222' } })));
    const code = await outboxCode(a, 'sms');
    await expectRefusedUnchanged(t, () => post(t, 'account/phone/verify', as(b, { phone_verify: { code } })), 400);
    const wrong = code === '000000' ? '111111' : '000000';
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/phone/verify', as(a, { phone_verify: { code: wrong } })),
      400,
    );
    const ok = phoneVerifiedResponseSchema.parse(
      expectOk(await post(t, 'account/phone/verify', as(a, { phone_verify: { code } }))),
    );
    expect(ok.tel).toBe('08011112222');
    const [row] = await t.server
      .store()
      .query<{ tel: string; tel_verified_at: Date | null }>(
        'SELECT tel, tel_verified_at FROM users WHERE user_id = $1',
        [a.user_id],
      );
    expect(row!.tel).toBe('08011112222');
    expect(row!.tel_verified_at).not.toBeNull();
    await expectRefusedUnchanged(t, () => post(t, 'account/phone/verify', as(a, { phone_verify: { code } })), 400);
  });

  it('blocks verification after repeated wrong codes', async () => {
    const c = await createTestUser(t);
    expectOk(await post(t, 'account/phone/send_code', as(c, { phone: { tel: '09033334444' } })));
    const code = await outboxCode(c, 'sms');
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++)
      await expectRefusedUnchanged(
        t,
        () => post(t, 'account/phone/verify', as(c, { phone_verify: { code: wrong } })),
        400,
      );
    await expectRefusedUnchanged(t, () => post(t, 'account/phone/verify', as(c, { phone_verify: { code } })), 429);
  });
});

describe('present codes', () => {
  it('credits free TC or tickets through the ledger, once per user', async () => {
    const tc = presentCodeResponseSchema.parse(
      expectOk(await post(t, 'account/present_code', as(a, { present_code: { code: 'welcome500' } }))),
    );
    expect(tc.present).toEqual({ kind: 'tc_free', amount: 500 });
    expect(tc.tc).toEqual({ tc_all: 500, tc_free: 500, tc_toll: 0 });
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'account/present_code', as(a, { present_code: { code: 'WELCOME500' } })),
      409,
    );
    expect(r.json.error_info).toMatch(/使用済み/);
    const tk = presentCodeResponseSchema.parse(
      expectOk(await post(t, 'account/present_code', as(a, { present_code: { code: 'TICKET3' } }))),
    );
    expect(tk.ticket.ticket_all).toBe(3);
    // B redeems the same code independently; A's balance is untouched.
    expectOk(await post(t, 'account/present_code', as(b, { present_code: { code: 'WELCOME500' } })));
    const ledger = new Ledger(t.server.store(), systemClock);
    expect(await ledger.balance(a.user_id)).toEqual({ tc_all: 500, tc_free: 500, tc_toll: 0 });
    expect(await ledger.fromRows(a.user_id)).toEqual({ tc_free: 500, tc_toll: 0, ticket: 3 });
  });

  it('refuses unknown and expired codes without a change', async () => {
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/present_code', as(a, { present_code: { code: 'NOSUCHCODE' } })),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/present_code', as(a, { present_code: { code: 'EXPIRED100' } })),
      409,
    );
  });
});

describe('invite info', () => {
  it('[R3-16] answers invite_ticket, title, url and text with a stable per-user code', async () => {
    const first = inviteResponseSchema.parse(expectOk(await post(t, 'account/invite', as(a)))).invite_info;
    expect(first.invite_ticket).toBeGreaterThan(0);
    expect(first.title).toMatch(/招待/);
    expect(first.url).toMatch(/\?invite=[A-Z0-9]{8}$/);
    expect(first.text).toContain(first.url);
    const again = inviteResponseSchema.parse(expectOk(await post(t, 'account/invite', as(a)))).invite_info;
    expect(again.url).toBe(first.url);
    const other = inviteResponseSchema.parse(expectOk(await post(t, 'account/invite', as(b)))).invite_info;
    expect(other.url).not.toBe(first.url);
  });
});

describe('identity rules on the account calls', () => {
  const calls: [string, Record<string, unknown>][] = [
    ['account/address/list', {}],
    ['account/address/register', { address: validAddress() }],
    ['account/address/change', { address: { ...validAddress(), id: 1 } }],
    ['account/address/delete', { address_delete: { id: 1 } }],
    ['account/profile/get', {}],
    ['account/profile/set', { profile: { sex: 1 } }],
    ['account/nickname/set', { nickname: { nickname: 'なまえ' } }],
    ['account/phone/send_code', { phone: { tel: '09012345678' } }],
    ['account/phone/verify', { phone_verify: { code: '123456' } }],
    ['account/present_code', { present_code: { code: 'TICKET3' } }],
    ['account/invite', {}],
  ];
  it("[R3-1] refuses every call without identity or with B's token for A, and answers 9002 to a suspended user", async () => {
    const suspended = await createTestUser(t, { status: 2 });
    for (const [path, extra] of calls) {
      await expectRefusedUnchanged(t, () => post(t, path, extra), 401);
      await expectRefusedUnchanged(
        t,
        () => post(t, path, { ...extra, user_id: a.user_id, access_token: b.access_token }),
        401,
      );
      expect((await expectRefusedUnchanged(t, () => post(t, path, as(suspended, extra)), 403)).json.error_code).toBe(
        9002,
      );
    }
  });
});
