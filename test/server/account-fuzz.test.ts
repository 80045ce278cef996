import { afterAll, beforeAll, describe } from 'vitest';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, post, validAddress } from './user-helpers';

let t: TestServer;
let u: TestUser;
let addressId: number;
let leaver: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t, { email: 'fuzz-acc@example.jp' });
  leaver = await createTestUser(t, { email: 'fuzz-leaver@example.jp', nickname: 'ふぁずたいかい' });
  addressId = (
    (await post(t, 'account/address/register', as(u, { address: validAddress() }))).json.address as { id: number }
  ).id;
});
afterAll(async () => t?.close());

describe('fuzzing the account calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const cases: FuzzPost[] = [
    ['account/address/list', () => as(u)],
    ['account/address/register', () => as(u, { address: validAddress() })],
    ['account/address/change', () => as(u, { address: { ...validAddress({ address3: '変更後' }), id: addressId } })],
    ['account/address/delete', () => as(u, { address_delete: { id: addressId } })],
    ['account/profile/get', () => as(u)],
    ['account/profile/set', () => as(u, { profile: { sex: 1, birth: '1995-06-07', prefectures: '東京都' } })],
    ['account/nickname/set', () => as(u, { nickname: { nickname: 'ふぁず' } })],
    ['account/phone/send_code', () => as(u, { phone: { tel: '090-1234-5678' } })],
    ['account/phone/verify', () => as(u, { phone_verify: { code: '123456' } })],
    ['account/present_code', () => as(u, { present_code: { code: 'TICKET3' } })],
    ['account/invite', () => as(u)],
    ['account/delete/preview', () => as(u)],
    // Last: the first accepted body deletes the account, and every later one is refused (401).
    ['account/delete', () => as(leaver, { account_delete: { confirm: 1 } })],
  ];
  itFuzzesPosts(() => t, cases, { minRefused: 50 });
});
