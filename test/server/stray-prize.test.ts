import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type JoinAck } from '../../src/contract';
import {
  OPERATOR_AUTH_HEADER,
  operatorAuditResponseSchema,
  operatorFloorResponseSchema,
  operatorStrayPrizeResponseSchema,
} from '../../src/contract/operator.schema';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/**
 * A prize the chute sensor sees that no running play takes (docs/agent-protocol.md, "prize"): after
 * its play's result, or between plays. The reference agent's sim stands in for the cabinet; its
 * chute sensor "fires" through the agent's own event (the driver's call into the agent), so the
 * frame, the room and the store are the real ones. The console's floor shows it until an operator
 * settles it: given to the player of the named play (their prize box, the stock one less) or put back.
 */
const clock = new ManualServerClock(new Date('2026-11-28T15:00:00+09:00'));
const PASSWORD = 'correct horse battery 42';
let t: TestServer;
let floorStaff = '';
let admin = '';
let stationId = 0;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock });
  const operators = t.server.services().operators;
  await operators.add('aoi.admin', '青井 葵', 'admin', PASSWORD);
  await operators.add('kenta.floor', '森田 健太', 'floor', PASSWORD);
  await operators.add('yui.support', '佐藤 結衣', 'support', PASSWORD);
  admin = (await call('login', { login: 'aoi.admin', password: PASSWORD }, null)).json.session.token as string;
  floorStaff = (await call('login', { login: 'kenta.floor', password: PASSWORD }, null)).json.session.token as string;
  const [row] = await t.server.store().query<{ station_id: number }>(
    `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal'
        AND station_status = 'open' AND stock >= 5 AND play_price > 0 ORDER BY station_id LIMIT 1`,
  );
  stationId = row!.station_id;
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

