import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  carouselResponseSchema,
  characterResponseSchema,
  informationResponseSchema,
  NEW_ARRIVALS_LIMIT,
  newArrivalsResponseSchema,
  PAGE_ITEMS_COUNT,
  prizeResponseSchema,
  prizeV2ResponseSchema,
  startNewsResponseSchema,
  virtualCraneListResponseSchema,
} from '../../src/contract';
import { showsVirtualCraneTab } from '../../server/catalogue/catalogue.repository';
import { storeFingerprint } from '../support/store-fingerprint';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let user: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  user = await createTestUser(t);
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
const v2 = async (prize: object, extra: object = {}) => {
  const res = await post('v2/contents/prize', { shop_id: 1, prize, ...extra });
  expect(res.statusCode, JSON.stringify(res.json()).slice(0, 200)).toBe(200);
  return prizeV2ResponseSchema.parse(res.json());
};
const allStations = async () => (await v2({ is_all: 1 })).prize.list;

describe('POST /contents/prize', () => {
  it('[R7-6] finds prizes by station_id, character_id or keyword and answers prize, prize_fes and prize_ticket', async () => {
    const stations = await allStations();
    const first = stations[0]!;
    const byStation = prizeResponseSchema.parse(
      (await post('contents/prize', { shop_id: 1, prize: { station_id: first.station_id } })).json(),
    );
    expect(byStation.prize.map((p) => p.station_id)).toEqual([first.station_id]);
    // The first seeded station is in the running festival.
    expect(byStation.prize_fes.map((p) => p.station_id)).toEqual([first.station_id]);

    const [character] = characterResponseSchema.parse((await post('contents/character', {})).json()).character.list;
    const byCharacter = prizeResponseSchema.parse(
      (await post('contents/prize', { shop_id: 1, prize: { character_id: character!.character_id } })).json(),
    );
    expect(byCharacter.prize.length).toBeGreaterThan(1);
    expect(byCharacter.prize.every((p) => p.character === character!.character_name)).toBe(true);

    const byKeyword = prizeResponseSchema.parse(
      (await post('contents/prize', { shop_id: 1, prize: { keyword: 'ﾏｽｺｯﾄ' } })).json(),
    );
    expect(byKeyword.prize.length).toBeGreaterThan(0);
    expect(byKeyword.prize.every((p) => p.prize_name.includes('マスコット'))).toBe(true);
    expect(byKeyword.prize_ticket.length).toBeGreaterThan(0);
    expect(byKeyword.prize_ticket.every((p) => p.designated_type === 'point_ticket')).toBe(true);

    const none = prizeResponseSchema.parse(
      (await post('contents/prize', { shop_id: 1, prize: { keyword: '存在しない景品' } })).json(),
    );
    expect(none.prize).toEqual([]);
  });

  it('refuses a prize body naming none or two of station_id, character_id, keyword', async () => {
    for (const prize of [{}, { station_id: 1, keyword: 'a' }, { keyword: '' }, { keyword: 'x'.repeat(101) }]) {
      const res = await post('contents/prize', { shop_id: 1, prize });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_info).toMatch(/[\u3040-\u30ff]/);
    }
  });
});

