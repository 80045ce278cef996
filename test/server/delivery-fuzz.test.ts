import { afterAll, beforeAll, describe } from 'vitest';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, post, validAddress } from './user-helpers';

const TOKEN = 'operator-token-for-delivery-fuzz-0123';
let t: TestServer;
let u: TestUser;
let prizeId = 0;
let addressId = 0;
let deliveryId = 0;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  u = await createTestUser(t, {}, { freeTc: 50_000 });
  addressId = (
    expectOk(await post(t, 'account/address/register', as(u, { address: validAddress() }))).address as { id: number }
  ).id;
  const prizes = t.server.services().prizes;
  prizeId = await prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: 'もこもこ ひつじクッション' });
  const shipped = await prizes.recordWin(u.user_id, { prize_kind: 'kuji', product_name: 'B賞', kuji_name: 'くじ' });
  deliveryId = (
    expectOk(
      await post(
        t,
        'delivery/request',
        as(u, {
          delivery_request: { request_id: 'fuzz-setup-0001', play_history_ids: [shipped], address_id: addressId },
        }),
      ),
    ).delivery as { delivery_id: number }
  ).delivery_id;
});
afterAll(async () => t?.close());

const id = () => ({ user_id: u.user_id, access_token: u.access_token });

describe('fuzzing the delivery calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const player: FuzzPost[] = [
    ['delivery/quote', () => ({ ...id(), delivery_quote: { play_history_ids: [prizeId] } })],
    [
      'delivery/request',
      () => ({
        ...id(),
        delivery_request: {
          request_id: 'fuzz-request-0001',
          play_history_ids: [prizeId],
          address_id: addressId,
          lead_times: '午前中',
        },
      }),
    ],
    ['delivery/list', id],
    ['delivery/change', () => ({ ...id(), delivery_change: { delivery_id: deliveryId, lead_times: '14時〜16時' } })],
    ['delivery/ticket', id],
  ];
  itFuzzesPosts(() => t, player, { minRefused: 50 });

  const operator: FuzzPost[] = [
    ['operator/deliveries', () => ({ delivery_status: 'requested', limit: 10 })],
    ['operator/delivery_ship', () => ({ delivery_id: deliveryId, tracking_number: 'FUZZ-0001' })],
    ['operator/delivery_cancel', () => ({ delivery_id: deliveryId, reason: '在庫切れのため' })],
    [
      'operator/prize_grant',
      () => ({ user_id: u.user_id, prize_kind: 'order_made', product_name: '名入れマグカップ' }),
    ],
  ];
  itFuzzesPosts(() => t, operator, {
    minRefused: 20,
    headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` },
    nameSuffix: ' (operator)',
  });
});
