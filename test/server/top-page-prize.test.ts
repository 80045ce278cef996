import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topPagePrizeResponseSchema } from '../../src/contract';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const post = (body: unknown) =>
  t.server.app.inject({ method: 'POST', url: '/api/contents/top_page_prize', payload: body as object });

describe('POST /contents/top_page_prize on the reference server', () => {
  it('[R7-6] answers the seeded catalogue: tabs, rows of stations, banners, fes and new prizes', async () => {
    const res = await post({ shop_id: 1, is_top_page: 1 });
    expect(res.statusCode).toBe(200);
    const body = topPagePrizeResponseSchema.parse(res.json());
    expect(body.error_code).toBe(200);
    const stations = new Set(body.sale_list.flatMap((s) => s.list.map((i) => i.station_id)));
    expect(stations.size).toBeGreaterThanOrEqual(30);
    const all = body.sale_list.flatMap((s) => s.list);
    for (const kind of ['vip', 'exclusive'] as const) expect(all.some((i) => i.type === kind)).toBe(true);
    expect(all.some((i) => i.natia === 1)).toBe(true);
    expect(all.some((i) => i.designated_type === 'practice')).toBe(true);
    expect(all.some((i) => i.new === 1)).toBe(true);
    expect(body.new_prize.every((i) => i.new === 1)).toBe(true);
    expect(body.campaign_banner.length).toBeGreaterThan(0);
    expect(body.fes.list.length).toBeGreaterThan(0);
  });

  it('[R2.4-1] the catalogue offers every tab of the spec: home, all, new-face, virtual crane, genre, type, VIP, exclusive, natia, recommend, practice, point ticket, gift type', async () => {
    const user = await createTestUser(t);
    const body = topPagePrizeResponseSchema.parse((await post({ shop_id: 1, is_top_page: 1, ...user })).json());
    const offered = new Set(body.tab_list.map((tab) => tab.tab_kind));
    expect([...offered].sort()).toEqual(
      [
        'home',
        'all',
        'new_face',
        'virtual_crane',
        'genre',
        'type',
        'vip',
        'exclusive',
        'natia',
        'recommend',
        'practice',
        'point_ticket',
        'gift_type',
      ].sort(),
    );
    // Each tab has a Japanese name a player reads, and the tabs that hold stations head a row of the top page.
    for (const tab of body.tab_list) expect(tab.tab_name).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]|VIP/);
    const rowTitles = new Set(body.sale_list.map((row) => row.title));
    for (const kind of ['vip', 'exclusive', 'practice'] as const) {
      expect(rowTitles.has(body.tab_list.find((tab) => tab.tab_kind === kind)!.tab_name)).toBe(true);
    }
  });

  it('[R2.4-2] lists no virtual-crane tab for a guest', async () => {
    const body = topPagePrizeResponseSchema.parse((await post({ shop_id: 1, is_top_page: 1 })).json());
    expect(body.tab_list.map((t) => t.tab_kind)).not.toContain('virtual_crane');
    expect(body.tab_list[0]?.tab_name).toBe('ホーム');
  });

  it('[R2.4-2] lists the virtual-crane tab for a signed-in user, not for a forged or missing identity', async () => {
    const user = await createTestUser(t);
    const kinds = async (body: object) =>
      topPagePrizeResponseSchema
        .parse((await post({ shop_id: 1, is_top_page: 1, ...body })).json())
        .tab_list.map((tab) => tab.tab_kind);
    expect(await kinds({ user_id: user.user_id, access_token: user.access_token })).toContain('virtual_crane');
    expect(await kinds({ user_id: user.user_id, access_token: 'f'.repeat(43) })).not.toContain('virtual_crane');
    expect(await kinds({})).not.toContain('virtual_crane');
  });

  it('answers the festival asked for by fes_id, and an empty one for an unknown fes_id', async () => {
    const [fes] = await t.server.store().query<{ fes_id: number }>('SELECT fes_id FROM fes LIMIT 1');
    const known = topPagePrizeResponseSchema.parse(
      (await post({ shop_id: 1, is_top_page: 1, fes_id: fes!.fes_id })).json(),
    );
    expect(known.fes.list.length).toBeGreaterThan(0);
    const unknown = topPagePrizeResponseSchema.parse((await post({ shop_id: 1, is_top_page: 1, fes_id: 999 })).json());
    expect(unknown.fes).toEqual({ img: '', list: [] });
  });

  it('serves every prize picture the catalogue names as an SVG', async () => {
    const body = topPagePrizeResponseSchema.parse((await post({ shop_id: 1, is_top_page: 1 })).json());
    const urls = new Set(body.sale_list.flatMap((s) => s.list.map((i) => i.img_url)));
    for (const url of urls) {
      const res = await t.server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.body).toMatch(/^<svg /);
    }
  });

  it('[R3-19] rejects a mistyped body with a Japanese error_info and no 5xx', async () => {
    for (const body of [
      { shop_id: 'one', is_top_page: 1 },
      { is_top_page: 2 },
      [],
      'x',
      { shop_id: -1, is_top_page: 1 },
    ]) {
      const res = await post(body);
      // A non-JSON body ('x' is sent as text/plain) is 415, every other bad body 400.
      expect([400, 415]).toContain(res.statusCode);
      const json = res.json();
      expect(json.error_code).toBe(res.statusCode);
      expect(json.error_info).toMatch(/[\u3040-\u30ff]/);
    }
  });

  it('answers 404 with error_code for an unknown shop', async () => {
    const res = await post({ shop_id: 999, is_top_page: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error_code: 404, error_info: 'ショップが見つかりません。' });
  });

  it('answers invalid JSON with error_code 400', async () => {
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/api/contents/top_page_prize',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(400);
  });

  it('reports ready on /healthz once migrations and seed are done', async () => {
    const res = await t.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
