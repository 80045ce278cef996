import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { topPagePrizeResponseSchema } from '../../src/contract';
import { NEW_ARRIVALS_LIMIT, PAGE_ITEMS_COUNT } from '../../src/domain';
import type { ContractDriver } from './harness';

/** The §3 prize/station item fields [R3-9] (plus the catalogue's own prize_name, img_url, play_price, genre). */
const PRIZE_FIELDS = [
  'station_id',
  'station_admin_id',
  'playing',
  'new',
  'station_status',
  'natia',
  'little',
  'disclosure',
  'type',
  'character',
  'sub_character',
  'designated_type',
  'is_get',
];

/** The catalogue calls (spec §7 /contents/*, /virtualcrane/list, the new-arrivals GET), as every implementation must answer them. */
export function catalogContract(driver: () => ContractDriver): void {
  const catalog = () => driver().client().get(TOKENS.PrizeCatalogPort);

  it('[R7-6] POST /contents/top_page_prize: tabs, rows of valid stations, banners, fes and new prizes', async () => {
    const page = await firstValueFrom(catalog().topPage({ shopId: 1 }));
    expect(topPagePrizeResponseSchema.safeParse({ error_code: 200, error_info: '', ...page }).success).toBe(true);
    expect(page.tab_list[0]?.tab_kind).toBe('home');
    const stations = page.sale_list.flatMap((s) => s.list);
    expect(stations.length).toBeGreaterThan(0);
    const known = new Set(await driver().fixtures.stationIds());
    for (const s of stations) expect(known.has(s.station_id)).toBe(true);
    expect(page.new_prize.every((p) => p.new === 1)).toBe(true);
  });

  it('[R2.4-2] POST /contents/top_page_prize lists no virtual-crane tab for a guest', async () => {
    const page = await firstValueFrom(catalog().topPage({ shopId: 1 }));
    expect(page.tab_list.some((t) => t.tab_kind === 'virtual_crane')).toBe(false);
  });

  it('[R7-6][R3-9] POST /contents/prize by station_id answers exactly that station with every §3 prize field', async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const found = await firstValueFrom(catalog().lookUpPrizes({ shopId: 1, by: { stationId: stationId! } }));
    expect(found.prize.map((p) => p.station_id)).toEqual([stationId]);
    for (const field of PRIZE_FIELDS) expect(found.prize[0]).toHaveProperty(field);
    expect(found.prize_ticket.every((p) => p.designated_type === 'point_ticket')).toBe(true);
    expect(found.prize_fes.every((p) => p.station_id === stationId)).toBe(true);
  });

  it('[R7-6] POST /contents/prize by keyword and by character_id; an unknown shop is refused with 404 ショップが見つかりません。', async () => {
    const [vip] = await driver().fixtures.playableStationIds('vip');
    const byStation = await firstValueFrom(catalog().lookUpPrizes({ shopId: 1, by: { stationId: vip! } }));
    const item = byStation.prize[0]!;
    const byKeyword = await firstValueFrom(catalog().lookUpPrizes({ shopId: 1, by: { keyword: item.prize_name } }));
    expect(byKeyword.prize.some((p) => p.station_id === vip)).toBe(true);
    const characters = await firstValueFrom(catalog().characters());
    const character = characters.find((c) => c.character_name === item.character)!;
    const byCharacter = await firstValueFrom(
      catalog().lookUpPrizes({ shopId: 1, by: { characterId: character.character_id } }),
    );
    expect(byCharacter.prize.length).toBeGreaterThan(0);
    expect(byCharacter.prize.every((p) => p.character === item.character)).toBe(true);
    await expect(
      firstValueFrom(catalog().lookUpPrizes({ shopId: 999_999, by: { keyword: 'うさぎ' } })),
    ).rejects.toMatchObject({ name: 'PostResponseError', code: 404, info: 'ショップが見つかりません。' });
  });

  it('[R7-6][R3-17] POST /v2/contents/prize applies the search params and pages by PAGE_ITEMS_COUNT', async () => {
    const all = await firstValueFrom(catalog().searchPrizes({ shopId: 1 }));
    expect(all.prize.page).toBe(1);
    expect(all.prize.page_items_count).toBe(PAGE_ITEMS_COUNT);
    expect(all.prize.list.length).toBe(Math.min(all.prize.total_count, PAGE_ITEMS_COUNT));
    expect(all.prize.page_count).toBe(Math.ceil(all.prize.total_count / PAGE_ITEMS_COUNT));
    const everything = await firstValueFrom(catalog().searchPrizes({ shopId: 1, params: { is_all: 1 } }));
    expect(everything.prize.list.length).toBe(all.prize.total_count);

    const vip = await firstValueFrom(catalog().searchPrizes({ shopId: 1, params: { vip: 1, is_all: 1 } }));
    expect(vip.prize.list.length).toBeGreaterThan(0);
    expect(vip.prize.list.every((p) => p.type !== 'normal')).toBe(true);
    const exclusive = await firstValueFrom(catalog().searchPrizes({ shopId: 1, params: { exclusive: 1, is_all: 1 } }));
    expect(exclusive.prize.list.every((p) => p.type === 'exclusive')).toBe(true);
    const practice = await firstValueFrom(
      catalog().searchPrizes({ shopId: 1, params: { designated_type: 'practice', is_all: 1 } }),
    );
    expect(practice.prize.list.every((p) => p.designated_type === 'practice')).toBe(true);
    const playable = await firstValueFrom(
      catalog().searchPrizes({ shopId: 1, params: { refine_search: 1, is_all: 1 } }),
    );
    expect(playable.prize.list.every((p) => p.station_status === 'open')).toBe(true);
    expect(playable.prize.total_count).toBeLessThan(everything.prize.total_count);
    // A search with no match is an empty page, not an error (the UI shows prize-not-found, R8-8).
    const none = await firstValueFrom(
      catalog().searchPrizes({ shopId: 1, params: { keyword: 'このキーワードに合う景品はありません' } }),
    );
    expect(none.prize).toMatchObject({ list: [], total_count: 0, page_count: 0 });
  });

  it('[R2.4-2] POST /v2/contents/prize lists the virtual-crane tab only for a signed-in user with no filter active', async () => {
    const { client } = await driver().newUser();
    const signedIn = client.get(TOKENS.PrizeCatalogPort);
    const plain = await firstValueFrom(signedIn.searchPrizes({ shopId: 1 }));
    expect(plain.tab_list.some((t) => t.tab_kind === 'virtual_crane')).toBe(true);
    const filtered = await firstValueFrom(signedIn.searchPrizes({ shopId: 1, params: { keyword: 'うさぎ' } }));
    expect(filtered.tab_list.some((t) => t.tab_kind === 'virtual_crane')).toBe(false);
    const guest = await firstValueFrom(catalog().searchPrizes({ shopId: 1 }));
    expect(guest.tab_list.some((t) => t.tab_kind === 'virtual_crane')).toBe(false);
  });

  it('[R7-6] POST /contents/kuji lists the kuji on sale with kuji_img_urls and their boxes (deleted boxes left out)', async () => {
    const list = await firstValueFrom(catalog().kujiOnSale());
    expect(list.length).toBeGreaterThan(0);
    for (const kuji of list) {
      expect(kuji.kuji_img_urls.length).toBeGreaterThan(0);
      expect(kuji.boxes.every((b) => b.box_status !== 'deleted')).toBe(true);
      for (const box of kuji.boxes)
        expect(box.remaining_count).toBe(
          box.prizes.filter((p) => p.last_one === 0).reduce((n, p) => n + p.remaining, 0),
        );
    }
    expect(list.some((k) => k.boxes.some((b) => b.box_status === 'onSale'))).toBe(true);
  });

  it('[R7-6][R9-2] POST /contents/carousel answers every running slide (the side banner takes the first 3)', async () => {
    const slides = await firstValueFrom(catalog().carousels({ shopId: 1 }));
    expect(slides.length).toBeGreaterThan(3);
    for (const s of slides) {
      expect([1, 2, 3]).toContain(s.type_id);
      expect(s.pc_img_url).not.toBe('');
    }
    expect(new Set(slides.map((s) => s.id)).size).toBe(slides.length);
  });

  it('[R7-6][R9-2] POST /contents/information fetches 100 per page by default; num above 100 is refused with 400', async () => {
    const page = await firstValueFrom(catalog().information({ shopId: 1 }));
    expect(page).toMatchObject({ page: 1, num: 100 });
    expect(page.list.length).toBe(Math.min(100, page.total_count));
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.page_count).toBe(Math.ceil(page.total_count / 100));
    const times = page.list.map((i) => Date.parse(i.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await expect(firstValueFrom(catalog().information({ shopId: 1, num: 101 }))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 400,
      info: '「件数」の内容が正しくありません。',
    });
  });

  it('[R7-6] POST /contents/get_start_news answers only the top-page or the picked-up items', async () => {
    const top = await firstValueFrom(catalog().startNews({ shopId: 1, only: 'topPage' }));
    expect(top.list.length).toBeGreaterThan(0);
    expect(top.list.every((i) => i.is_top_page === 1)).toBe(true);
    const pickUp = await firstValueFrom(catalog().startNews({ shopId: 1, only: 'pickUp', num: 1 }));
    expect(pickUp.list.length).toBe(1);
    expect(pickUp.list.every((i) => i.is_pick_up === 1)).toBe(true);
  });

  it('[R7-6][R3-10] POST /contents/character answers characters with their sub-character lists and slugs', async () => {
    const characters = await firstValueFrom(catalog().characters());
    expect(characters.length).toBeGreaterThan(0);
    for (const c of characters) {
      expect(c.character_slug).toMatch(/^[a-z0-9-]+$/);
      expect(c.sub_character.length).toBeGreaterThan(0);
      for (const s of c.sub_character)
        expect(s).toEqual({
          sub_character_id: expect.any(Number),
          sub_character_name: expect.any(String),
          sub_character_slug: expect.stringMatching(/^[a-z0-9-]+$/),
        });
    }
  });

  it('[R7-6][R6-1] POST /virtualcrane/list: a signed-in user gets the list and Badge (new count); a guest is refused before sending', async () => {
    const { client } = await driver().newUser();
    const cranes = await firstValueFrom(client.get(TOKENS.PrizeCatalogPort).virtualCranes());
    expect(cranes.list.length).toBeGreaterThan(0);
    expect(cranes.Badge).toBe(cranes.list.filter((v) => v.new === 1).length);
    await expect(firstValueFrom(catalog().virtualCranes())).rejects.toMatchObject({ name: 'NotSignedInError' });
  });

  it('[R7-6][R7-7][R9-2] GET /store/new_arrivals: public, at most 50, each with name, release date and image', async () => {
    const list = await firstValueFrom(catalog().newArrivals());
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(NEW_ARRIVALS_LIMIT);
    for (const a of list) {
      expect(a.name).not.toBe('');
      expect(a.release_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(a.img_url).not.toBe('');
    }
    const dates = list.map((a) => a.release_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const two = await firstValueFrom(catalog().newArrivals(2));
    expect(two).toEqual(list.slice(0, 2));
  });

  it('POST /contents/lobby (issue 45): public, every station once with its status, viewers and line', async () => {
    const lobby = await firstValueFrom(catalog().lobby());
    expect(lobby.length).toBeGreaterThan(0);
    expect(new Set(lobby.map((s) => s.station_id)).size).toBe(lobby.length);
    for (const s of lobby) {
      expect(s.visit_count).toBeGreaterThanOrEqual(0);
      expect(s.reserve_count).toBeGreaterThanOrEqual(0);
      expect([0, 1]).toContain(s.playing);
    }
  });
}
