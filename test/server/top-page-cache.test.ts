import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopPageCatalogue } from '../../src/domain';
import { TopPageCache, type BuiltTopPage, type TopPageKey } from '../../server/catalogue/top-page-cache';
import { preferredEncoding } from '../../server/http/compressed';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

const OPERATOR_TOKEN = 'top-page-cache-operator-token-0123456789';
let t: TestServer;
let clock: ManualServerClock;
beforeAll(async () => {
  clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
  t = await startTestServer({ clock, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
});
afterAll(async () => t?.close());

type TopPage = {
  sale_list: { list: { station_id: number; station_status: string; new: 0 | 1 }[] }[];
  fes: { list: unknown[] };
};

const topPage = (headers: Record<string, string> = {}, body: object = { shop_id: 1, is_top_page: 1 }) =>
  t.server.app.inject({ method: 'POST', url: '/api/contents/top_page_prize', payload: body, headers });
const stats = () => t.server.services().topPages.stats();
const operator = (path: string, body: object) =>
  t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
  });

describe("the top page's answer is kept per shop (issue 11)", () => {
  it('[R7-6] repeated requests are answered from the cache, as JSON or as the compressed bytes the client accepts', async () => {
    const first = await topPage();
    expect(first.statusCode).toBe(200);
    const before = stats();
    const plain = await topPage();
    const br = await topPage({ 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await topPage({ 'accept-encoding': 'gzip' });
    const br2 = await topPage({ 'accept-encoding': 'br' });
    expect(stats().builds).toBe(before.builds);
    expect(stats().hits).toBe(before.hits + 4);
    expect(plain.body).toBe(first.body);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(first.body);
    expect(br2.rawPayload.equals(br.rawPayload)).toBe(true);
    expect(first.json()).toMatchObject({ error_code: 200, error_info: '' });
  });

  it("[R4.2-10] a station's status change shows on the next answer", async () => {
    const stationId = (await topPage()).json<TopPage>().sale_list[0]!.list[0]!.station_id;
    expect(
      (await operator('station_status', { station_id: stationId, station_status: 'maintenance' })).statusCode,
    ).toBe(200);
    const status = (page: TopPage) =>
      page.sale_list.flatMap((s) => s.list).find((i) => i.station_id === stationId)?.station_status;
    expect(status((await topPage()).json<TopPage>())).toBe('maintenance');
    expect((await operator('station_status', { station_id: stationId, station_status: 'open' })).statusCode).toBe(200);
    expect(status((await topPage()).json<TopPage>())).toBe('open');
  });

  it('an answer that time alone changes (a station stops being new, a festival starts or ends) is built again at that moment', async () => {
    const next = await t.server.services().catalogue.nextTimedChange(1, clock.now());
    expect(next).not.toBeNull();
    const before = (await topPage()).body;
    const builds = stats().builds;
    clock.set(new Date(next!.getTime() - 1));
    await topPage();
    expect(stats().builds).toBe(builds);
    clock.set(next!);
    const after = (await topPage()).body;
    expect(stats().builds).toBe(builds + 1);
    // Whatever the boundary was, the answer now is the store's answer at this time.
    expect(after).not.toBe(before);
  });

  it('requests that miss together share one build; an unknown shop is refused and not kept', async () => {
    t.server.services().topPages.invalidate();
    const builds = stats().builds;
    const answers = await Promise.all(Array.from({ length: 8 }, () => topPage()));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(stats().builds).toBe(builds + 1);
    const missing = await topPage({}, { shop_id: 999, is_top_page: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error_info: string }>().error_info).toMatch(/[ぁ-んァ-ン一-龥]/);
    expect((await topPage({}, { shop_id: 999, is_top_page: 1 })).statusCode).toBe(404);
    expect(stats().builds).toBe(builds + 3);
  });

  it("reads Accept-Encoding as the server's compression does: br first, then gzip, q=0 refuses", () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('*')).toBe('br');
  });
});

describe('TopPageCache, with a build the test answers', () => {
  const key = { shopId: 1, showVirtualCrane: false };
  const page = (n: number) => ({ n }) as unknown as TopPageCatalogue;
  /** A build whose answers the test settles, one per call, in order. */
  function scriptedBuild() {
    const calls: { at: Date; resolve: (built: BuiltTopPage) => void; reject: (error: Error) => void }[] = [];
    const build = (_key: TopPageKey, at: Date) =>
      new Promise<BuiltTopPage>((resolve, reject) => calls.push({ at, resolve, reject }));
    return { calls, build };
  }
  const body = async (answer: Promise<{ text: string }>) => JSON.parse((await answer).text) as { n: number };

  it('ends an answer at the very instant its validUntil names', async () => {
    const clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
    const { calls, build } = scriptedBuild();
    const cache = new TopPageCache(build, clock);
    const first = cache.answer(key);
    calls[0]!.resolve({ page: page(1), validUntil: new Date(clock.now().getTime() + 60_000) });
    expect(await body(first)).toMatchObject({ n: 1 });
    clock.advance(59_999);
    expect(await body(cache.answer(key))).toMatchObject({ n: 1 });
    clock.advance(1);
    const second = cache.answer(key);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at).toEqual(clock.now());
    calls[1]!.resolve({ page: page(2), validUntil: null });
    expect(await body(second)).toMatchObject({ n: 2 });
    clock.advance(365 * 24 * 3_600_000);
    expect(await body(cache.answer(key))).toMatchObject({ n: 2 });
    expect(cache.stats()).toEqual({ hits: 2, builds: 2, entries: 1 });
  });

  it('answers the requests sharing a build that an invalidation overtook, and keeps nothing of it', async () => {
    const clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
    const { calls, build } = scriptedBuild();
    const cache = new TopPageCache(build, clock);
    const dropped: number[] = [];
    cache.onInvalidate(() => dropped.push(1));
    const first = cache.answer(key);
    const shared = cache.answer(key);
    cache.invalidate();
    expect(dropped).toHaveLength(1);
    calls[0]!.resolve({ page: page(1), validUntil: null });
    expect(await body(first)).toMatchObject({ n: 1 });
    expect(await body(shared)).toMatchObject({ n: 1 });
    const after = cache.answer(key);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve({ page: page(2), validUntil: null });
    expect(await body(after)).toMatchObject({ n: 2 });
  });

  it('keeps no failed build and at most its limit, the least recently used going first', async () => {
    const clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
    const { calls, build } = scriptedBuild();
    const cache = new TopPageCache(build, clock, 2);
    const failed = cache.answer({ shopId: 9, showVirtualCrane: false });
    calls[0]!.reject(new Error('no such shop'));
    await expect(failed).rejects.toThrow('no such shop');
    expect(cache.stats().entries).toBe(0);
    const keys = [1, 2, 3].map((shopId) => ({ shopId, showVirtualCrane: false }));
    for (const [i, k] of keys.entries()) {
      const answer = cache.answer(k);
      calls.at(-1)!.resolve({ page: page(k.shopId), validUntil: null });
      await answer;
      // Shop 1 is read again before shop 3 arrives: shop 2 is then the least recently used.
      if (i === 1) await cache.answer(keys[0]!);
    }
    const builds = cache.stats().builds;
    expect(await body(cache.answer(keys[0]!))).toMatchObject({ n: 1 });
    expect(await body(cache.answer(keys[2]!))).toMatchObject({ n: 3 });
    expect(cache.stats().builds).toBe(builds);
    void cache.answer(keys[1]!);
    expect(cache.stats().builds).toBe(builds + 1);
  });
});
