import { aTopPage, ScriptedPrizeCatalog } from '../../src/testing';
import type { TopPageCatalogue } from '../../src/domain';

/**
 * A scripted catalogue answering everything the top page asks besides its prize list: no
 * characters, carousel slides, news or new arrivals, and `top` as the top page (more answers can be
 * chained on, e.g. `lobby` or `lookUpPrizes`).
 */
export function storefrontCatalog(top: TopPageCatalogue = aTopPage()): ScriptedPrizeCatalog {
  return new ScriptedPrizeCatalog()
    .always('characters', [])
    .always('carousels', [])
    .always('startNews', { list: [], total_count: 0 })
    .always('newArrivals', [])
    .always('topPage', top);
}
