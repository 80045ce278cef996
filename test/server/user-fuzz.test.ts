import { afterAll, beforeAll, describe } from 'vitest';
import { PrizesRepository } from '../../server/delivery/prizes.repository';
import { AddressesRepository } from '../../server/account/addresses.repository';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { systemClock } from '../../server/clock';

let t: TestServer;
let u: TestUser;
let playHistoryId: number;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t, { email: 'fuzz@example.jp', birth: '1990-01-01' });
  const now = systemClock;
  playHistoryId = await new PrizesRepository(
    t.server.store(),
    now,
    new AddressesRepository(t.server.store(), now),
  ).recordWin(u.user_id, { prize_kind: 'crane', product_name: 'ぬいぐるみ' });
});
afterAll(async () => t?.close());

const id = () => ({ user_id: u.user_id, access_token: u.access_token });

describe('fuzzing the §7 /user/* calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const cases: FuzzPost[] = [
    ['user/set_hide_character', () => ({ ...id(), set_hide_character: { character: 1 } })],
    ['user/set_volume', () => ({ ...id(), set_volume: { volume: 0 } })],
    ['user/get_address', () => ({ ...id(), get_address: {} })],
    ['user/get_email', id],
    ['user/get_delivery', () => ({ ...id(), get_delivery: { play_history_id: playHistoryId } })],
    ['user/item', id],
    ['user/tc', id],
    ['user/ticket', id],
    ['user/read_info', () => ({ ...id(), read_info: { type: 'news' } })],
    ['user/agree', () => ({ ...id(), agree_contract: 1 })],
    ['user/user_additional', () => ({ ...id(), additional_key: 'tutorial_top', additional_value: 1 })],
    ['movie/delete_token', () => ({ ...id(), read_info: {} })],
  ];
  itFuzzesPosts(() => t, cases, { minRefused: 50 });
});
