import type { Character, SearchParams } from '../../src/contract';
import type { PrizeItem, TabListItem, TopPageCatalogue } from '../../src/domain';
import type { SqlExecutor } from '../store/store';

/** A prize counts as new for this many days after its release. */
export const NEW_PRIZE_DAYS = 14;
/** A station shows "残りわずか" at or below this stock. */
export const LITTLE_STOCK = 3;

interface StationRow {
  station_id: number;
  station_admin_id: string;
  prize_name: string;
  image_key: string;
  play_price: number;
  station_status: PrizeItem['station_status'];
  station_type: PrizeItem['type'];
  designated_type: PrizeItem['designated_type'];
  natia: boolean;
  recommend: boolean;
  stock: number;
  disclosure: number;
  is_new: boolean;
  character_id: number;
  character_name: string;
  sub_character_id: number;
  sub_character_name: string;
  genre: string;
  gift_type: number;
}

/** A station as the catalogue lists it, plus the fields the server filters on. */
export type StationRecord = PrizeItem & {
  readonly recommend: boolean;
  readonly character_id: number;
  readonly sub_character_id: number;
  readonly gift_type: number;
  readonly stock: number;
};

/** The wire's PrizeItem of a station record (drops the server-side fields). */
export function toPrizeItem(record: StationRecord): PrizeItem {
  const { recommend: _r, character_id: _c, sub_character_id: _s, gift_type: _g, stock: _st, ...item } = record;
  return item;
}

/** Reads the catalogue from the store and shapes it as the contract's entities. */
export class CatalogueRepository {
  constructor(private readonly db: SqlExecutor, readonly imageUrl: (key: string) => string) {}

