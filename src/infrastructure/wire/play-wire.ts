import type { CurrentPlay, PrizeSearchQuery, StationReserveInfo } from '../../application';
import type { Character } from '../../domain';
import type {
  Character as WireCharacter,
  PlayInfo as WirePlayInfo,
  ReserveStatusRecord as WireReserveStatusRecord,
  SearchParams as WireSearchParams,
} from '../../contract';

/**
 * Wire ↔ port shapes of the catalogue and play calls, in one place for the HTTP adapters.
 */

/**
 * The active filters of the domain's search params as the wire wants them [R3-17]: 0, '' and []
 * mean "not filtered" in the domain and are left out; gift_type travels as a number.
 */
export function toWireSearchParams(params: PrizeSearchQuery['params'] = {}): WireSearchParams {
  const out: Record<string, unknown> = {};
  const keyword = params.keyword?.trim();
  if (keyword) out.keyword = keyword;
  if (params.character_id) out.character_id = params.character_id;
  if (params.station_ids && params.station_ids.length > 0) out.station_ids = [...params.station_ids];
  if (params.category_id) out.category_id = params.category_id;
  if (params.station_type) out.station_type = params.station_type;
  if (params.designated_type) out.designated_type = params.designated_type;
  if (params.gift_type) out.gift_type = Number(params.gift_type);
  for (const flag of ['new', 'natia', 'vip', 'exclusive', 'refine_search', 'is_all'] as const) {
    if (params[flag] === 1) out[flag] = 1;
  }
  return out as WireSearchParams;
}

/** A character as the domain names its slugs [R3-10]. */
export function toCharacter(wire: WireCharacter): Character {
  return {
    character_id: wire.character_id,
    character_name: wire.character_name,
    character_slug: wire.slug,
    sub_character: wire.sub_character.map((s) => ({
      sub_character_id: s.sub_character_id,
      sub_character_name: s.sub_character_name,
      sub_character_slug: s.slug,
    })),
  };
}

/** Play info with the domain's boolean is_reserve [R3-7]. */
export function toCurrentPlay(wire: WirePlayInfo): CurrentPlay {
  return { ...wire, is_reserve: wire.is_reserve === 1 };
}

/** A reserve status record that names a station; null for the empty record (no station, no reservation). */
export function toStationReserveInfo(wire: WireReserveStatusRecord): StationReserveInfo | null {
  if (wire.station_id === 0 || wire.station_status === null) return null;
  return { ...wire, station_status: wire.station_status };
}
