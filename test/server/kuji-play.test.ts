import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KUJI_REMAIN_MAX_SECONDS,
  kujiListResponseSchema,
  kujiPollingResponseSchema,
  kujiReserveCancelResponseSchema,
  kujiReserveResponseSchema,
  kujiStatusCheckResponseSchema,
  type KujiItem,
} from '../../src/contract';
import { storeFingerprint } from '../support/store-fingerprint';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { ManualServerClock } from '../support/manual-server-clock';

let t: TestServer;
const clock = new ManualServerClock(new Date());
let kuji: KujiItem[];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  kuji = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
/** The n-th box with this status across the seeded kuji. */
const box = (status: string, n = 0) => {
  const found = kuji.flatMap((k) =>
    k.boxes.filter((b) => b.box_status === status).map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id })),
  );
  if (!found[n]) throw new Error(`no ${status} box #${n}`);
  return found[n];
};

describe('POST /contents/kuji', () => {
  it('[R7-6] lists the kuji on sale with kuji_img_urls, boxes and the prizes left in each box', async () => {
    expect(kuji.length).toBeGreaterThanOrEqual(4);
    for (const k of kuji) {
      expect(k.kuji_img_urls.length).toBeGreaterThan(0);
      expect(k.boxes.every((b) => b.box_status !== 'deleted')).toBe(true);
      for (const b of k.boxes)
        expect(b.remaining_count).toBe(b.prizes.filter((p) => p.last_one === 0).reduce((n, p) => n + p.remaining, 0));
    }
    const statuses = new Set(kuji.flatMap((k) => k.boxes.map((b) => b.box_status)));
    for (const s of ['onSale', 'ready', 'endOfSale', 'outOfStock']) expect(statuses).toContain(s);
    const image = await t.server.app.inject({ method: 'GET', url: kuji[0]!.kuji_img_urls[0]! });
    expect(image.headers['content-type']).toContain('image/svg+xml');
    expect((await post('contents/kuji', { type: 2 })).statusCode).toBe(400);
  });
});

