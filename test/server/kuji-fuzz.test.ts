import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let user: TestUser;
let target: { kuji_id: number; box_id: number };
let token: string;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  user = await createTestUser(t);
  const [row] = await t.server
    .store()
    .query<{ kuji_id: number; box_id: number }>(
      `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`,
    );
  target = row!;
  const res = await t.server.app.inject({
    method: 'POST',
    url: '/api/play/kuji_reserve',
    payload: { ...id(), ...target },
  });
  token = res.json().play_info.reserve_token;
});
afterAll(async () => t?.close());

const id = () => ({ user_id: user.user_id, access_token: user.access_token });

describe('fuzzing the kuji play calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const targets: [string, () => Record<string, unknown>][] = [
    ['play/kuji_status_check', () => id()],
    ['play/kuji_polling', () => ({ ...id(), reserve_token: token, ...target })],
    ['play/kuji_reserve', () => ({ ...id(), ...target })],
    ['play/kuji_reserve_cancel', () => ({ ...id(), reserve_token: token, ...target })],
    // The user has no TC: a well-formed draw is refused with 402, so the fuzz never empties the box.
    ['play/kuji_draw', () => ({ ...id(), reserve_token: token, ...target, count: 1, request_id: 'fuzz-request-0001' })],
    ['contents/kuji_fairness', () => ({ box_id: target.box_id })],
  ];
  for (const [url, body] of targets) {
    it(`POST /${url}`, async () => {
      const { refused } = await fuzzEndpoint(t, { method: 'POST', url: `/api/${url}`, validBody: body() }, 200);
      expect(refused).toBeGreaterThan(0);
    }, 120_000);
  }
});
