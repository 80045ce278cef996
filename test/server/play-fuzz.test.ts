import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let user: TestUser;
let stationId: number;
let settingId: number;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  user = await createTestUser(t);
  const [row] = await t.server.store().query<{ station_id: number; station_setting_id: number }>(
    `SELECT s.station_id, ss.station_setting_id FROM stations s JOIN station_settings ss ON ss.station_id = s.station_id AND ss.active
      WHERE s.station_type = 'normal' AND s.station_status = 'open' ORDER BY s.station_id LIMIT 1`,
  );
  stationId = row!.station_id;
  settingId = row!.station_setting_id;
});
afterAll(async () => t?.close());

const id = () => ({ user_id: user.user_id, access_token: user.access_token });

describe('fuzzing the station play calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const targets: [string, () => Record<string, unknown>][] = [
    ['v2/play/visit', () => ({ ...id(), station_id: stationId })],
    ['v2/play/reserve', () => ({ ...id(), station_id: stationId, shop_id: 1 })],
    ['v2/play/get_reserve', () => ({ ...id(), station_id: stationId })],
    ['v2/play/reserve_cancel', () => ({ ...id(), shop_id: 1, reserve_cancel: { station_setting_id: settingId } })],
    ['v2/play/visit_cancel', () => ({ ...id(), station_setting_id: settingId })],
  ];
  for (const [url, body] of targets) {
    it(`POST /${url}`, async () => {
      const { refused } = await fuzzEndpoint(t, { method: 'POST', url: `/api/${url}`, validBody: body() }, 200);
      expect(refused).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe('fuzzing the play loop calls: 100 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const targets: [string, () => Record<string, unknown>][] = [
    ['v2/play/confirm', () => ({ ...id(), station_id: stationId })],
    ['v2/play/current', () => ({ ...id() })],
    ['v2/play/control', () => ({ ...id(), play_id: 1, button: 'right', command: 'press' })],
    ['v2/play/continue', () => ({ ...id(), play_id: 1 })],
    ['v2/play/finish', () => ({ ...id(), play_id: 1 })],
    ['v2/play/history', () => ({ ...id(), page: 1 })],
    ['v2/play/gauge', () => ({ ...id(), station_id: stationId })],
    ['v2/play/station_info', () => ({ station_id: stationId })],
    ['v2/play/settings_history', () => ({ station_id: stationId, page: 1 })],
  ];
  for (const [url, body] of targets) {
    it(`POST /${url}`, async () => {
      const { refused } = await fuzzEndpoint(t, { method: 'POST', url: `/api/${url}`, validBody: body() }, 100);
      expect(refused).toBeGreaterThan(0);
    }, 120_000);
  }
});
