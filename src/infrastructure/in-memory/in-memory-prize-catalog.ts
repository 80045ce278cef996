import { type Observable, defer, map, of } from 'rxjs';
import type { InformationPage, InformationQuery, PrizeCatalogPort, PrizeLookupQuery, PrizeLookupResult, PrizeSearchQuery, PrizeSearchResult, StartNews, StartNewsQuery, TopPageQuery } from '../../application';
import {
  hasStationSearchFilter, NEW_ARRIVALS_LIMIT, saleSections, searchResultPage, searchStations, visibleTabs, type Character, type PrizeItem,
  type TopPageCatalogue,
} from '../../domain';
import {
  carouselRequestSchema, carouselResponseSchema, characterRequestSchema, characterResponseSchema, ENDPOINTS, informationRequestSchema,
  informationResponseSchema, kujiListRequestSchema, kujiListResponseSchema, newArrivalsQuerySchema, newArrivalsResponseSchema,
  PAGE_ITEMS_COUNT, prizeRequestSchema, prizeResponseSchema, prizeV2RequestSchema, prizeV2ResponseSchema, startNewsRequestSchema,
  startNewsResponseSchema, virtualCraneListRequestSchema, virtualCraneListResponseSchema,
} from '../../contract';
import { payload, prizeLookupBody, prizeSearchBody, startNewsBody } from '../http/ky-prize-catalog.adapter';
import { StoredSession } from '../session/stored-session.adapter';
import { toCharacter } from '../wire/play-wire';
import { answerInMemory } from './in-memory-answer';
import { InMemoryCaller } from './in-memory-call';
import { InMemoryBackend, InMemoryRefusal } from './in-memory-backend';
import { playStateOf, type InMemoryCatalogueData, type InMemoryPlayState, type InMemoryStation } from './in-memory-play-state';
import type { CarouselSlide, KujiOnSale, NewArrival, VirtualCraneList } from '../../domain';

const SHOP_NOT_FOUND = 'ショップが見つかりません。';
function toPrizeItem(s: InMemoryStation): PrizeItem {
  const { shop_id: _shop, character_id: _c, sub_character_id: _s, gift_type: _g, stock: _st, recommend: _r, ...item } = s;
  return item;
}

export interface InMemoryCatalogueDeps {
  /** Who is calling (the session of the client container this fake serves), over the shared backend. */
  readonly caller: InMemoryCaller;
  readonly data?: InMemoryCatalogueData;
}

/**
 * The catalogue calls in memory, for UI tests, offline development and the contract suite. The top
 * page is the given catalogue as is; the other calls read the backend's play state (stations with
 * their current statuses, kuji boxes) and the dataset, refusing and answering as the server does.
 */
export class InMemoryPrizeCatalog implements PrizeCatalogPort {
  readonly calls: { method: string; args: unknown }[] = [];
  private readonly deps: InMemoryCatalogueDeps;

  constructor(private catalogue: TopPageCatalogue, private readonly failWith?: () => Error | null, deps?: InMemoryCatalogueDeps) {
    this.deps = deps ?? { caller: new InMemoryCaller(new InMemoryBackend(), new StoredSession(null), 'web') };
  }

  private get state(): InMemoryPlayState {
    return playStateOf(this.deps.caller.backend, this.deps.data);
  }

  setCatalogue(catalogue: TopPageCatalogue): void {
    this.catalogue = catalogue;
  }

  private shopStations(shopId: number): InMemoryStation[] {
    return [...this.state.stations.values()].filter((s) => s.shop_id === shopId);
  }

  private requireShop(shopId: number): void {
    if (!this.state.data.shops.includes(shopId)) throw new InMemoryRefusal(404, SHOP_NOT_FOUND);
  }

  private record<T>(method: string, args: unknown, work: () => Observable<T>): Observable<T> {
    return defer(() => {
      this.calls.push({ method, args });
      const failure = this.failWith?.();
      if (failure) throw failure;
      return work();
    });
  }

  topPage(query: TopPageQuery): Observable<TopPageCatalogue> {
    return this.record('topPage', query, () => of(this.catalogue));
  }