describe('POST /v2/contents/prize', () => {
  it('[R7-6] answers prize.list a page of PAGE_ITEMS_COUNT at a time, with tab_list and sale_list', async () => {
    const page1 = await v2({});
    const total = page1.prize.total_count;
    expect(total).toBeGreaterThan(PAGE_ITEMS_COUNT);
    expect(page1.prize.list).toHaveLength(PAGE_ITEMS_COUNT);
    expect(page1.prize.page_count).toBe(Math.ceil(total / PAGE_ITEMS_COUNT));
    const page2 = await v2({}, { page: 2 });
    expect(page2.prize.list).toHaveLength(total - PAGE_ITEMS_COUNT);
    expect(new Set([...page1.prize.list, ...page2.prize.list].map((p) => p.station_id)).size).toBe(total);
    expect((await v2({}, { page: 3 })).prize.list).toEqual([]);
    expect((await v2({ is_all: 1 })).prize.list).toHaveLength(total);
    expect(page1.tab_list.length).toBeGreaterThan(5);
    expect(page1.sale_list.length).toBeGreaterThan(3);
  });

  it('[R3-17] [R3-9] applies every search param', async () => {
    const all = await allStations();
    const tabs = (await v2({})).tab_list;
    const check = async (prize: object, predicate: (p: (typeof all)[number]) => boolean) => {
      const list = (await v2({ ...prize, is_all: 1 })).prize.list;
      const expected = all.filter(predicate).map((p) => p.station_id);
      expect(expected.length, JSON.stringify(prize)).toBeGreaterThan(0);
      expect(
        list.map((p) => p.station_id),
        JSON.stringify(prize),
      ).toEqual(expected);
    };
    await check({ keyword: 'ぱんだ' }, (p) => p.character === 'ぱんだ日和');
    await check({ keyword: 'クッキー' }, (p) => p.prize_name.includes('クッキー'));
    await check(
      { station_ids: [all[2]!.station_id, all[5]!.station_id] },
      (p) => p.station_id === all[2]!.station_id || p.station_id === all[5]!.station_id,
    );
    await check({ station_type: 'exclusive' }, (p) => p.type === 'exclusive');
    await check({ new: 1 }, (p) => p.new === 1);
    await check({ designated_type: 'practice' }, (p) => p.designated_type === 'practice');
    await check({ natia: 1 }, (p) => p.natia === 1);
    await check({ vip: 1 }, (p) => p.type !== 'normal');
    await check({ exclusive: 1 }, (p) => p.type === 'exclusive');
    await check({ exclusive: 0 }, (p) => p.type !== 'exclusive');
    await check({ gift_type: 1 }, (p) => /マグカップ|クッキー缶|ブランケット/.test(p.prize_name));
    await check({ refine_search: 1 }, (p) => p.station_status === 'open');
    const genre = tabs.find((t) => t.tab_kind === 'genre' && t.tab_name === 'フィギュア')!;
    await check({ category_id: genre.tab_id }, (p) => p.genre === 'フィギュア');
    const natiaTab = tabs.find((t) => t.tab_kind === 'natia')!;
    await check({ category_id: natiaTab.tab_id }, (p) => p.natia === 1);
    const characters = characterResponseSchema.parse((await post('contents/character', {})).json()).character.list;
    const neko = characters.find((c) => c.character_name === 'ねこまる')!;
    await check({ character_id: neko.character_id, natia: 0 }, (p) => p.character === 'ねこまる' && p.natia === 0);
    expect((await v2({ keyword: '存在しない景品' })).prize).toMatchObject({ list: [], total_count: 0, page_count: 0 });
  });

  it('[R2.4-2] lists the virtual-crane tab only for a signed-in caller with no search filter active', async () => {
    const kinds = async (body: object) => (await v2({}, body)).tab_list.map((t) => t.tab_kind);
    expect(await kinds({})).not.toContain('virtual_crane');
    expect(await kinds(as(user))).toContain('virtual_crane');
    expect((await v2({ natia: 1 }, as(user))).tab_list.map((t) => t.tab_kind)).not.toContain('virtual_crane');
    expect((await v2({ is_all: 1 }, as(user))).tab_list.map((t) => t.tab_kind)).toContain('virtual_crane');
    // A forged token is a guest.
    expect(await kinds({ user_id: user.user_id, access_token: 'y'.repeat(43) })).not.toContain('virtual_crane');
    expect(showsVirtualCraneTab({ signedIn: true, target: 'yahoo', filterActive: false })).toBe(false);
    expect(showsVirtualCraneTab({ signedIn: true, target: 'web', filterActive: false })).toBe(true);
  });

  it("restricts to a festival's stations and refuses an unknown festival or shop", async () => {
    const res = await post('v2/contents/prize', { shop_id: 1, fes_id: 999, prize: {} });
    expect(res.json()).toEqual({ error_code: 404, error_info: 'フェスが見つかりません。' });
    expect((await post('v2/contents/prize', { shop_id: 5, prize: {} })).json().error_code).toBe(404);
    const [fes] = await t.server.store().query<{ fes_id: number }>('SELECT fes_id FROM fes LIMIT 1');
    const inFes = await v2({ is_all: 1 }, { fes_id: fes!.fes_id });
    const ids = (
      await t.server
        .store()
        .query<{ station_id: number }>('SELECT station_id FROM fes_stations WHERE fes_id = $1 ORDER BY station_id', [
          fes!.fes_id,
        ])
    ).map((r) => r.station_id);
    expect(inFes.prize.list.map((p) => p.station_id).sort((x, y) => x - y)).toEqual(ids);
  });
});

