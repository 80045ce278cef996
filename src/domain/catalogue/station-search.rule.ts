/**
 * The catalogue's search over stations as the service applies it (spec §3 search params) [R3-17]:
 * the reference server's rule, in the domain so any other host of the catalogue searches the same way.
 */

import type { PrizeItem, StationStatus, TabListItem } from './prize.entity';

/** A catalogue tab as the service keeps it: a genre tab names its genre. */
export type CatalogueTab = Pick<TabListItem, 'tab_id' | 'tab_name' | 'tab_kind'> & { readonly genre: string | null };

/** The station fields a tab matches on. */
export type TabStation = Pick<PrizeItem, 'new' | 'type' | 'natia' | 'designated_type' | 'genre'> & {
  readonly recommend: boolean;
  readonly gift_type: number;
};

/** The station fields the search reads. */
export type SearchableStation = TabStation &
  Pick<PrizeItem, 'station_id' | 'prize_name' | 'character' | 'sub_character' | 'station_status'> & {
    readonly character_id: number;
    readonly stock: number;
  };

/**
 * Search params as they travel (spec §3) [R3-17]: every field optional, an absent field does not
 * filter. (The client's form keeps its own shape, `SearchParams`, with 0/'' for "not filtered".)
 */
export interface StationSearchParams {
  readonly keyword?: string | undefined;
  readonly character_id?: number | undefined;
  readonly station_ids?: readonly number[] | undefined;
  /** A tab_id: a genre tab filters by genre, a kind tab (VIP, 新着, 練習台 …) by that kind. */
  readonly category_id?: number | undefined;
  readonly station_type?: PrizeItem['type'] | undefined;
  readonly new?: 0 | 1 | undefined;
  readonly designated_type?: PrizeItem['designated_type'] | undefined;
  readonly natia?: 0 | 1 | undefined;
  /** 1: VIP stations (vip and exclusive). */
  readonly vip?: 0 | 1 | undefined;
  /** 1: VIP-exclusive stations only. */
  readonly exclusive?: 0 | 1 | undefined;
  readonly gift_type?: number | undefined;
  /** 1: only stations playable now (not in maintenance, prize in stock). */
  readonly refine_search?: 0 | 1 | undefined;
  /** 1: the whole list in one answer; not itself a filter. */
  readonly is_all?: 0 | 1 | undefined;
}

/** Kinds of tab that get a row of their own on the top page, in order, before the genre rows. */
export const SALE_SECTION_KINDS = [
  'recommend',
  'new_face',
  'vip',
  'exclusive',
  'natia',
  'practice',
  'point_ticket',
] as const;

/** Station statuses in which nobody can play (the maintenance ones and a prize change). */
export const UNPLAYABLE_STATION_STATUSES: ReadonlySet<StationStatus> = new Set<StationStatus>([
  'stop',
  'maintenance',
  'force_maintenance',
  'adjusting',
  'malfunction',
  'change',
]);

const KIND_MATCHES: Partial<Record<TabListItem['tab_kind'], (s: TabStation) => boolean>> = {
  home: () => true,
  all: () => true,
  recommend: (s) => s.recommend,
  new_face: (s) => s.new === 1,
  vip: (s) => s.type === 'vip',
  exclusive: (s) => s.type === 'exclusive',
  natia: (s) => s.natia === 1,
  practice: (s) => s.designated_type === 'practice',
  point_ticket: (s) => s.designated_type === 'point_ticket',
  type: (s) => s.type === 'normal',
  gift_type: (s) => s.gift_type > 0,
  // Virtual cranes are not stations; they have their own call.
  virtual_crane: () => false,
};

/** Whether a station belongs to a tab: a genre tab by genre, any other tab by its kind [R3-17]. */
export function stationInTab(tab: Pick<CatalogueTab, 'tab_kind' | 'genre'>, station: TabStation): boolean {
  if (tab.tab_kind === 'genre') return station.genre === tab.genre;
  return KIND_MATCHES[tab.tab_kind]?.(station) ?? false;
}

/**
 * The rows of prizes a page shows: one per kind tab (in `SALE_SECTION_KINDS` order), then one per
 * genre tab; empty rows are left out. `toItem` turns a station into what the row lists.
 */
