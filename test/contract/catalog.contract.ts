import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { topPagePrizeResponseSchema } from '../../src/contract';
import type { ContractDriver } from './harness';

/** The catalogue calls (spec §7 /contents/*), as every implementation must answer them. */
export function catalogContract(driver: () => ContractDriver): void {
  it('[R7-6] POST /contents/top_page_prize: tabs, rows of valid stations, banners, fes and new prizes', async () => {
    const catalog = driver().client().get(TOKENS.PrizeCatalogPort);
    const page = await firstValueFrom(catalog.topPage({ shopId: 1 }));
    expect(topPagePrizeResponseSchema.safeParse({ error_code: 200, error_info: '', ...page }).success).toBe(true);
    expect(page.tab_list[0]?.tab_kind).toBe('home');
    const stations = page.sale_list.flatMap((s) => s.list);
    expect(stations.length).toBeGreaterThan(0);
    const known = new Set(await driver().fixtures.stationIds());
    for (const s of stations) expect(known.has(s.station_id)).toBe(true);
    expect(page.new_prize.every((p) => p.new === 1)).toBe(true);
  });

  it('[R2.4-2] POST /contents/top_page_prize lists no virtual-crane tab for a guest', async () => {
    const page = await firstValueFrom(driver().client().get(TOKENS.PrizeCatalogPort).topPage({ shopId: 1 }));
    expect(page.tab_list.some((t) => t.tab_kind === 'virtual_crane')).toBe(false);
  });
}
