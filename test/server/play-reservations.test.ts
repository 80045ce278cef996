import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getReserveResponseSchema,
  PLAY_ERROR,
  playingResponseSchema,
  reserveCancelResponseSchema,
  reserveResponseSchema,
  visitCancelResponseSchema,
  visitResponseSchema,
} from '../../src/contract';
import { startOfJstWeek } from '../../src/domain';
import { StoreTcLedgerSource } from '../../server/play/vip-gate';
import { storeFingerprint } from '../support/store-fingerprint';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { ManualServerClock } from '../support/manual-server-clock';
import { stationOps } from '../support/station-ops';

let t: TestServer;
const clock = new Date();
const stationIds: Record<'normal' | 'normal2' | 'vip' | 'exclusive' | 'maintenance' | 'adjusting', number> = {
  normal: 0,
  normal2: 0,
  vip: 0,
  exclusive: 0,
  maintenance: 0,
  adjusting: 0,
};

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock: new ManualServerClock(clock) });
  const store = t.server.store();
  const pick = async (where: string) =>
    await store.query<{ station_id: number }>(
      `SELECT station_id FROM stations WHERE ${where} ORDER BY station_id LIMIT 2`,
    );
  const normals = await pick(
    `station_type = 'normal' AND station_status = 'open' AND designated_type = 'normal' AND stock > 3`,
  );
  stationIds.normal = normals[0]!.station_id;
  stationIds.normal2 = normals[1]!.station_id;
  stationIds.vip = (await pick(`station_type = 'vip' AND station_status = 'open'`))[0]!.station_id;
  stationIds.exclusive = (await pick(`station_type = 'exclusive' AND station_status = 'open'`))[0]!.station_id;
  stationIds.maintenance = (await pick(`station_status = 'maintenance'`))[0]!.station_id;
  stationIds.adjusting = (await pick(`station_status = 'adjusting'`))[0]!.station_id;
});
afterAll(async () => t?.close());

/** A player with TC for plays (a reservation is refused to a player who cannot pay). */
const player = () => createTestUser(t, {}, { freeTc: 10_000 });
const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
const settingOf = async (stationId: number) =>
  (
    await t.server
      .store()
      .query<{ station_setting_id: number }>(
        'SELECT station_setting_id FROM station_settings WHERE station_id = $1 AND active',
        [stationId],
      )
  )[0]!.station_setting_id;
let ledgerKey = 0;
const buyTc = async (u: TestUser, amount: number, daysAgo = 1, reason = 'purchase', kind = 'toll') =>
  t.server
    .store()
    .query(
      'INSERT INTO tc_ledger (user_id, kind, delta, balance_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $3, $4, $5, $6)',
      [u.user_id, kind, amount, reason, `test:${++ledgerKey}`, new Date(clock.getTime() - daysAgo * 86_400_000)],
    );
/** Gives up the player's place, as the player does (reserve_cancel). */
async function cancelAll(u: TestUser): Promise<void> {
  const rows = await t.server.store().query<{ station_setting_id: number; shop_id: number }>(
    `SELECT r.station_setting_id, s.shop_id FROM station_reservations r JOIN stations s ON s.station_id = r.station_id
        WHERE r.user_id = $1 AND r.reserve_status IN ('reserve', 'playTransition')`,
    [u.user_id],
  );
  for (const row of rows) {
    const res = await post(
      'v2/play/reserve_cancel',
      as(u, { shop_id: row.shop_id, reserve_cancel: { station_setting_id: row.station_setting_id } }),
    );
    expect(res.statusCode).toBe(200);
  }
}

