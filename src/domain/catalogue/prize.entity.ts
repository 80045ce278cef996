/**
 * Catalogue entities as the spec (§3) names them on the wire. Flags that the service sends as
 * 0/1 stay numbers here so one spelling serves the client, the server and the tests.
 */

/** Station statuses (§4.3). 'open' is the normal, playable state the spec does not name. */
export const STATION_STATUSES = [
  'open',
  'stop',
  'maintenance',
  'force_maintenance',
  'adjusting',
  'malfunction',
  'change',
] as const;
export type StationStatus = (typeof STATION_STATUSES)[number];

/** Station type as a catalogue tab groups it (§2.4). */
export const STATION_TYPES = ['normal', 'vip', 'exclusive'] as const;
export type StationType = (typeof STATION_TYPES)[number];

/** How a station is played: a normal paid play, a free practice play, or a point-ticket play. */
export const DESIGNATED_TYPES = ['normal', 'practice', 'point_ticket'] as const;
export type DesignatedType = (typeof DESIGNATED_TYPES)[number];

export type Flag = 0 | 1;

/** A prize station as the catalogue lists it (spec §3 "Prize/station item"). */
export interface PrizeItem {
  readonly station_id: number;
  readonly station_admin_id: string;
  readonly prize_name: string;
  readonly img_url: string;
  /** TC charged for one play (0 for practice). */
  readonly play_price: number;
  readonly playing: Flag;
  readonly new: Flag;
  readonly station_status: StationStatus;
  readonly natia: Flag;
  readonly little: Flag;
  readonly disclosure: Flag;
  readonly type: StationType;
  readonly character: string;
  readonly sub_character: string;
  readonly designated_type: DesignatedType;
  readonly is_get: Flag;
  readonly genre: string;
}

/** A catalogue tab (§2.4) as the top page lists it. */
export interface TabListItem {
  readonly tab_id: number;
  readonly tab_name: string;
  /** URL segment of the tab on web (§2.3). */
  readonly tab_slug: string;
  readonly tab_kind: TabKind;
}

export const TAB_KINDS = [
  'home',
  'all',
  'new_face',
  'virtual_crane',
  'genre',
  'type',
  'vip',
  'exclusive',
  'natia',
  'recommend',
  'practice',
  'point_ticket',
  'gift_type',
] as const;
export type TabKind = (typeof TAB_KINDS)[number];

/** A titled row of prizes on the top page. */
export interface SaleListSection {
  readonly tab_id: number;
  readonly title: string;
  readonly list: readonly PrizeItem[];
}

export interface CampaignBanner {
  readonly id: number;
  readonly title: string;
  readonly img_url: string;
}

/** Everything the top page shows (answer of POST /contents/top_page_prize). */
export interface TopPageCatalogue {
  readonly tab_list: readonly TabListItem[];
  readonly sale_list: readonly SaleListSection[];
  readonly campaign_banner: readonly CampaignBanner[];
  readonly new_user: { readonly img: string };
  readonly fes: { readonly img: string; readonly list: readonly PrizeItem[] };
  readonly new_prize: readonly PrizeItem[];
}

/** Counts the distinct stations across the top page's rows. */
export function countTopPageStations(catalogue: TopPageCatalogue): number {
  const ids = new Set<number>();
  for (const section of catalogue.sale_list) for (const item of section.list) ids.add(item.station_id);
  return ids.size;
}
