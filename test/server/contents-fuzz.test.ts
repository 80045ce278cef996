import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let user: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  user = await createTestUser(t);
});
afterAll(async () => t?.close());

const id = () => ({ user_id: user.user_id, access_token: user.access_token });

describe('fuzzing the contents calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const targets: [string, () => Record<string, unknown>][] = [
    ['contents/playing', () => id()],
    ['contents/prize', () => ({ ...id(), prize: { keyword: 'うさぎ' }, shop_id: 1, fes_id: 1 })],
    [
      'v2/contents/prize',
      () => ({
        ...id(),
        prize: {
          keyword: 'ねこ',
          station_ids: [1, 2],
          natia: 0,
          vip: 0,
          category_id: 6,
          gift_type: 0,
          refine_search: 1,
        },
        page: 1,
        shop_id: 1,
        fes_id: 1,
      }),
    ],
    ['contents/kuji', () => ({ ...id(), type: 1, shop_id: 1 })],
    ['contents/carousel', () => ({ ...id(), shop_id: 1 })],
    ['contents/information', () => ({ ...id(), page: 1, num: 100, shop_id: 1 })],
    ['contents/get_start_news', () => ({ ...id(), page: 1, num: 100, shop_id: 1, is_top_page: 1 })],
    ['contents/character', () => id()],
    ['virtualcrane/list', () => id()],
  ];
  for (const [url, body] of targets) {
    it(`POST /${url}`, async () => {
      const { refused, accepted } = await fuzzEndpoint(
        t,
        { method: 'POST', url: `/api/${url}`, validBody: body() },
        200,
      );
      expect(refused + accepted).toBe(200);
      expect(refused).toBeGreaterThan(0);
    }, 120_000);
  }

  it('[R7-7] GET /store/new_arrivals with junk queries', async () => {
    const { refused, accepted } = await fuzzEndpoint(
      t,
      { method: 'GET', url: (junk) => `/api/store/new_arrivals?limit=${junk}` },
      200,
    );
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  }, 120_000);
});
