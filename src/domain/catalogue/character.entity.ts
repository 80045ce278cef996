/**
 * A character and its sub-characters (spec §3 "Character") [R3-10]. The slugs are our addition:
 * web catalogue paths are built from URL-safe segments (§2.3), so each name travels with its slug
 * (e.g. もちもちうさぎ / 'mochiusa', ミルク / 'milk').
 */
export interface Character {
  readonly character_id: number;
  readonly character_name: string;
  readonly character_slug: string;
  readonly sub_character: readonly SubCharacter[];
}

export interface SubCharacter {
  readonly sub_character_id: number;
  readonly sub_character_name: string;
  readonly sub_character_slug: string;
}

/** Search params (spec §3) [R3-17]. 0/'' means "not filtered by this". */
export interface SearchParams {
  readonly keyword: string;
  readonly character_id: number;
  readonly station_ids: readonly number[];
  readonly category_id: number;
  readonly station_type: string;
  readonly new: 0 | 1;
  readonly designated_type: string;
  readonly natia: 0 | 1;
  readonly vip: 0 | 1;
  readonly exclusive: 0 | 1;
  readonly gift_type: string;
  readonly refine_search: 0 | 1;
  /** 1 asks for every station (no filter); not itself a filter. */
  readonly is_all: 0 | 1;
}

/** Search params with nothing filtered. */
export const EMPTY_SEARCH_PARAMS: SearchParams = {
  keyword: '',
  character_id: 0,
  station_ids: [],
  category_id: 0,
  station_type: '',
  new: 0,
  designated_type: '',
  natia: 0,
  vip: 0,
  exclusive: 0,
  gift_type: '',
  refine_search: 0,
  is_all: 0,
};

/** Whether any search filter is active (is_all does not count) [R2.4-2]. */
export function hasActiveSearchFilter(params: Partial<SearchParams> | null | undefined): boolean {
  if (!params) return false;
  return (
    (params.keyword ?? '').trim() !== '' ||
    (params.character_id ?? 0) !== 0 ||
    (params.station_ids ?? []).length > 0 ||
    (params.category_id ?? 0) !== 0 ||
    (params.station_type ?? '') !== '' ||
    (params.new ?? 0) !== 0 ||
    (params.designated_type ?? '') !== '' ||
    (params.natia ?? 0) !== 0 ||
    (params.vip ?? 0) !== 0 ||
    (params.exclusive ?? 0) !== 0 ||
    (params.gift_type ?? '') !== '' ||
    (params.refine_search ?? 0) !== 0
  );
}