describe('editorial contents', () => {
  it('[R7-6] POST /contents/carousel answers carousel.list with id, title, type_id and a pc image url', async () => {
    const body = carouselResponseSchema.parse((await post('contents/carousel', as(user))).json());
    expect(body.carousel.list.length).toBeGreaterThanOrEqual(3);
    for (const c of body.carousel.list) {
      expect(c.title).toMatch(/[ぁ-んァ-ン一-龯]/);
      const image = await t.server.app.inject({ method: 'GET', url: c.pc_img_url });
      expect(image.statusCode).toBe(200);
    }
    expect(carouselResponseSchema.parse((await post('contents/carousel', {})).json()).carousel.list).toEqual(
      body.carousel.list,
    );
  });

  it('[R7-6] [R9-2] POST /contents/information pages 100 at a time, newest first, published only', async () => {
    const page1 = informationResponseSchema.parse(
      (await post('contents/information', { page: 1, num: 100, shop_id: 1 })).json(),
    ).information;
    expect(page1.list).toHaveLength(100);
    expect(page1.total_count).toBe(123);
    expect(page1.page_count).toBe(2);
    const times = page1.list.map((i) => Date.parse(i.published_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const page2 = informationResponseSchema.parse(
      (await post('contents/information', { page: 2, num: 100, shop_id: 1 })).json(),
    ).information;
    expect(page2.list).toHaveLength(23);
    expect(page2.total_count).toBe(123);
    expect([...page1.list, ...page2.list].some((i) => i.tag === 'info-scheduled')).toBe(false);
    const empty = informationResponseSchema.parse(
      (await post('contents/information', { page: 9, num: 100, shop_id: 1 })).json(),
    ).information;
    expect(empty).toMatchObject({ list: [], total_count: 123 });
    expect((await post('contents/information', { page: 1, num: 101, shop_id: 1 })).statusCode).toBe(400);
    expect((await post('contents/information', { page: 0, num: 100, shop_id: 1 })).statusCode).toBe(400);
  });

  it('POST /contents/information with a tag answers that one published item; a scheduled or unknown tag answers none; a bad tag is refused in Japanese', async () => {
    const one = informationResponseSchema.parse(
      (await post('contents/information', { page: 1, num: 100, shop_id: 1, tag: 'info-0003' })).json(),
    ).information;
    expect(one.list.map((i) => i.tag)).toEqual(['info-0003']);
    expect(one.total_count).toBe(1);
    const scheduled = informationResponseSchema.parse(
      (await post('contents/information', { page: 1, num: 100, shop_id: 1, tag: 'info-scheduled' })).json(),
    ).information;
    expect(scheduled).toMatchObject({ list: [], total_count: 0 });
    const bad = await post('contents/information', { page: 1, num: 100, shop_id: 1, tag: '../<script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_info).toBe('お知らせの指定が正しくありません。');
  });

  it('[R7-6] POST /contents/get_start_news lists the top-page or picked-up news', async () => {
    const top = startNewsResponseSchema.parse(
      (await post('contents/get_start_news', { page: 1, num: 100, shop_id: 1, is_top_page: 1 })).json(),
    );
    expect(top.list.length).toBe(12);
    expect(top.list.every((i) => i.is_top_page === 1)).toBe(true);
    const pick = startNewsResponseSchema.parse(
      (await post('contents/get_start_news', { page: 1, num: 5, shop_id: 1, is_pick_up: 1 })).json(),
    );
    expect(pick.list).toHaveLength(5);
    expect(pick.total_count).toBe(8);
    expect(pick.list.every((i) => i.is_pick_up === 1)).toBe(true);
    expect((await post('contents/get_start_news', { page: 1, num: 10, shop_id: 1 })).statusCode).toBe(400);
  });

  it('[R7-6] [R3-10] POST /contents/character answers character.list, each with its sub_character list', async () => {
    const list = characterResponseSchema.parse((await post('contents/character', as(user))).json()).character.list;
    expect(list.length).toBe(6);
    for (const c of list) {
      expect(c.sub_character.length).toBeGreaterThanOrEqual(2);
      for (const s of c.sub_character) expect(s.sub_character_name).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
    expect(list[0]!.sub_character.map((s) => s.sub_character_name)).toEqual(['ミルク', 'あんこ', 'さくら']);
  });

  it('[R7-6] [R6-1] POST /virtualcrane/list answers list and Badge to a signed-in user and refuses a guest', async () => {
    const body = virtualCraneListResponseSchema.parse((await post('virtualcrane/list', as(user))).json());
    expect(body.list.length).toBe(4);
    expect(body.Badge).toBe(body.list.filter((v) => v.new === 1).length);
    expect(body.Badge).toBeGreaterThan(0);
    expect((await post('virtualcrane/list', {})).statusCode).toBe(401);
    expect((await post('virtualcrane/list', { user_id: user.user_id, access_token: 'z'.repeat(43) })).statusCode).toBe(
      401,
    );
  });
});

describe('GET /store/new_arrivals', () => {
  it('[R7-7] is public and answers at most 50 new arrivals, newest first, with name, release date and image', async () => {
    const before = await storeFingerprint(t.server.store());
    const res = await t.server.app.inject({ method: 'GET', url: '/api/store/new_arrivals' });
    expect(res.statusCode).toBe(200);
    expect(await storeFingerprint(t.server.store())).toBe(before);
    const body = newArrivalsResponseSchema.parse(res.json());
    expect(body.list.length).toBe(36);
    const dates = body.list.map((i) => i.release_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.list[0]!.name).toMatch(/[ぁ-んァ-ン一-龯]/);
    expect((await t.server.app.inject({ method: 'GET', url: body.list[0]!.img_url })).statusCode).toBe(200);

    // With more prizes than the limit, exactly 50 come back.
    await t.server.store().query(
      `INSERT INTO stations (station_admin_id, shop_id, prize_name, character_id, sub_character_id, genre, station_type, designated_type, play_price, image_key, released_at)
       SELECT 'EXTRA-' || g, 1, 'おためし景品' || g, s.character_id, s.sub_character_id, s.genre, 'normal', 'normal', 100, s.image_key, now() - interval '200 days'
         FROM generate_series(1, 20) g, (SELECT * FROM stations ORDER BY station_id LIMIT 1) s`,
    );
    const many = newArrivalsResponseSchema.parse(
      (await t.server.app.inject({ method: 'GET', url: '/api/store/new_arrivals' })).json(),
    );
    expect(many.list).toHaveLength(NEW_ARRIVALS_LIMIT);
    const few = newArrivalsResponseSchema.parse(
      (await t.server.app.inject({ method: 'GET', url: '/api/store/new_arrivals?limit=5' })).json(),
    );
    expect(few.list).toEqual(many.list.slice(0, 5));
    expect((await t.server.app.inject({ method: 'GET', url: '/api/store/new_arrivals?limit=51' })).statusCode).toBe(
      400,
    );
  });
});