  lookUpPrizes(query: PrizeLookupQuery): Observable<PrizeLookupResult> {
    return this.record('lookUpPrizes', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.prize, context: 'prize', identity: 'optional', body: prizeLookupBody(query),
      request: prizeRequestSchema, response: prizeResponseSchema.transform(payload),
      handle: (body) => {
        this.requireShop(body.shop_id);
        const { station_id, character_id, keyword } = body.prize;
        const matches = searchStations(this.shopStations(body.shop_id), {
          ...(station_id !== undefined ? { station_ids: [station_id] } : {}),
          ...(character_id !== undefined ? { character_id } : {}),
          ...(keyword !== undefined ? { keyword } : {}),
        }, this.state.data.tabs);
        const fes = this.state.data.fes.find((f) => f.shop_id === body.shop_id && (body.fes_id === undefined || f.fes_id === body.fes_id));
        const fesIds = new Set(fes?.station_ids ?? []);
        return {
          prize: matches.map(toPrizeItem),
          prize_fes: matches.filter((s) => fesIds.has(s.station_id)).map(toPrizeItem),
          prize_ticket: matches.filter((s) => s.designated_type === 'point_ticket').map(toPrizeItem),
        };
      },
    }));
  }

  searchPrizes(query: PrizeSearchQuery): Observable<PrizeSearchResult> {
    return this.record('searchPrizes', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.prizeV2, context: 'v2_prize', identity: 'optional', body: prizeSearchBody(query),
      request: prizeV2RequestSchema, response: prizeV2ResponseSchema.transform(payload),
      handle: (body, caller) => {
        this.requireShop(body.shop_id);
        const tabs = this.state.data.tabs;
        let matches = searchStations(this.shopStations(body.shop_id), body.prize, tabs);
        if (body.fes_id !== undefined) {
          const fes = this.state.data.fes.find((f) => f.shop_id === body.shop_id && f.fes_id === body.fes_id);
          if (!fes) throw new InMemoryRefusal(404, 'フェスが見つかりません。');
          const ids = new Set(fes.station_ids);
          matches = matches.filter((s) => ids.has(s.station_id));
        }
        // The virtual-crane tab: signed in, not yahoo, no filter active [R2.4-2].
        const viewer = { signedIn: caller !== null, target: this.deps.caller.target, hasSearchFilter: hasStationSearchFilter(body.prize) || body.fes_id !== undefined };
        return {
          prize: searchResultPage(matches, { page: body.page, isAll: body.prize.is_all === 1, pageSize: PAGE_ITEMS_COUNT }, toPrizeItem),
          tab_list: visibleTabs(tabs, viewer).map(({ genre: _genre, ...tab }) => tab),
          sale_list: saleSections(matches, tabs, toPrizeItem),
        };
      },
    }));
  }

  kujiOnSale(query: { readonly shopId?: number } = {}): Observable<readonly KujiOnSale[]> {
    const body = { type: 1, ...(query.shopId !== undefined ? { shop_id: query.shopId } : {}) };
    return this.record('kujiOnSale', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.kuji, context: 'kuji', identity: 'optional', body,
      request: kujiListRequestSchema, response: kujiListResponseSchema,
      handle: (b) => {
        if (b.shop_id !== undefined) this.requireShop(b.shop_id);
        const now = this.deps.caller.backend.now().getTime();
        const list = this.state.kuji
          .filter((k) => (b.shop_id === undefined || k.shop_id === b.shop_id) && Date.parse(k.starts_at) <= now && Date.parse(k.ends_at) > now)
          .map(({ shop_id: _shop, ...k }) => ({
            ...k,
            boxes: k.boxes
              .map((box) => ({ ...box, box_status: this.state.boxStatus.get(box.box_id) ?? box.box_status }))
              .filter((box) => box.box_status !== 'deleted'),
          }));
        return { list };
      },
    }).pipe(map((a) => a.list)));
  }

  carousels(query: { readonly shopId?: number } = {}): Observable<readonly CarouselSlide[]> {
    const body = query.shopId !== undefined ? { shop_id: query.shopId } : {};
    return this.record('carousels', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.carousel, context: 'carousel', identity: 'optional', body,
      request: carouselRequestSchema, response: carouselResponseSchema,
      handle: (b) => {
        if (b.shop_id !== undefined) this.requireShop(b.shop_id);
        const list = this.state.data.carousels.filter((c) => b.shop_id === undefined || c.shop_id === b.shop_id).map(({ shop_id: _shop, ...c }) => c);
        return { carousel: { list } };
      },
    }).pipe(map((a) => a.carousel.list)));
  }

  private informationOf(shopId: number, page: number, num: number, only: { is_top_page?: 0 | 1; is_pick_up?: 0 | 1 }) {
    const now = this.deps.caller.backend.now().getTime();
    const all = this.state.data.information
      .filter((i) => i.shop_id === shopId && Date.parse(i.published_at) <= now)
      .filter((i) => (only.is_top_page === undefined || i.is_top_page === only.is_top_page) && (only.is_pick_up === undefined || i.is_pick_up === only.is_pick_up))
      .sort((a, b) => Date.parse(b.published_at) - Date.parse(a.published_at) || b.id - a.id)
      .map(({ shop_id: _shop, ...i }) => i);
    return { list: all.slice((page - 1) * num, page * num), total_count: all.length };
  }

  information(query: InformationQuery): Observable<InformationPage> {
    const body = { page: query.page ?? 1, ...(query.num !== undefined ? { num: query.num } : {}), shop_id: query.shopId };
    return this.record('information', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.information, context: 'information', identity: 'optional', body,
      request: informationRequestSchema, response: informationResponseSchema,
      handle: (b) => {
        this.requireShop(b.shop_id);
        const { list, total_count } = this.informationOf(b.shop_id, b.page, b.num, {});
        return { information: { list, total_count, page: b.page, num: b.num, page_count: Math.ceil(total_count / b.num) } };
      },
    }).pipe(map((a) => a.information)));
  }

  startNews(query: StartNewsQuery): Observable<StartNews> {
    return this.record('startNews', query, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.getStartNews, context: 'get_start_news', identity: 'optional', body: startNewsBody(query),
      request: startNewsRequestSchema, response: startNewsResponseSchema.transform(payload),
      handle: (b) => {
        this.requireShop(b.shop_id);
        return this.informationOf(b.shop_id, b.page, b.num, {
          ...(b.is_top_page !== undefined ? { is_top_page: b.is_top_page } : {}), ...(b.is_pick_up !== undefined ? { is_pick_up: b.is_pick_up } : {}),
        });
      },
    }));
  }

  characters(): Observable<readonly Character[]> {
    return this.record('characters', null, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.character, context: 'character', identity: 'optional', body: {},
      request: characterRequestSchema, response: characterResponseSchema,
      handle: () => ({
        character: {
          list: this.state.data.characters.map((c) => ({
            character_id: c.character_id, character_name: c.character_name, slug: c.character_slug,
            sub_character: c.sub_character.map((s) => ({ sub_character_id: s.sub_character_id, sub_character_name: s.sub_character_name, slug: s.sub_character_slug })),
          })),
        },
      }),
    }).pipe(map((a) => a.character.list.map(toCharacter))));
  }

  virtualCranes(): Observable<VirtualCraneList> {
    return this.record('virtualCranes', null, () => answerInMemory(this.deps.caller, {
      method: 'POST', path: ENDPOINTS.virtualCraneList, context: 'virtualcrane_list', identity: 'required', body: {},
      request: virtualCraneListRequestSchema, response: virtualCraneListResponseSchema.transform(payload),
      handle: () => {
        const list = this.state.data.virtualCranes;
        return { list, Badge: list.filter((v) => v.new === 1).length };
      },
    }));
  }

  newArrivals(limit: number = NEW_ARRIVALS_LIMIT): Observable<readonly NewArrival[]> {
    return this.record('newArrivals', limit, () => answerInMemory(this.deps.caller, {
      method: 'GET', path: ENDPOINTS.newArrivals, context: 'new_arrivals', identity: 'none', body: { limit: String(limit) },
      request: newArrivalsQuerySchema, response: newArrivalsResponseSchema,
      handle: (q) => ({ list: this.state.data.newArrivals.slice(0, q.limit) }),
    }).pipe(map((a) => a.list)));
  }
}
