import { afterAll, beforeAll, describe } from 'vitest';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/** Issue 26: the console's calls take any body without a 5xx; a refusal is Japanese and changes nothing. */
const TOKEN = 'operator-token-for-console-fuzz-0123';
let t: TestServer;
let u: TestUser;
let stationId = 0;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  u = await createTestUser(t, { nickname: 'ふぁずくま' });
  stationId = (await playableStation(t)).station_id;
});
afterAll(async () => t?.close());

describe('fuzzing the console calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const calls: FuzzPost[] = [
    ['operator/floor', () => ({})],
    ['operator/end_play', () => ({ station_id: stationId, play_id: 1 })],
    ['operator/remove_from_line', () => ({ station_id: stationId, user_id: u.user_id })],
    ['operator/pause', () => ({ station_id: stationId, paused: true })],
    [
      'operator/station_settings',
      () => ({ station_id: stationId, arm_strength: 0.5, play_price: 100, reason: 'adjustment' }),
    ],
    ['operator/stray_prize', () => ({ station_id: stationId, stray_id: 1, settle: 'return' })],
    ['operator/broadcast', () => ({ code: 'reloaderror', info: '再読み込みしてください。' })],
    ['operator/emergency_end', () => ({})],
    ['operator/service_state', () => ({})],
    ['operator/user', () => ({ user_id: u.user_id })],
    ['operator/user_message', () => ({ user_id: u.user_id, code: 'cancellation' })],
    ['operator/user_status', () => ({ user_id: u.user_id, suspended: false })],
    ['operator/numbers', () => ({ from: '2026-11-01', to: '2026-11-30' })],
    ['operator/kuji_boxes', () => ({})],
  ];
  itFuzzesPosts(() => t, calls, {
    minRefused: 20,
    headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` },
    nameSuffix: ' (operator)',
  });
});
