import type { Character } from '../../src/contract';
import {
  isVirtualCraneTabVisible,
  saleSections,
  type BuildTarget,
  type PrizeItem,
  type TabListItem,
  type TopPageCatalogue,
} from '../../src/domain';
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
  constructor(
    private readonly db: SqlExecutor,
    readonly imageUrl: (key: string) => string,
  ) {}

  async shopExists(shopId: number): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM shops WHERE shop_id = $1', [shopId])).length > 0;
  }

  /** The shop's stations in display order; `stationIds` narrows to those ids (any shop when shopId is null). */
  async stations(
    shopId: number | null,
    now: Date,
    stationIds?: readonly number[],
    db: SqlExecutor = this.db,
  ): Promise<StationRecord[]> {
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

  /**
   * The first moment after `now` at which time alone changes a shop's top page: a station stops being
   * new, or a festival starts or ends (null: none ahead). The top-page cache keeps an answer until then.
   */
  async nextTimedChange(shopId: number, now: Date): Promise<Date | null> {
    const [row] = await this.db.query<{ at: string | Date | null }>(
      `SELECT min(at) AS at FROM (
         SELECT released_at + make_interval(days => $3) AS at FROM stations WHERE shop_id = $1
         UNION ALL SELECT starts_at FROM fes WHERE shop_id = $1
         UNION ALL SELECT ends_at FROM fes WHERE shop_id = $1
       ) t WHERE at > $2::timestamptz`,
      [shopId, now.toISOString(), NEW_PRIZE_DAYS],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** The festival running now (or the one asked for, if it belongs to the shop), with its stations. */
  async fes(
    shopId: number,
    now: Date,
    fesId?: number,
  ): Promise<{ fes_id: number; image_key: string; station_ids: number[] } | null> {
    const [row] = await this.db.query<{ fes_id: number; image_key: string }>(
      fesId === undefined
        ? `SELECT fes_id, image_key FROM fes WHERE shop_id = $1 AND starts_at <= $2 AND ends_at > $2 ORDER BY starts_at DESC LIMIT 1`
        : `SELECT fes_id, image_key FROM fes WHERE shop_id = $1 AND fes_id = $2`,
      // (Each branch passes only the parameters it uses: an unused one has no type and fails.)
      fesId === undefined ? [shopId, now.toISOString()] : [shopId, fesId],
    );
    if (!row) return null;
    const ids = await this.db.query<{ station_id: number }>(
      'SELECT station_id FROM fes_stations WHERE fes_id = $1 ORDER BY station_id',
      [row.fes_id],
    );
    return { ...row, station_ids: ids.map((r) => r.station_id) };
  }

  /** Characters with their sub-characters, in display order [R3-10]. */
  async characters(): Promise<Character[]> {
    const rows = await this.db.query<{
      character_id: number;
      character_name: string;
      slug: string;
      sub_character_id: number | null;
      sub_character_name: string | null;
      sub_slug: string | null;
    }>(
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
      if (r.sub_character_id !== null)
        character.sub_character.push({
          sub_character_id: r.sub_character_id,
          sub_character_name: r.sub_character_name!,
          slug: r.sub_slug!,
        });
    }
    return [...byId.values()];
  }

  /** The newest released prizes of every shop, newest first (the public new-arrivals listing) [R7-7]. */
  async newArrivals(now: Date, limit: number): Promise<{ name: string; release_date: string; img_url: string }[]> {
    const rows = await this.db.query<{ prize_name: string; released_at: Date; image_key: string }>(
      `SELECT prize_name, released_at, image_key FROM stations WHERE released_at <= $1 ORDER BY released_at DESC, station_id DESC LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => ({
      name: r.prize_name,
      release_date: jstDate(new Date(r.released_at)),
      img_url: this.imageUrl(r.image_key),
    }));
  }

  async image(key: string): Promise<{ content_type: string; body: Uint8Array } | null> {
    const [row] = await this.db.query<{ content_type: string; body: Uint8Array }>(
      'SELECT content_type, body FROM images WHERE image_key = $1',
      [key],
    );
    return row ?? null;
  }
}

/** YYYY-MM-DD of an instant on the Japanese calendar (UTC+9, no daylight-saving time). */
export function jstDate(at: Date): string {
  return new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}

type Tab = TabListItem & { genre: string | null };

/** The rows of prizes a page shows (the domain's saleSections over the wire's PrizeItem). */
export function saleSectionsOf(
  stations: readonly StationRecord[],
  tabs: readonly Tab[],
): { tab_id: number; title: string; list: PrizeItem[] }[] {
  return saleSections(stations, tabs, toPrizeItem);
}

/**
 * The virtual-crane tab shows only for a signed-in user, not on yahoo, and with no search filter
 * active [R2.4-2] (the domain's isVirtualCraneTabVisible).
 */
export function showsVirtualCraneTab(opts: { signedIn: boolean; target: BuildTarget; filterActive: boolean }): boolean {
  return isVirtualCraneTabVisible({ signedIn: opts.signedIn, target: opts.target, hasSearchFilter: opts.filterActive });
}

/** The tab list a caller sees (without the server-side genre). */
export function visibleTabs(tabs: readonly Tab[], showVirtualCrane: boolean): TabListItem[] {
  return tabs.filter((t) => showVirtualCrane || t.tab_kind !== 'virtual_crane').map(({ genre: _genre, ...tab }) => tab);
}

/** Builds the top page from the catalogue. `showVirtualCrane` decides whether the virtual-crane tab is listed. */
export async function buildTopPage(
  repo: CatalogueRepository,
  shopId: number,
  now: Date,
  opts: { showVirtualCrane: boolean; fesId?: number },
): Promise<TopPageCatalogue> {
  const [stations, tabs, banners, fes] = await Promise.all([
    repo.stations(shopId, now),
    repo.tabs(),
    repo.banners(shopId),
    repo.fes(shopId, now, opts.fesId),
  ]);
  const newUser = banners.find((b) => b.placement === 'new_user');
  const byId = new Map(stations.map((s) => [s.station_id, s]));
  return {
    tab_list: visibleTabs(tabs, opts.showVirtualCrane),
    sale_list: saleSectionsOf(stations, tabs),
    campaign_banner: banners
      .filter((b) => b.placement === 'campaign')
      .map((b) => ({ id: b.id, title: b.title, img_url: repo.imageUrl(b.image_key) })),
    new_user: { img: newUser ? repo.imageUrl(newUser.image_key) : '' },
    fes: fes
      ? {
          img: repo.imageUrl(fes.image_key),
          list: fes.station_ids.flatMap((id) => (byId.has(id) ? [toPrizeItem(byId.get(id)!)] : [])),
        }
      : { img: '', list: [] },
    new_prize: stations.filter((s) => s.new === 1).map(toPrizeItem),
  };
}