  async shopExists(shopId: number): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM shops WHERE shop_id = $1', [shopId])).length > 0;
  }

  /** The shop's stations in display order; `stationIds` narrows to those ids (any shop when shopId is null). */
  async stations(shopId: number | null, now: Date, stationIds?: readonly number[], db: SqlExecutor = this.db): Promise<StationRecord[]> {
    const rows = await db.query<StationRow>(
      `SELECT s.station_id, s.station_admin_id, s.prize_name, s.image_key, s.play_price, s.station_status, s.station_type,
              s.designated_type, s.natia, s.recommend, s.stock, s.disclosure,
              s.released_at > $2::timestamptz - make_interval(days => $3) AS is_new,
              s.character_id, c.character_name, s.sub_character_id, sc.sub_character_name, s.genre, s.gift_type
         FROM stations s
         JOIN characters c ON c.character_id = s.character_id
         JOIN sub_characters sc ON sc.sub_character_id = s.sub_character_id
        WHERE ($1::int IS NULL OR s.shop_id = $1) AND ($4::int[] IS NULL OR s.station_id = ANY($4::int[]))
        ORDER BY s.sort, s.station_id`,
      [shopId, now.toISOString(), NEW_PRIZE_DAYS, stationIds ? [...stationIds] : null],
    );
    return rows.map((r) => ({
      station_id: r.station_id,
      station_admin_id: r.station_admin_id,
      prize_name: r.prize_name,
      img_url: this.imageUrl(r.image_key),
      play_price: r.play_price,
      // No play loop runs yet, so no station is being played.
      playing: 0,
      new: r.is_new ? 1 : 0,
      station_status: r.station_status,
      natia: r.natia ? 1 : 0,
      little: r.stock <= LITTLE_STOCK ? 1 : 0,
      disclosure: r.disclosure ? 1 : 0,
      type: r.station_type,
      character: r.character_name,
      sub_character: r.sub_character_name,
      designated_type: r.designated_type,
      // Per-user wins arrive with the play log.
      is_get: 0,
      genre: r.genre,
      recommend: r.recommend,
      character_id: r.character_id,
      sub_character_id: r.sub_character_id,
      gift_type: r.gift_type,
      stock: r.stock,
    }));
  }

  async tabs(): Promise<(TabListItem & { genre: string | null })[]> {
    return this.db.query(`SELECT tab_id, tab_name, tab_slug, tab_kind, genre FROM tabs ORDER BY sort, tab_id`);
  }

  async banners(shopId: number): Promise<{ id: number; title: string; image_key: string; placement: string }[]> {
    return this.db.query(
      `SELECT banner_id AS id, title, image_key, placement FROM campaign_banners WHERE shop_id = $1 ORDER BY sort, banner_id`,
      [shopId],
    );
  }

  /** The festival running now (or the one asked for, if it belongs to the shop), with its stations. */
  async fes(shopId: number, now: Date, fesId?: number): Promise<{ fes_id: number; image_key: string; station_ids: number[] } | null> {
    const [row] = await this.db.query<{ fes_id: number; image_key: string }>(
      fesId === undefined
        ? `SELECT fes_id, image_key FROM fes WHERE shop_id = $1 AND starts_at <= $2 AND ends_at > $2 ORDER BY starts_at DESC LIMIT 1`
        : `SELECT fes_id, image_key FROM fes WHERE shop_id = $1 AND fes_id = $2`,
      // (Each branch passes only the parameters it uses: an unused one has no type and fails.)
      fesId === undefined ? [shopId, now.toISOString()] : [shopId, fesId],
    );
    if (!row) return null;
    const ids = await this.db.query<{ station_id: number }>('SELECT station_id FROM fes_stations WHERE fes_id = $1 ORDER BY station_id', [row.fes_id]);
    return { ...row, station_ids: ids.map((r) => r.station_id) };
  }

  /** Characters with their sub-characters, in display order [R3-10]. */
  async characters(): Promise<Character[]> {
    const rows = await this.db.query<{ character_id: number; character_name: string; slug: string; sub_character_id: number | null; sub_character_name: string | null; sub_slug: string | null }>(
      `SELECT c.character_id, c.character_name, c.slug, sc.sub_character_id, sc.sub_character_name, sc.slug AS sub_slug
         FROM characters c LEFT JOIN sub_characters sc ON sc.character_id = c.character_id
        ORDER BY c.sort, c.character_id, sc.sort, sc.sub_character_id`,
    );
    const byId = new Map<number, Character>();
    for (const r of rows) {
      let character = byId.get(r.character_id);
      if (!character) {
        character = { character_id: r.character_id, character_name: r.character_name, slug: r.slug, sub_character: [] };
        byId.set(r.character_id, character);
      }
      if (r.sub_character_id !== null) character.sub_character.push({ sub_character_id: r.sub_character_id, sub_character_name: r.sub_character_name!, slug: r.sub_slug! });
    }
    return [...byId.values()];
  }

  /** The newest released prizes of every shop, newest first (the public new-arrivals listing) [R7-7]. */
  async newArrivals(now: Date, limit: number): Promise<{ name: string; release_date: string; img_url: string }[]> {
    const rows = await this.db.query<{ prize_name: string; released_at: Date; image_key: string }>(
      `SELECT prize_name, released_at, image_key FROM stations WHERE released_at <= $1 ORDER BY released_at DESC, station_id DESC LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => ({ name: r.prize_name, release_date: jstDate(new Date(r.released_at)), img_url: this.imageUrl(r.image_key) }));
  }

  async image(key: string): Promise<{ content_type: string; body: Uint8Array } | null> {
    const [row] = await this.db.query<{ content_type: string; body: Uint8Array }>('SELECT content_type, body FROM images WHERE image_key = $1', [key]);
    return row ?? null;
  }
}

/** YYYY-MM-DD of an instant on the Japanese calendar (UTC+9, no daylight-saving time). */
export function jstDate(at: Date): string {
  return new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}

type Tab = TabListItem & { genre: string | null };

/** Kinds of tab that get a row of their own on the top page, in order, before the genre rows. */
const SECTION_KINDS = ['recommend', 'new_face', 'vip', 'exclusive', 'natia', 'practice', 'point_ticket'] as const;

const KIND_MATCHES: Partial<Record<TabListItem['tab_kind'], (s: StationRecord) => boolean>> = {
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

/** Whether a station belongs to a tab (a genre tab by genre, any other tab by its kind). */
export function stationInTab(tab: Tab, station: StationRecord): boolean {
  if (tab.tab_kind === 'genre') return station.genre === tab.genre;
  return KIND_MATCHES[tab.tab_kind]?.(station) ?? false;
}

/** The rows of prizes a page shows: one per kind tab, then one per genre; empty rows are left out. */
export function saleSections(stations: readonly StationRecord[], tabs: readonly Tab[]): { tab_id: number; title: string; list: PrizeItem[] }[] {
  return [
    ...SECTION_KINDS.flatMap((kind) => tabs.filter((t) => t.tab_kind === kind)),
    ...tabs.filter((t) => t.tab_kind === 'genre'),
  ]
    .map((t) => ({ tab_id: t.tab_id, title: t.tab_name, list: stations.filter((s) => stationInTab(t, s)).map(toPrizeItem) }))
    .filter((section) => section.list.length > 0);
}

/**
 * The virtual-crane tab shows only for a signed-in user, not on yahoo, and with no search filter
 * active [R2.4-2].
 */
export function showsVirtualCraneTab(opts: { signedIn: boolean; target: string; filterActive: boolean }): boolean {
  return opts.signedIn && opts.target !== 'yahoo' && !opts.filterActive;
}

/** The tab list a caller sees. */
export function visibleTabs(tabs: readonly Tab[], showVirtualCrane: boolean): TabListItem[] {
  return tabs.filter((t) => showVirtualCrane || t.tab_kind !== 'virtual_crane').map(({ genre: _genre, ...tab }) => tab);
}

/** Station statuses in which nobody can play (the maintenance ones and a prize change). */
const UNPLAYABLE = new Set(['stop', 'maintenance', 'force_maintenance', 'adjusting', 'malfunction', 'change']);

/** Folds text for matching: NFKC (全角/半角), lower case, katakana as hiragana. */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
}

/** Whether any search filter is set (is_all and paging are not filters) [R3-17]. */
export function hasSearchFilter(params: SearchParams): boolean {
  const { is_all: _isAll, ...filters } = params;
  return Object.values(filters).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

/** Applies the search params of spec §3 to the shop's stations [R3-17]. */
export function searchStations(stations: readonly StationRecord[], params: SearchParams, tabs: readonly Tab[]): StationRecord[] {
  const keyword = params.keyword === undefined ? null : foldText(params.keyword);
  const category = params.category_id === undefined ? null : tabs.find((t) => t.tab_id === params.category_id) ?? 'missing';
  const ids = params.station_ids && params.station_ids.length > 0 ? new Set(params.station_ids) : null;
  return stations.filter((s) => {
    if (keyword !== null && ![s.prize_name, s.character, s.sub_character, s.genre].some((text) => foldText(text).includes(keyword))) return false;
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
    if (params.refine_search === 1 && (UNPLAYABLE.has(s.station_status) || s.stock === 0)) return false;
    return true;
  });
}

/** Builds the top page from the catalogue. `showVirtualCrane` decides whether the virtual-crane tab is listed. */
export async function buildTopPage(repo: CatalogueRepository, shopId: number, now: Date, opts: { showVirtualCrane: boolean; fesId?: number }): Promise<TopPageCatalogue> {
  const [stations, tabs, banners, fes] = await Promise.all([
    repo.stations(shopId, now), repo.tabs(), repo.banners(shopId), repo.fes(shopId, now, opts.fesId),
  ]);
  const newUser = banners.find((b) => b.placement === 'new_user');
  const byId = new Map(stations.map((s) => [s.station_id, s]));
  return {
    tab_list: visibleTabs(tabs, opts.showVirtualCrane),
    sale_list: saleSections(stations, tabs),
    campaign_banner: banners.filter((b) => b.placement === 'campaign').map((b) => ({ id: b.id, title: b.title, img_url: repo.imageUrl(b.image_key) })),
    new_user: { img: newUser ? repo.imageUrl(newUser.image_key) : '' },
    fes: fes
      ? { img: repo.imageUrl(fes.image_key), list: fes.station_ids.flatMap((id) => (byId.has(id) ? [toPrizeItem(byId.get(id)!)] : [])) }
      : { img: '', list: [] },
    new_prize: stations.filter((s) => s.new === 1).map(toPrizeItem),
  };
}
