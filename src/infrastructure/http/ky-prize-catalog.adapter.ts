import { mapped } from '../../contract/schema-helpers';
import { map, type Observable } from 'rxjs';
import type {
  InformationPage,
  InformationListQuery,
  PrizeCatalogPort,
  PrizeLookupQuery,
  PrizeLookupResult,
  PrizeSearchQuery,
  PrizeSearchResult,
  StartNews,
  StartNewsQuery,
  TopPageQuery,
} from '../../application';
import { NEW_ARRIVALS_LIMIT, type Character, type TopPageCatalogue } from '../../domain';
import {
  carouselResponseSchema,
  characterResponseSchema,
  ENDPOINTS,
  informationResponseSchema,
  kujiListResponseSchema,
  lobbyResponseSchema,
  newArrivalsResponseSchema,
  prizeResponseSchema,
  prizeV2ResponseSchema,
  startNewsResponseSchema,
  topPagePrizeResponseSchema,
  virtualCraneListResponseSchema,
} from '../../contract';
import { toCharacter, toWireSearchParams } from '../wire/play-wire';
import type { KyHttpClient } from './ky-http-client';
import type { CarouselSlide, KujiOnSale, NewArrival, StationLiveState, VirtualCraneList } from '../../domain';

/** Drops the answer envelope (error_code, error_info) once the answer is known to be a success. */
export function payload<T extends { error_code: number; error_info: string }>(
  answer: T,
): Omit<T, 'error_code' | 'error_info'> {
  const { error_code: _code, error_info: _info, ...rest } = answer;
  return rest;
}

/** The body of POST /contents/prize for one lookup. */
export function prizeLookupBody(query: PrizeLookupQuery): object {
  const by = query.by;
  const prize =
    'stationId' in by
      ? { station_id: by.stationId }
      : 'characterId' in by
        ? { character_id: by.characterId }
        : { keyword: by.keyword };
  return { prize, shop_id: query.shopId, ...(query.fesId !== undefined ? { fes_id: query.fesId } : {}) };
}

/** The body of POST /v2/contents/prize. */
export function prizeSearchBody(query: PrizeSearchQuery): object {
  return {
    prize: toWireSearchParams(query.params),
    page: query.page ?? 1,
    shop_id: query.shopId,
    ...(query.fesId !== undefined ? { fes_id: query.fesId } : {}),
  };
}

/** The body of POST /contents/get_start_news. */
export function startNewsBody(query: StartNewsQuery): object {
  return {
    page: query.page ?? 1,
    ...(query.num !== undefined ? { num: query.num } : {}),
    shop_id: query.shopId,
    ...(query.only === 'topPage' ? { is_top_page: 1 } : { is_pick_up: 1 }),
  };
}

/**
 * The catalogue calls of spec §7 over HTTP (ky): /contents/*, /virtualcrane/list and the public
 * new-arrivals listing. Every answer is validated with the shared contract before it goes further.
 */
export class KyPrizeCatalog implements PrizeCatalogPort {
  constructor(private readonly http: KyHttpClient) {}

  topPage(query: TopPageQuery): Observable<TopPageCatalogue> {
    const body = {
      shop_id: query.shopId,
      is_top_page: 1,
      ...(query.fesId !== undefined ? { fes_id: query.fesId } : {}),
    };
    return this.http.post(ENDPOINTS.topPagePrize, body, mapped(topPagePrizeResponseSchema, payload), 'top_page_prize');
  }

  lookUpPrizes(query: PrizeLookupQuery): Observable<PrizeLookupResult> {
    return this.http.post(ENDPOINTS.prize, prizeLookupBody(query), mapped(prizeResponseSchema, payload), 'prize');
  }

  searchPrizes(query: PrizeSearchQuery): Observable<PrizeSearchResult> {
    return this.http.post(
      ENDPOINTS.prizeV2,
      prizeSearchBody(query),
      mapped(prizeV2ResponseSchema, payload),
      'v2_prize',
    );
  }

  kujiOnSale(query: { readonly shopId?: number } = {}): Observable<readonly KujiOnSale[]> {
    const body = { type: 1, ...(query.shopId !== undefined ? { shop_id: query.shopId } : {}) };
    return this.http.post(ENDPOINTS.kuji, body, kujiListResponseSchema, 'kuji').pipe(map((a) => a.list));
  }

  carousels(query: { readonly shopId?: number } = {}): Observable<readonly CarouselSlide[]> {
    const body = query.shopId !== undefined ? { shop_id: query.shopId } : {};
    return this.http
      .post(ENDPOINTS.carousel, body, carouselResponseSchema, 'carousel')
      .pipe(map((a) => a.carousel.list));
  }

  information(query: InformationListQuery): Observable<InformationPage> {
    const body = {
      page: query.page ?? 1,
      ...(query.num !== undefined ? { num: query.num } : {}),
      shop_id: query.shopId,
      ...(query.tag !== undefined ? { tag: query.tag } : {}),
    };
    return this.http
      .post(ENDPOINTS.information, body, informationResponseSchema, 'information')
      .pipe(map((a) => a.information));
  }

  startNews(query: StartNewsQuery): Observable<StartNews> {
    return this.http.post(
      ENDPOINTS.getStartNews,
      startNewsBody(query),
      mapped(startNewsResponseSchema, payload),
      'get_start_news',
    );
  }

  characters(): Observable<readonly Character[]> {
    return this.http
      .post(ENDPOINTS.character, {}, characterResponseSchema, 'character')
      .pipe(map((a) => a.character.list.map(toCharacter)));
  }

  virtualCranes(): Observable<VirtualCraneList> {
    return this.http.post(
      ENDPOINTS.virtualCraneList,
      {},
      mapped(virtualCraneListResponseSchema, payload),
      'virtualcrane_list',
      { identity: 'required' },
    );
  }

  newArrivals(limit: number = NEW_ARRIVALS_LIMIT): Observable<readonly NewArrival[]> {
    return this.http
      .get(ENDPOINTS.newArrivals, newArrivalsResponseSchema, 'new_arrivals', {
        identity: 'none',
        searchParams: { limit },
      })
      .pipe(map((a) => a.list));
  }

  lobby(): Observable<readonly StationLiveState[]> {
    return this.http.post(
      ENDPOINTS.lobby,
      {},
      mapped(lobbyResponseSchema, (a) => a.lobby),
      'lobby',
      { identity: 'none' },
    );
  }
}