async function call(path: string, body: object, token: string | null) {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: token === null ? {} : { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` },
  });
  return { status: res.statusCode, json: res.json() };
}
const floorOf = async () =>
  operatorFloorResponseSchema
    .parse((await call('floor', {}, floorStaff)).json)
    .stations.find((s) => s.station_id === stationId)!;
/** The machine's chute sensor sees a prize fall, naming `playId` (null: no play ran). */
async function chuteSees(playId: number | null): Promise<void> {
  t.agent!.connection.events.prize(stationId, playId);
  await t.settle();
}
const prizesOf = (userId: number) =>
  t.server
    .store()
    .query<{ station_id: number; product_name: string }>(
      'SELECT station_id, product_name FROM won_prizes WHERE user_id = $1 ORDER BY play_history_id',
      [userId],
    );

describe('a stray prize: the chute saw a prize no running play took', () => {
  it('[R11-3] after the play’s result: the floor shows it with the play and its player; given to that player, it is in their prize box, the stock is one less, the log has it; a second settle is 409', async () => {
    const console_ = await connectSocket(t.origin, { operator_token: floorStaff }, sockets);
    expect(await new Promise<JoinAck>((r) => console_.emit('join', CHANNELS.operatorFloor, r))).toEqual({ ok: true });

    const alice = await createTestUser(t, { nickname: '春野 あかり' }, { freeTc: 10_000 });
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(300).holdBack(300).waitResult();
    const play = a.play!;
    const result = (await a.current())!.result;
    await a.finish();
    const stockBefore = (await floorOf()).stock;
    const prizesBefore = (await prizesOf(alice.user_id)).length;
    expect((await floorOf()).stray_prizes).toEqual([]);

    const told = new Promise((resolve) => console_.once('floor_change', resolve));
    await chuteSees(play.play_id);
    expect(await told).toEqual({ station_id: stationId });
    const [stray] = (await floorOf()).stray_prizes;
    expect(stray).toMatchObject({
      play_id: play.play_id,
      user_id: alice.user_id,
      nickname: '春野 あかり',
      play_result: result,
    });
    // The play's own result stands: the late prize is not its win (the sensor's window was over).
    const [recorded] = await t.server
      .store()
      .query<{ result: string }>('SELECT result FROM plays WHERE play_id = $1', [play.play_id]);
    expect(recorded!.result).toBe(result);

    const award = await call(
      'stray_prize',
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'award' },
      floorStaff,
    );
    expect(award.status).toBe(200);
    expect(operatorStrayPrizeResponseSchema.parse(award.json)).toMatchObject({
      stray_id: stray!.stray_id,
      settlement: 'awarded',
    });
    const prizes = await prizesOf(alice.user_id);
    expect(prizes).toHaveLength(prizesBefore + 1);
    expect(prizes.at(-1)).toMatchObject({ station_id: stationId });
    const after = await floorOf();
    expect(after.stray_prizes).toEqual([]);
    expect(after.stock).toBe(stockBefore - 1);

    const again = await call(
      'stray_prize',
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'award' },
      floorStaff,
    );
    expect(again).toEqual({
      status: 409,
      json: { error_code: 409, error_info: 'この景品はすでに処理されたか、見つかりません。' },
    });
    expect(await prizesOf(alice.user_id)).toHaveLength(prizesBefore + 1);

    const log = operatorAuditResponseSchema.parse((await call('audit', { limit: 5 }, admin)).json).list;
    expect(log.find((e) => e.action === 'operator/stray_prize' && e.after !== null)).toMatchObject({
      before: { settled_at: null, settlement: null, play_id: play.play_id },
      after: { settlement: 'awarded', settled_by: 'kenta.floor' },
    });
  });

  it('[R11-3] between plays (no play named): it cannot be given to anyone (409, nothing settled); put back, it leaves the floor and the stock stays', async () => {
    await new PlayDriver(t, clock, await createTestUser(t, {}, { freeTc: 0 })).waitMachineHome(stationId);
    await chuteSees(null);
    const [stray] = (await floorOf()).stray_prizes;
    expect(stray).toMatchObject({ play_id: null, user_id: null, nickname: null, play_result: null });
    const stock = (await floorOf()).stock;

    const award = await call(
      'stray_prize',
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'award' },
      floorStaff,
    );
    expect(award).toEqual({
      status: 409,
      json: { error_code: 409, error_info: 'この景品を渡せるプレイヤーがいません。台に戻してください。' },
    });
    expect((await floorOf()).stray_prizes).toHaveLength(1);

    const back = await call(
      'stray_prize',
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'return' },
      floorStaff,
    );
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ settlement: 'returned', play_history_id: null });
    expect(await floorOf()).toMatchObject({ stray_prizes: [], stock });
  });

  it('bad input and rights: a wrong station, a bad body or a support console changes nothing, each with a Japanese error', async () => {
    await chuteSees(null);
    const [stray] = (await floorOf()).stray_prizes;
    const other = stationId + 1;
    const wrongStation = await call(
      'stray_prize',
      { station_id: other, stray_id: stray!.stray_id, settle: 'return' },
      floorStaff,
    );
    expect(wrongStation.status).toBe(409);
    for (const body of [
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'keep' },
      { station_id: stationId, settle: 'return' },
      { station_id: stationId, stray_id: -1, settle: 'return' },
      { station_id: stationId, stray_id: stray!.stray_id, settle: 'return', extra: 1 },
    ]) {
      const answer = await call('stray_prize', body, floorStaff);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error_info).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
    const support = (await call('login', { login: 'yui.support', password: PASSWORD }, null)).json.session
      .token as string;
    expect(
      (await call('stray_prize', { station_id: stationId, stray_id: stray!.stray_id, settle: 'return' }, support))
        .status,
    ).toBe(403);
    expect((await floorOf()).stray_prizes).toEqual([expect.objectContaining({ stray_id: stray!.stray_id })]);
  });
});

describe('POST /api/dev/chute_prize (development only: the e2e stand-in for a chute sensor)', () => {
  const post = (server: TestServer, body: object) =>
    server.server.app.inject({ method: 'POST', url: '/api/dev/chute_prize', payload: body });

  it.each([
    ['unset', {}],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ])('%s: answers 404 and keeps no prize', async (_name, env) => {
    const off = await startTestServer({ inMemory: true, agent: false, env: { ONKURE_DEV_CALLS: '', ...env } });
    try {
      expect((await post(off, { station_id: 1, play_id: null })).statusCode).toBe(404);
      expect(await off.server.store().query('SELECT stray_id FROM stray_prizes')).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('with dev calls on: the station’s room keeps the prize for the floor; an unknown station is 404 in Japanese', async () => {
    const on = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
    try {
      expect((await post(on, { station_id: 1, play_id: null })).statusCode).toBe(200);
      expect(await on.server.store().query('SELECT station_id, play_id FROM stray_prizes')).toEqual([
        { station_id: 1, play_id: null },
      ]);
      const unknown = await post(on, { station_id: 99_999, play_id: null });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error_info).toMatch(/[ぁ-んァ-ン一-龯]/);
      expect((await post(on, { station_id: 1 })).statusCode).toBe(400);
    } finally {
      await on.close();
    }
  });
});
