import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getReserveResponseSchema } from '../../src/contract';
import {
  OPERATOR_AUTH_HEADER,
  operatorPlayLogAnswerSchema,
  operatorStationAnswerSchema,
} from '../../src/contract/operator.schema';
import { MAINTENANCE_STATION_STATUSES } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

const TOKEN = 'operator-token-for-tests-0123456789';
const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let off: TestServer;
let stationId = 0;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  off = await startTestServer({ inMemory: true });
  const row = await playableStation(t);
  stationId = row.station_id;
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

const operator = async (path: string, body: object, token: string | null = TOKEN, server = t) => {
  const res = await server.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
  });
  return { status: res.statusCode, json: res.json() };
};
const player = () => createTestUser(t, {}, { freeTc: 10_000 });

describe('the operator API: its own token, station statuses, faults, restocking, prize changes and the play log', () => {
  it('refuses the development token where it is not configured, and a missing or wrong token, with 403 in Japanese (operator accounts: test/server/operator-accounts.test.ts)', async () => {
    expect(await operator('fault', { station_id: stationId }, TOKEN, off)).toMatchObject({ status: 403 });
    expect(await operator('fault', { station_id: stationId }, null)).toMatchObject({
      status: 403,
      json: { error_code: 403, error_info: '運営者用の操作です。サインインしてください。' },
    });
    expect(await operator('fault', { station_id: stationId }, `${TOKEN}x`)).toMatchObject({ status: 403 });
    // A user's access token is not an operator token.
    const user = await player();
    expect(await operator('fault', { station_id: stationId }, user.access_token)).toMatchObject({ status: 403 });
  });

  it('refuses a bad body with 400 in Japanese and changes nothing', async () => {
    expect(await operator('station_status', { station_id: stationId, station_status: 'broken' })).toMatchObject({
      status: 400,
      json: { error_code: 400, error_info: expect.stringMatching(/[ぁ-んァ-ン一-龥]/) },
    });
    expect(await operator('restock', { station_id: stationId, stock: -1 })).toMatchObject({ status: 400 });
    expect(
      await operator('change_prize', { station_id: stationId, prize_name: '\u202e', prize_shape: 'plush', stock: 3 }),
    ).toMatchObject({ status: 400 });
    expect(await operator('station_status', { station_id: 999_999, station_status: 'stop' })).toMatchObject({
      status: 404,
    });
  });

  it('[R4.3-4] every maintenance status makes the reserve fetch answer 531 and ends the line; open takes it on again', async () => {
    const user = await player();
    const d = new PlayDriver(t, clock, user);
    for (const status of MAINTENANCE_STATION_STATUSES) {
      await d.reserve(stationId);
      const set = operatorStationAnswerSchema.parse(
        (await operator('station_status', { station_id: stationId, station_status: status })).json,
      );
      expect(set.station).toMatchObject({ station_id: stationId, station_status: status });
      expect((await d.post('v2/play/get_reserve', { station_id: stationId })).json).toMatchObject({
        error_code: 531,
        station_id: stationId,
      });
      await operator('station_status', { station_id: stationId, station_status: 'open' });
      const record = getReserveResponseSchema.parse(
        (await d.post('v2/play/get_reserve', { station_id: stationId })).json,
      ).reserve_info;
      expect(record).toMatchObject({ station_status: 'open', reserve_status: null });
    }
  });

  it('a fault through the operator API refunds the play on the machine once', async () => {
    const alice = await player();
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const faulted = operatorStationAnswerSchema.parse(
      (await operator('fault', { station_id: stationId })).json,
    ).station;
    expect(faulted).toEqual({
      station_id: stationId,
      station_status: 'malfunction',
      stock: expect.any(Number),
      refunded_play_id: a.play!.play_id,
    });
    expect((await t.server.services().ledger.balance(alice.user_id)).tc_all).toBe(10_000);
    await operator('station_status', { station_id: stationId, station_status: 'open' });
    // The machine takes turns again once its agent reports it home and clear.
    await a.waitMachineHome(stationId);
  });

  it('[R4.3-3] a prize change ends the line with status change, opens a new station setting and a fresh field, and reopens the station', async () => {
    const [alice, bob] = [await player(), await player()];
    const a = new PlayDriver(t, clock, alice);
    const b = new PlayDriver(t, clock, bob);
    await a.reserve(stationId);
    await b.reserve(stationId);
    const oldSetting = a.record!.station_setting_id;
    const changed = await operator('change_prize', {
      station_id: stationId,
      prize_name: 'ころころ ぬいぐるみ',
      prize_shape: 'plush',
      stock: 4,
      arm_strength: 0.6,
    });
    expect(changed).toMatchObject({ status: 200, json: { station: { station_status: 'open', stock: 4 } } });
    const [status] = await t.server
      .store()
      .query<{ reserve_status: string }>('SELECT reserve_status FROM station_reservations WHERE user_id = $1', [
        bob.user_id,
      ]);
    expect(status!.reserve_status).toBe('change');
    await a.reserve(stationId);
    expect(a.record!.station_setting_id).not.toBe(oldSetting);
    expect(a.record).toMatchObject({ reserve_status: 'playTransition' });
    await a.confirm().waitPlaying().holdRight(100).holdBack(100).waitResult().finish();
    const [row] = await t.server
      .store()
      .query<{ prize_name: string; arm_strength: number }>(
        'SELECT prize_name, arm_strength FROM stations WHERE station_id = $1',
        [stationId],
      );
    expect(row).toMatchObject({ prize_name: 'ころころ ぬいぐるみ' });
    expect(Number(row!.arm_strength)).toBeCloseTo(0.6);
  });

  it("restocking to 0 ends the line (the prize is gone); restocking again lets players reserve; the play log lists the station's plays", async () => {
    const [alice, bob] = [await player(), await player()];
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId);
    await new PlayDriver(t, clock, bob).reserve(stationId);
    await operator('restock', { station_id: stationId, stock: 0 });
    const ended = await t.server
      .store()
      .query<{ reserve_status: string }>(`SELECT reserve_status FROM station_reservations WHERE user_id IN ($1, $2)`, [
        alice.user_id,
        bob.user_id,
      ]);
    expect(ended.map((r) => r.reserve_status)).toEqual(['change', 'change']);
    expect((await a.post('v2/play/reserve', { station_id: stationId })).json).toMatchObject({
      error_code: 409,
      error_info: '景品が品切れのため予約できません。',
    });
    await operator('restock', { station_id: stationId, stock: 5 });
    await a.reserve(stationId);
    expect(a.record).toMatchObject({ reserve_status: 'playTransition' });
    await a.confirm().waitPlaying().holdRight(100).holdBack(100).waitResult().finish();
    const log = operatorPlayLogAnswerSchema.parse(
      (await operator('play_log', { station_id: stationId, limit: 5 })).json,
    ).list;
    expect(log[0]).toMatchObject({
      station_id: stationId,
      result: expect.stringMatching(/^(win|miss)$/),
      seed: expect.any(Number),
    });
  });
});