describe('station visits and reservations over the store', () => {
  it('[R7-6] [R3-5] POST /v2/play/get_reserve answers the empty record for a caller with no reservation', async () => {
    const a = await player();
    const res = await post('v2/play/get_reserve', as(a));
    expect(res.statusCode).toBe(200);
    const body = getReserveResponseSchema.parse(res.json());
    expect(body.reserve_info).toMatchObject({
      station_id: 0,
      reserve_status: null,
      reserve_token: '',
      reserve_num: 0,
      play_reserve_id: 0,
    });
  });

  it('[R3-5] visit then reserve: the record carries every field, counts the viewer and gives place 1', async () => {
    const a = await player();
    const visit = visitResponseSchema.parse(
      (await post('v2/play/visit', as(a, { station_id: stationIds.normal }))).json(),
    );
    expect(visit.reserve_info.visit_count).toBeGreaterThanOrEqual(1);
    expect(visit.reserve_info.viewable).toBe(1);
    const res = await post('v2/play/reserve', as(a, { station_id: stationIds.normal, shop_id: 1 }));
    expect(res.statusCode).toBe(200);
    const body = reserveResponseSchema.parse(res.json());
    const info = body.reserve_info;
    for (const key of [
      'station_status',
      'visit_count',
      'reserve_count',
      'reserve_status',
      'reserve_token',
      'reserve_num',
      'reserve_time',
      'play_reserve_id',
      'playing',
      'viewable',
      'request_flag',
      'request_type',
    ]) {
      expect(info).toHaveProperty(key);
    }
    // First in line at an idle station: the turn is theirs at once, with the confirm window running.
    expect(info.reserve_status).toBe('playTransition');
    expect(info.reserve_time).toBe(15);
    expect(info.reserve_num).toBe(1);
    expect(info.reserve_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(info.station_setting_id).toBe(await settingOf(stationIds.normal));
    const again = getReserveResponseSchema.parse((await post('v2/play/get_reserve', as(a))).json());
    expect(again.reserve_info).toMatchObject({
      station_id: stationIds.normal,
      reserve_status: 'playTransition',
      reserve_token: info.reserve_token,
      play_reserve_id: info.play_reserve_id,
    });
    await cancelAll(a);
  });

  it("[R7-6] [R3-7] POST /contents/playing lists the caller's reservation as play info with the station", async () => {
    const a = await player();
    await post('v2/play/reserve', as(a, { station_id: stationIds.normal2 }));
    const body = playingResponseSchema.parse((await post('contents/playing', as(a))).json());
    expect(body.list).toHaveLength(1);
    const [info] = body.list;
    expect(info).toMatchObject({
      station_id: stationIds.normal2,
      reserve_status: 'playTransition',
      is_reserve: 1,
      reserve_num: 1,
      reserve_remaintime: 15,
      designated_type: 'normal',
    });
    expect(info!.reserve_polling_id).toBeGreaterThan(0);
    expect(info!.station_data.station_id).toBe(stationIds.normal2);
    const empty = playingResponseSchema.parse((await post('contents/playing', as(await player()))).json());
    expect(empty.list).toEqual([]);
    await cancelAll(a);
  });

  it('keeps places in line when someone ahead cancels: 1, 2, 3 become 1, 2', async () => {
    const [a, b, c] = [await player(), await player(), await player()];
    for (const u of [a, b, c])
      expect((await post('v2/play/reserve', as(u, { station_id: stationIds.normal }))).statusCode).toBe(200);
    const place = async (u: TestUser) =>
      getReserveResponseSchema.parse((await post('v2/play/get_reserve', as(u))).json()).reserve_info.reserve_num;
    expect([await place(a), await place(b), await place(c)]).toEqual([1, 2, 3]);
    const setting = await settingOf(stationIds.normal);
    const cancel = await post(
      'v2/play/reserve_cancel',
      as(a, { shop_id: 1, reserve_cancel: { station_setting_id: setting } }),
    );
    expect(cancel.statusCode).toBe(200);
    expect(reserveCancelResponseSchema.parse(cancel.json()).reserve_cancel.reserve_status).toBe('cancel');
    expect([await place(a), await place(b), await place(c)]).toEqual([0, 1, 2]);
    const record = getReserveResponseSchema.parse((await post('v2/play/get_reserve', as(c))).json()).reserve_info;
    expect(record.reserve_count).toBe(2);
    await cancelAll(b);
    await cancelAll(c);
  });

  it('refuses a second reservation, an unknown station and a station of another shop, changing nothing', async () => {
    const a = await player();
    await post('v2/play/reserve', as(a, { station_id: stationIds.normal }));
    const before = await storeFingerprint(t.server.store());
    for (const [body, code] of [
      [{ station_id: stationIds.normal }, 409],
      [{ station_id: stationIds.normal2 }, 409],
      [{ station_id: 999_999 }, 404],
      [{ station_id: stationIds.normal2, shop_id: 2 }, 404],
    ] as const) {
      const res = await post('v2/play/reserve', as(a, body));
      expect(res.json().error_code).toBe(code);
      expect(res.json().error_info).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
    expect(await storeFingerprint(t.server.store())).toBe(before);
    await cancelAll(a);
  });

  it('a guest may not visit or reserve (401, nothing stored)', async () => {
    const before = await storeFingerprint(t.server.store());
    for (const url of ['v2/play/visit', 'v2/play/reserve']) {
      // No identity at all is a guest: refused as unauthenticated before the body is looked at.
      const res = await post(url, { station_id: stationIds.normal });
      expect(res.statusCode).toBe(401);
      const forged = await post(url, { user_id: 1, access_token: 'x'.repeat(43), station_id: stationIds.normal });
      expect(forged.statusCode).toBe(401);
    }
    expect(await storeFingerprint(t.server.store())).toBe(before);
  });

  it('[R4.3-6] get_reserve on a station in maintenance answers error_code 531', async () => {
    const a = await player();
    for (const id of [stationIds.maintenance, stationIds.adjusting]) {
      const res = await post('v2/play/get_reserve', as(a, { station_id: id }));
      // A product code the client reads from a normal answer (docs/api.md): HTTP 200.
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ error_code: 531, error_info: PLAY_ERROR.maintenance.info, station_id: id });
    }
    // A reserved station that goes into maintenance answers 531 on the caller's next fetch of it;
    // the place ended with the station in the same step, so a fetch naming no station finds none.
    await post('v2/play/reserve', as(a, { station_id: stationIds.normal2 }));
    await stationOps(t.server).setStatus(stationIds.normal2, 'malfunction');
    try {
      expect((await post('v2/play/get_reserve', as(a, { station_id: stationIds.normal2 }))).json()).toMatchObject({
        error_code: 531,
        station_id: stationIds.normal2,
      });
      expect((await post('v2/play/get_reserve', as(a))).json()).toMatchObject({
        error_code: 200,
        reserve_info: { reserve_status: null, station_id: 0 },
      });
      const [ended] = await t.server
        .store()
        .query('SELECT reserve_status, end_reason FROM station_reservations WHERE user_id = $1', [a.user_id]);
      expect(ended).toEqual({ reserve_status: 'cancel', end_reason: 'maintenance' });
      expect(
        (await post('v2/play/reserve', as(await player(), { station_id: stationIds.normal2 }))).json().error_code,
      ).toBe(531);
    } finally {
      await stationOps(t.server).setStatus(stationIds.normal2, 'open');
    }
  });

  it('[R6-3] [R8-2] a VIP station needs 100,000 TC purchased in the past 30 days, else 569 with the exact text', async () => {
    const a = await player();
    const refuse = async () => (await post('v2/play/reserve', as(a, { station_id: stationIds.vip }))).json();
    expect(await refuse()).toEqual({
      error_code: 569,
      error_info: 'こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。',
    });
    expect((await post('v2/play/visit', as(a, { station_id: stationIds.vip }))).json().error_code).toBe(569);
    await buyTc(a, 60_000, 31); // too old
    await buyTc(a, 50_000, 2, 'present'); // not a purchase
    await buyTc(a, 50_000, 2, 'purchase', 'free'); // free TC is not bought
    await buyTc(a, 99_999, 29);
    expect((await refuse()).error_code).toBe(569);
    await buyTc(a, 1, 0);
    const ok = await post('v2/play/reserve', as(a, { station_id: stationIds.vip }));
    expect(ok.statusCode).toBe(200);
    expect(reserveResponseSchema.parse(ok.json()).reserve_info.viewable).toBe(1);
    await cancelAll(a);
  });

  it('[R6-4] [R8-3] a VIP prize won this week (since Monday 00:00 JST) refuses VIP stations with 570', async () => {
    const a = await player();
    await buyTc(a, 100_000, 1);
    const weekStart = new Date(startOfJstWeek(clock.getTime()));
    await t.server
      .store()
      .query('INSERT INTO vip_prize_wins (user_id, station_id, won_at) VALUES ($1, $2, $3)', [
        a.user_id,
        stationIds.vip,
        new Date(weekStart.getTime() - 1000),
      ]);
    expect((await post('v2/play/reserve', as(a, { station_id: stationIds.vip }))).statusCode).toBe(200);
    await cancelAll(a);
    await t.server
      .store()
      .query('INSERT INTO vip_prize_wins (user_id, station_id, won_at) VALUES ($1, $2, $3)', [
        a.user_id,
        stationIds.vip,
        weekStart,
      ]);
    expect((await post('v2/play/reserve', as(a, { station_id: stationIds.vip }))).json()).toEqual({
      error_code: 570,
      error_info: '今週のVIP景品を獲得済みです',
    });
    // Watching stays allowed; normal stations are not limited.
    expect((await post('v2/play/visit', as(a, { station_id: stationIds.vip }))).statusCode).toBe(200);
    expect((await post('v2/play/reserve', as(a, { station_id: stationIds.normal }))).statusCode).toBe(200);
    await cancelAll(a);
  });

  it('[R6-4] the JST week starts on Monday 00:00 Asia/Tokyo', () => {
    // 2026-01-05 is a Monday. 00:00 JST = 2026-01-04T15:00Z.
    const weekOf = (iso: string) => new Date(startOfJstWeek(Date.parse(iso))).toISOString();
    expect(weekOf('2026-01-04T15:00:00Z')).toBe('2026-01-04T15:00:00.000Z');
    expect(weekOf('2026-01-04T14:59:59Z')).toBe('2025-12-28T15:00:00.000Z');
    expect(weekOf('2026-01-11T14:59:59Z')).toBe('2026-01-04T15:00:00.000Z');
  });

  it('[R6-5] [R8-4] an exclusive VIP station in use by someone else answers 571; its own holder is not blocked', async () => {
    const [a, b] = [await player(), await player()];
    await buyTc(a, 100_000);
    await buyTc(b, 100_000);
    expect((await post('v2/play/reserve', as(a, { station_id: stationIds.exclusive }))).statusCode).toBe(200);
    const before = await storeFingerprint(t.server.store());
    expect((await post('v2/play/reserve', as(b, { station_id: stationIds.exclusive }))).json()).toEqual({
      error_code: 571,
      error_info: '他のお客様がVIP独占台をプレイ中です',
    });
    expect(await storeFingerprint(t.server.store())).toBe(before);
    await cancelAll(a);
    expect((await post('v2/play/reserve', as(b, { station_id: stationIds.exclusive }))).statusCode).toBe(200);
    await cancelAll(b);
  });

  it("[R7-6] POST /v2/play/visit_cancel ends the caller's visit; visiting another station ends the previous one", async () => {
    const a = await player();
    const first = visitResponseSchema.parse(
      (await post('v2/play/visit', as(a, { station_id: stationIds.normal }))).json(),
    ).reserve_info;
    const second = visitResponseSchema.parse(
      (await post('v2/play/visit', as(a, { station_id: stationIds.normal2 }))).json(),
    ).reserve_info;
    const open = await t.server
      .store()
      .query<{ station_id: number }>('SELECT station_id FROM station_visits WHERE user_id = $1 AND ended_at IS NULL', [
        a.user_id,
      ]);
    expect(open).toEqual([{ station_id: stationIds.normal2 }]);
    const res = await post('v2/play/visit_cancel', as(a, { station_setting_id: second.station_setting_id }));
    expect(res.statusCode).toBe(200);
    expect(visitCancelResponseSchema.parse(res.json()).visit_cancel.station_setting_id).toBe(second.station_setting_id);
    expect(
      (await post('v2/play/visit_cancel', as(a, { station_setting_id: first.station_setting_id }))).statusCode,
    ).toBe(404);
  });

  it('[R7-6] POST /v2/play/reserve_cancel needs the shop the station belongs to', async () => {
    const a = await player();
    const reserved = reserveResponseSchema.parse(
      (await post('v2/play/reserve', as(a, { station_id: stationIds.normal2 }))).json(),
    );
    const setting = reserved.reserve_info.station_setting_id;
    expect(
      (await post('v2/play/reserve_cancel', as(a, { shop_id: 2, reserve_cancel: { station_setting_id: setting } })))
        .statusCode,
    ).toBe(404);
    expect(
      (await post('v2/play/reserve_cancel', as(a, { shop_id: 1, reserve_cancel: { station_setting_id: setting } })))
        .statusCode,
    ).toBe(200);
    expect(
      (await post('v2/play/reserve_cancel', as(a, { shop_id: 1, reserve_cancel: { station_setting_id: setting } })))
        .statusCode,
    ).toBe(404);
  });
});

