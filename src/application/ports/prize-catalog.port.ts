import type { Observable } from 'rxjs';
import type {
  CarouselSlide,
  Character,
  InformationItem,
  KujiOnSale,
  NewArrival,
  PrizeItem,
  SaleListSection,
  SearchParams,
  TabListItem,
  TopPageCatalogue,
  VirtualCraneList,
  StationLiveState,
} from '../../domain';

export interface TopPageQuery {
  readonly shopId: number;
  readonly fesId?: number;
}

/** One way to look prizes up (POST /contents/prize takes exactly one). */
export type PrizeLookup =
  { readonly stationId: number } | { readonly characterId: number } | { readonly keyword: string };

export interface PrizeLookupQuery {
  readonly shopId: number;
  readonly fesId?: number;
  readonly by: PrizeLookup;
}

/** The matching prizes, those of the running fes, and those played with point tickets. */
export interface PrizeLookupResult {
  readonly prize: readonly PrizeItem[];
  readonly prize_fes: readonly PrizeItem[];
  readonly prize_ticket: readonly PrizeItem[];
}

/**
 * A catalogue search [R3-17]. `params` uses the domain's search params, where 0 / '' / [] mean
 * "not filtered by this"; only the active filters travel.
 */
export interface PrizeSearchQuery {
  readonly shopId: number;
  readonly params?: Partial<SearchParams>;
  /** 1-based page of PAGE_ITEMS_COUNT items (ignored with is_all). */
  readonly page?: number;
  readonly fesId?: number;
}

export interface PrizeSearchResult {
  readonly prize: {
    readonly list: readonly PrizeItem[];
    readonly total_count: number;
    readonly page: number;
    readonly page_count: number;
    readonly page_items_count: number;
  };
  readonly tab_list: readonly TabListItem[];
  readonly sale_list: readonly SaleListSection[];
}

export interface InformationQuery {
  readonly shopId: number;
  /** Default 1. */
  readonly page?: number;
  /** Default and maximum 100 [R9-2]. */
  readonly num?: number;
}

/** One page of information, or (with `tag`) the one item of an /information/{tag} page. */
export interface InformationListQuery extends InformationQuery {
  readonly tag?: string;
}

export interface InformationPage {
  readonly list: readonly InformationItem[];
  readonly total_count: number;
  readonly page: number;
  readonly num: number;
  readonly page_count: number;
}

/** The start news: the items flagged for the top page, or the picked-up ones. */
export interface StartNewsQuery extends InformationQuery {
  readonly only: 'topPage' | 'pickUp';
}

export interface StartNews {
  readonly list: readonly InformationItem[];
  readonly total_count: number;
}

/**
 * Reads the prize catalogue and the editorial contents around it. Each call returns a cold
 * observable that emits once and completes; unsubscribing before the answer cancels the request.
 * A refusal of the service errors with its error_code and Japanese error_info.
 */
export interface PrizeCatalogPort {
  topPage(query: TopPageQuery): Observable<TopPageCatalogue>;
  /** Prizes of one station, one character or one keyword (POST /contents/prize). */
  lookUpPrizes(query: PrizeLookupQuery): Observable<PrizeLookupResult>;
  /** A filtered, paged catalogue (POST /v2/contents/prize) [R3-17]. */
  searchPrizes(query: PrizeSearchQuery): Observable<PrizeSearchResult>;
  /** Kuji on sale now (POST /contents/kuji, type 1). */
  kujiOnSale(query?: { readonly shopId?: number }): Observable<readonly KujiOnSale[]>;
  /** Every running carousel slide; the side banner shows the first 3 [R9-2]. */
  carousels(query?: { readonly shopId?: number }): Observable<readonly CarouselSlide[]>;
  /** One page of information, 100 per page by default [R9-2]. */
  information(query: InformationListQuery): Observable<InformationPage>;
  /** The start news (POST /contents/get_start_news). */
  startNews(query: StartNewsQuery): Observable<StartNews>;
  /** Characters with their sub-characters [R3-10]. */
  characters(): Observable<readonly Character[]>;
  /** The virtual cranes; signed-in users only [R6-1]. */
  virtualCranes(): Observable<VirtualCraneList>;
  /** The public new-arrivals listing, at most 50 [R7-7, R9-2]. */
  newArrivals(limit?: number): Observable<readonly NewArrival[]>;
  /** Every station's lobby numbers now: status, playing, viewers, its line (POST /contents/lobby, issue 45). */
  lobby(): Observable<readonly StationLiveState[]>;
}