export function saleSections<S extends TabStation, R>(
  stations: readonly S[],
  tabs: readonly CatalogueTab[],
  toItem: (station: S) => R,
): { tab_id: number; title: string; list: R[] }[] {
  return [
    ...SALE_SECTION_KINDS.flatMap((kind) => tabs.filter((t) => t.tab_kind === kind)),
    ...tabs.filter((t) => t.tab_kind === 'genre'),
  ]
    .map((t) => ({ tab_id: t.tab_id, title: t.tab_name, list: stations.filter((s) => stationInTab(t, s)).map(toItem) }))
    .filter((section) => section.list.length > 0);
}

/** Folds text for matching: NFKC (全角/半角), lower case, katakana as hiragana. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
}

/** Whether any search filter is set: any field present, except is_all (an empty id list is unset) [R3-17]. */
export function hasStationSearchFilter(params: StationSearchParams): boolean {
  const { is_all: _isAll, ...filters } = params;
  return Object.values(filters).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

/**
 * The stations that match the search params, in the given order [R3-17]. The keyword matches the
 * prize, character, sub-character or genre after `foldText`; `category_id` names a tab (an unknown
 * tab matches nothing); `refine_search` keeps playable stations with stock.
 *
 * @example searchStations(stations, { keyword: 'ウサ', refine_search: 1 }, tabs)
 */
export function searchStations<S extends SearchableStation>(
  stations: readonly S[],
  params: StationSearchParams,
  tabs: readonly CatalogueTab[],
): S[] {
  const keyword = params.keyword === undefined ? null : foldText(params.keyword);
  const category =
    params.category_id === undefined ? null : (tabs.find((t) => t.tab_id === params.category_id) ?? 'missing');
  const ids = params.station_ids && params.station_ids.length > 0 ? new Set(params.station_ids) : null;
  return stations.filter((s) => {
    if (
      keyword !== null &&
      ![s.prize_name, s.character, s.sub_character, s.genre].some((text) => foldText(text).includes(keyword))
    )
      return false;
    if (params.character_id !== undefined && s.character_id !== params.character_id) return false;
    if (ids && !ids.has(s.station_id)) return false;
    if (category === 'missing') return false;
    if (category !== null && !stationInTab(category, s)) return false;
    if (params.station_type !== undefined && s.type !== params.station_type) return false;
    if (params.new !== undefined && s.new !== params.new) return false;
    if (params.designated_type !== undefined && s.designated_type !== params.designated_type) return false;
    if (params.natia !== undefined && s.natia !== params.natia) return false;
    if (params.vip !== undefined && (s.type !== 'normal' ? 1 : 0) !== params.vip) return false;
    if (params.exclusive !== undefined && (s.type === 'exclusive' ? 1 : 0) !== params.exclusive) return false;
    if (params.gift_type !== undefined && s.gift_type !== params.gift_type) return false;
    if (params.refine_search === 1 && (UNPLAYABLE_STATION_STATUSES.has(s.station_status) || s.stock === 0))
      return false;
    return true;
  });
}

/** is_all answers the whole list at once; this caps it so one answer stays a sensible size. */
export const SEARCH_IS_ALL_MAX_ITEMS = 1000;

/**
 * One page of search results (POST /v2/contents/prize) [R3-17]: `pageSize` a page, or with is_all
 * the first `SEARCH_IS_ALL_MAX_ITEMS` as page 1.
 */
export function searchResultPage<S, R>(
  matches: readonly S[],
  request: { readonly page: number; readonly isAll: boolean; readonly pageSize: number },
  toItem: (station: S) => R,
): { list: R[]; total_count: number; page: number; page_count: number; page_items_count: number } {
  const size = request.isAll ? SEARCH_IS_ALL_MAX_ITEMS : request.pageSize;
  const page = request.isAll ? 1 : request.page;
  return {
    list: matches.slice((page - 1) * size, page * size).map(toItem),
    total_count: matches.length,
    page,
    page_count: Math.ceil(matches.length / size),
    page_items_count: size,
  };
}