describe('kuji reservations over the store', () => {
  it("[R7-6] [R3-8] POST /play/kuji_status_check answers null, then the caller's kuji play info after reserving", async () => {
    const a = await createTestUser(t);
    expect(
      kujiStatusCheckResponseSchema.parse((await post('play/kuji_status_check', as(a))).json()).play_info,
    ).toBeNull();
    const target = box('onSale', 0);
    const reserved = kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(a, target))).json()).play_info;
    expect(reserved).toMatchObject({
      ...target,
      reserve_status: 'firstReserved',
      reserve_num: 1,
      box_status: 'onSale',
      reserve_remaintime: KUJI_REMAIN_MAX_SECONDS.firstReserved,
    });
    const info = kujiStatusCheckResponseSchema.parse((await post('play/kuji_status_check', as(a))).json()).play_info!;
    for (const key of [
      'reserve_polling_id',
      'kuji_play_reserve_id',
      'reserve_token',
      'reserve_num',
      'reserve_status',
      'kuji_id',
      'box_id',
      'box_status',
      'reserve_remaintime',
      'play_at',
    ]) {
      expect(info).toHaveProperty(key);
    }
    expect(info.reserve_token).toBe(reserved.reserve_token);
    await post('play/kuji_reserve_cancel', as(a, { reserve_token: info.reserve_token, ...target }));
  });

  it('[R7-6] [R4.4-5] POST /play/kuji_polling computes reserve_remaintime on the server from play_at', async () => {
    const a = await createTestUser(t);
    const target = box('onSale', 1);
    const start = clock.now();
    const info = kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(a, target))).json()).play_info;
    expect(info.play_at).toBe(start.toISOString());
    const poll = async () =>
      kujiPollingResponseSchema.parse(
        (await post('play/kuji_polling', as(a, { reserve_token: info.reserve_token, ...target }))).json(),
      ).polling.play_info;
    clock.set(new Date(start.getTime() + 25_400));
    expect((await poll()).reserve_remaintime).toBe(KUJI_REMAIN_MAX_SECONDS.firstReserved - 25);
    // confirm has its own maximum, counted from play_at as well.
    await t.server
      .store()
      .query(`UPDATE kuji_reservations SET reserve_status = 'confirm' WHERE reserve_token = $1`, [info.reserve_token]);
    expect((await poll()).reserve_remaintime).toBe(KUJI_REMAIN_MAX_SECONDS.confirm - 25);
    clock.set(new Date(start.getTime() + 10 * 60_000));
    expect((await poll()).reserve_remaintime).toBe(0);
    // A play_at ahead of the server's clock counts as the whole window.
    await t.server
      .store()
      .query(`UPDATE kuji_reservations SET reserve_status = 'firstReserved', play_at = $2 WHERE reserve_token = $1`, [
        info.reserve_token,
        new Date(clock.now().getTime() + 5000).toISOString(),
      ]);
    expect((await poll()).reserve_remaintime).toBe(KUJI_REMAIN_MAX_SECONDS.firstReserved);
    await t.server
      .store()
      .query(
        `UPDATE kuji_reservations SET reserve_status = 'end', ended_at = now(), end_reason = 'drawn' WHERE reserve_token = $1`,
        [info.reserve_token],
      );
  });

  it('queues behind the holder and moves up when the holder cancels (place 2 becomes the holder)', async () => {
    const [a, b, c] = [await createTestUser(t), await createTestUser(t), await createTestUser(t)];
    const target = box('onSale', 2);
    const infos = [];
    for (const u of [a, b, c])
      infos.push(kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(u, target))).json()).play_info);
    expect(infos.map((i) => [i.reserve_status, i.reserve_num])).toEqual([
      ['firstReserved', 1],
      ['reserve', 2],
      ['reserve', 3],
    ]);
    const cancelled = kujiReserveCancelResponseSchema.parse(
      (await post('play/kuji_reserve_cancel', as(a, { reserve_token: infos[0]!.reserve_token, ...target }))).json(),
    ).play_info;
    expect(cancelled).toMatchObject({ reserve_status: 'cancel', reserve_num: 0, reserve_remaintime: 0 });
    const poll = async (u: TestUser, token: string) =>
      kujiPollingResponseSchema.parse(
        (await post('play/kuji_polling', as(u, { reserve_token: token, ...target }))).json(),
      ).polling.play_info;
    expect(await poll(b, infos[1]!.reserve_token)).toMatchObject({
      reserve_status: 'firstReserved',
      reserve_num: 1,
      play_at: clock.now().toISOString(),
    });
    expect(await poll(c, infos[2]!.reserve_token)).toMatchObject({
      reserve_status: 'reserve',
      reserve_num: 2,
      play_at: null,
    });
    // A cancelled reservation still polls, so the client sees it ended [R4.4-4].
    expect((await poll(a, infos[0]!.reserve_token)).reserve_status).toBe('cancel');
    const again = await post('play/kuji_reserve_cancel', as(a, { reserve_token: infos[0]!.reserve_token, ...target }));
    expect(again.statusCode).toBe(409);
    for (const [u, i] of [
      [b, infos[1]!],
      [c, infos[2]!],
    ] as const)
      await post('play/kuji_reserve_cancel', as(u, { reserve_token: i.reserve_token, ...target }));
  });

  it('[R4.4-2] polling reports the box status once a box ends, so the client stops', async () => {
    const a = await createTestUser(t);
    const target = box('onSale', 3);
    const info = kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(a, target))).json()).play_info;
    // The operator ends the box through its room: its line is over with it.
    await t.server.services().rooms.send('kuji', target.box_id, { type: 'setStatus', status: 'endOfSale' });
    const polled = kujiPollingResponseSchema.parse(
      (await post('play/kuji_polling', as(a, { reserve_token: info.reserve_token, ...target }))).json(),
    ).polling.play_info;
    expect(polled).toMatchObject({ box_status: 'endOfSale', reserve_status: 'end' });
  });

  it('refuses boxes not on sale, unknown boxes, a box of another kuji and a second kuji, changing nothing', async () => {
    const a = await createTestUser(t);
    const held = kujiReserveResponseSchema.parse(
      (await post('play/kuji_reserve', as(a, box('onSale', 0)))).json(),
    ).play_info;
    const other = await createTestUser(t);
    const before = await storeFingerprint(t.server.store());
    const cases: [TestUser, object, number][] = [
      [other, box('ready'), 409],
      [other, box('endOfSale'), 409],
      [other, box('outOfStock'), 409],
      [other, { kuji_id: box('onSale', 0).kuji_id, box_id: 999_999 }, 404],
      [other, { kuji_id: box('onSale', 1).kuji_id, box_id: box('onSale', 0).box_id }, 404],
      [a, box('onSale', 1), 409],
    ];
    for (const [u, body, code] of cases) {
      const res = await post('play/kuji_reserve', as(u, body));
      expect(res.json().error_code, JSON.stringify(body)).toBe(code);
      expect(res.json().error_info).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
    expect(await storeFingerprint(t.server.store())).toBe(before);
    await post('play/kuji_reserve_cancel', as(a, { reserve_token: held.reserve_token, ...box('onSale', 0) }));
  });
});

describe("no kuji call reads or changes another user's reservation", () => {
  it("user B cannot poll or cancel with A's reserve token, and sees none of A's play info", async () => {
    const [a, b] = [await createTestUser(t), await createTestUser(t)];
    const target = box('onSale', 0);
    const info = kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(a, target))).json()).play_info;
    const before = await storeFingerprint(t.server.store());
    expect(
      kujiStatusCheckResponseSchema.parse((await post('play/kuji_status_check', as(b))).json()).play_info,
    ).toBeNull();
    for (const url of ['play/kuji_polling', 'play/kuji_reserve_cancel']) {
      const res = await post(url, as(b, { reserve_token: info.reserve_token, ...target }));
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error_info).toBe('くじの予約が見つかりませんでした。');
      // A's user_id with B's token is refused before anything is read.
      expect(
        (
          await post(url, {
            user_id: a.user_id,
            access_token: b.access_token,
            reserve_token: info.reserve_token,
            ...target,
          })
        ).statusCode,
      ).toBe(401);
    }
    expect(
      (await post('play/kuji_status_check', { user_id: a.user_id, access_token: b.access_token })).statusCode,
    ).toBe(401);
    expect(await storeFingerprint(t.server.store())).toBe(before);
    expect(
      kujiStatusCheckResponseSchema.parse((await post('play/kuji_status_check', as(a))).json()).play_info
        ?.reserve_token,
    ).toBe(info.reserve_token);
    await post('play/kuji_reserve_cancel', as(a, { reserve_token: info.reserve_token, ...target }));
  });
});
