import type { Observable } from 'rxjs';
import type {
  Character, KujiBoxStatus, PrizeItem, SaleListSection, SearchParams, TabListItem, TopPageCatalogue,
} from '../../domain';

export interface TopPageQuery {
  readonly shopId: number;
  readonly fesId?: number;
}

/** One way to look prizes up (POST /contents/prize takes exactly one). */
export type PrizeLookup =
  | { readonly stationId: number }
  | { readonly characterId: number }
  | { readonly keyword: string };

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

export interface KujiBoxPrize {
  readonly rank: string;
  readonly prize_name: string;
  readonly img_url: string;
  readonly quantity: number;
  readonly remaining: number;
}

export interface KujiBox {
  readonly box_id: number;
  readonly box_no: number;
  readonly box_status: KujiBoxStatus;
  readonly total_count: number;
  readonly remaining_count: number;
  readonly prizes: readonly KujiBoxPrize[];
}

/** A kuji on sale with its pictures and boxes (POST /contents/kuji). */
export interface KujiOnSale {
  readonly kuji_id: number;
  readonly kuji_name: string;
  readonly description: string;
  readonly price: number;
  readonly starts_at: string;
  readonly ends_at: string;
  readonly kuji_img_urls: readonly string[];
  readonly boxes: readonly KujiBox[];
}

/** A carousel slide; type_id 1 opens an information page, 2 a prize search, 3 a station. */
export interface CarouselSlide {
  readonly id: number;
  readonly title: string;
  readonly type_id: 1 | 2 | 3;
  readonly link: string;
  readonly pc_img_url: string;
  readonly sp_img_url: string;
}

/** A piece of information (news). */
export interface InformationItem {
  readonly id: number;
  readonly tag: string;
  readonly category: string;
  readonly title: string;
  readonly body: string;
  readonly img_url: string;
  readonly published_at: string;
  readonly is_top_page: 0 | 1;
  readonly is_pick_up: 0 | 1;
}

export interface InformationQuery {
  readonly shopId: number;
  /** Default 1. */
  readonly page?: number;
  /** Default and maximum 100 [R9-2]. */
  readonly num?: number;
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

export interface VirtualCrane {
  readonly virtual_crane_id: number;
  readonly name: string;
  readonly description: string;
  readonly img_url: string;
  readonly play_price: number;
  readonly new: 0 | 1;
}

/** The virtual cranes and the badge count (how many are new; 0 hides the badge). */
export interface VirtualCraneList {
  readonly list: readonly VirtualCrane[];
  readonly Badge: number;
}

/** A new arrival of the public prize-store listing [R7-7]. */
export interface NewArrival {
  readonly name: string;
  /** YYYY-MM-DD, Japan time. */
  readonly release_date: string;
  readonly img_url: string;
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
  information(query: InformationQuery): Observable<InformationPage>;
  /** The start news (POST /contents/get_start_news). */
  startNews(query: StartNewsQuery): Observable<StartNews>;
  /** Characters with their sub-characters [R3-10]. */
  characters(): Observable<readonly Character[]>;
  /** The virtual cranes; signed-in users only [R6-1]. */
  virtualCranes(): Observable<VirtualCraneList>;
  /** The public new-arrivals listing, at most 50 [R7-7, R9-2]. */
  newArrivals(limit?: number): Observable<readonly NewArrival[]>;
}