describe("no call reads or changes another user's reservation", () => {
  it("user B sees none of A's reservation and cannot cancel A's reservation or visit", async () => {
    const [a, b] = [await player(), await player()];
    await post('v2/play/visit', as(a, { station_id: stationIds.normal }));
    const mine = reserveResponseSchema.parse(
      (await post('v2/play/reserve', as(a, { station_id: stationIds.normal }))).json(),
    );
    const setting = mine.reserve_info.station_setting_id;
    const before = await storeFingerprint(t.server.store());

    const seen = getReserveResponseSchema.parse((await post('v2/play/get_reserve', as(b))).json()).reserve_info;
    expect(seen.reserve_token).toBe('');
    const onStation = getReserveResponseSchema.parse(
      (await post('v2/play/get_reserve', as(b, { station_id: stationIds.normal }))).json(),
    ).reserve_info;
    expect(onStation.reserve_token).toBe('');
    expect(onStation.play_reserve_id).toBe(0);
    expect(onStation.reserve_count).toBeGreaterThanOrEqual(1);
    expect(playingResponseSchema.parse((await post('contents/playing', as(b))).json()).list).toEqual([]);

    expect(
      (await post('v2/play/reserve_cancel', as(b, { shop_id: 1, reserve_cancel: { station_setting_id: setting } })))
        .statusCode,
    ).toBe(404);
    expect((await post('v2/play/visit_cancel', as(b, { station_setting_id: setting }))).statusCode).toBe(404);
    // A's id with B's token is not A.
    for (const url of [
      'v2/play/get_reserve',
      'contents/playing',
      'v2/play/visit_cancel',
      'v2/play/reserve_cancel',
      'v2/play/visit',
      'v2/play/reserve',
    ]) {
      const res = await post(url, {
        user_id: a.user_id,
        access_token: b.access_token,
        station_id: stationIds.normal,
        station_setting_id: setting,
        shop_id: 1,
        reserve_cancel: { station_setting_id: setting },
      });
      expect(res.statusCode, url).toBe(401);
    }
    expect(await storeFingerprint(t.server.store())).toBe(before);
    expect(
      getReserveResponseSchema.parse((await post('v2/play/get_reserve', as(a))).json()).reserve_info.reserve_token,
    ).toBe(mine.reserve_info.reserve_token);
    await cancelAll(a);
  });
});

describe('the purchased-TC source', () => {
  it('[R6-3] sums the paid TC a user bought in the window (since < t <= now), nothing else', async () => {
    const source = new StoreTcLedgerSource();
    const [a, b] = [await player(), await player()];
    const since = new Date(clock.getTime() - 30 * 86_400_000);
    expect(await source.purchasedTc(t.server.store(), a.user_id, since, clock)).toBe(0);
    await buyTc(a, 70_000, 9);
    await buyTc(a, 30_000, 30); // exactly 30 days ago: outside the window
    await buyTc(a, 5_000, 29.99);
    await buyTc(a, 9_000, 1, 'purchase', 'free'); // free TC is not bought TC
    await buyTc(a, 4_000, 1, 'present'); // a present is not a purchase
    await buyTc(b, 90_000, 1); // another user's purchase
    expect(await source.purchasedTc(t.server.store(), a.user_id, since, clock)).toBe(75_000);
  });
});
