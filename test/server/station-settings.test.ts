import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponseSchema, settingsHistoryResponseSchema } from '../../src/contract';
import {
  OPERATOR_AUTH_HEADER,
  operatorFloorResponseSchema,
  operatorStationAnswerSchema,
} from '../../src/contract/operator.schema';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/**
 * [R11-6] A station's settings through the real server: an operator's change waits while a player is
 * in a run of plays and is in force when the run ends; each change in force is published in the
 * station's settings history (open to anyone); each play's log names the version it ran with.
 */
const TOKEN = 'operator-token-for-tests-0123456789';
const clock = new ManualServerClock(new Date('2026-11-29T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  stationId = (await playableStation(t)).station_id;
});
afterAll(async () => t?.close());

const post = async (path: string, body: object, headers: Record<string, string> = {}) => {
  const res = await t.server.app.inject({ method: 'POST', url: `/api/${path}`, payload: body, headers });
  return { status: res.statusCode, json: res.json() };
};
const operator = (path: string, body: object) =>
  post(`operator/${path}`, body, { [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` });
const history = async () =>
  settingsHistoryResponseSchema.parse((await post('v2/play/settings_history', { station_id: stationId })).json)
    .settings_history;
const player = () => createTestUser(t, {}, { freeTc: 10_000 });

describe('[R11-6] station settings through the server', () => {
  it('[R11-6] between runs a change is in force at once and published: anyone (signed out) reads what changed, before → after, and why', async () => {
    const before = await history();
    const changed = await operator('station_settings', {
      station_id: stationId,
      arm_strength: 0.42,
      play_price: 120,
      reason: 'campaign',
    });
    expect(changed.status).toBe(200);
    expect(operatorStationAnswerSchema.parse(changed.json).station.settings_pending).toBeUndefined();
    const after = await history();
    expect(after.current_version).toBe(before.current_version + 1);
    expect(after.list[0]).toEqual({
      version: before.current_version + 1,
      applied_at: clock.now().toISOString(),
      reason: 'campaign',
      changes: [
        { field: 'armStrength', before: expect.any(Number), after: 0.42 },
        { field: 'playPrice', before: expect.any(Number), after: 120 },
      ],
    });
    // Nothing about the operator is published (their login is in the operators' audit log).
    expect(JSON.stringify(after)).not.toContain('dev-token');
    const [row] = await t.server
      .store()
      .query<{ play_price: number; arm_strength: number }>(
        'SELECT play_price, arm_strength FROM stations WHERE station_id = $1',
        [stationId],
      );
    expect({ price: row!.play_price, arm: Number(row!.arm_strength) }).toEqual({ price: 120, arm: 0.42 });
  });

  it('[R11-6] during a run the change waits: the run plays on at the old strength, continues included; it is published when the run ends, and the next run plays with it', async () => {
    const alice = await player();
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying();
    const startVersion = (await history()).current_version;
    const asked = await operator('arm_strength', { station_id: stationId, arm_strength: 0.9, reason: 'adjustment' });
    expect(operatorStationAnswerSchema.parse(asked.json).station.settings_pending).toBe(1);
    expect((await history()).current_version).toBe(startVersion);
    // The console sees it waiting.
    const [pending] = await t.server
      .store()
      .query<{ pending_settings: unknown }>('SELECT pending_settings FROM stations WHERE station_id = $1', [stationId]);
    expect(pending!.pending_settings).toMatchObject({ patch: { armStrength: 0.9 }, operator: 'dev-token' });
    const floor = operatorFloorResponseSchema.parse((await operator('floor', {})).json);
    expect(floor.stations.find((st) => st.station_id === stationId)).toMatchObject({
      arm_strength: 0.42,
      settings_version: startVersion,
      pending_settings: {
        changes: [{ field: 'armStrength', before: 0.42, after: 0.9 }],
        reason: 'adjustment',
        requested_at: clock.now().toISOString(),
      },
    });

    // The run goes on: this play and a continue run with the settings the run started with.
    await a
      .holdRight(100)
      .holdBack(100)
      .waitResult()
      .continuePlay()
      .waitPlaying()
      .holdRight(100)
      .holdBack(100)
      .waitResult();
    expect((await history()).current_version).toBe(startVersion);
    await a.finish();
    const published = await history();
    expect(published.current_version).toBe(startVersion + 1);
    expect(published.list[0]).toMatchObject({
      reason: 'adjustment',
      changes: [{ field: 'armStrength', before: 0.42, after: 0.9 }],
    });

    // The next run plays with the new settings.
    await a.waitMachineHome(stationId);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(100).holdBack(100).waitResult().finish();
    const log = historyResponseSchema.parse((await a.post('v2/play/history', {})).json).history.list;
    const [next, second, first] = log;
    expect([first!.base_arm_strength, first!.settings_version]).toEqual([0.42, startVersion]);
    expect([second!.base_arm_strength, second!.settings_version]).toEqual([0.42, startVersion]);
    expect([next!.base_arm_strength, next!.settings_version]).toEqual([0.9, startVersion + 1]);
  });

  it('[R11-6] bad input gets a clear Japanese error and changes nothing; an unknown station is 404', async () => {
    const version = (await history()).current_version;
    for (const body of [
      { station_id: stationId, reason: 'adjustment' },
      { station_id: stationId, arm_strength: 1.5, reason: 'adjustment' },
      { station_id: stationId, play_price: -1, reason: 'adjustment' },
      { station_id: stationId, play_price: 1.5, reason: 'adjustment' },
      { station_id: stationId, arm_strength: 0.5, reason: 'because' },
      { station_id: stationId, arm_strength: 0.5 },
    ]) {
      const refused = await operator('station_settings', body);
      expect(refused, JSON.stringify(body)).toMatchObject({
        status: 400,
        json: { error_code: 400, error_info: expect.stringMatching(/[ぁ-んァ-ン一-龥]/) },
      });
    }
    expect((await history()).current_version).toBe(version);
    expect(
      await operator('station_settings', { station_id: 999_999, arm_strength: 0.5, reason: 'other' }),
    ).toMatchObject({
      status: 404,
    });
    expect(await post('v2/play/settings_history', { station_id: 999_999 })).toMatchObject({ status: 404 });
    expect(await post('v2/play/settings_history', { station_id: 'x' })).toMatchObject({ status: 400 });
  });
});
