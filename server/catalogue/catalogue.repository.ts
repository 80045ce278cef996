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
  character_name: string;
  sub_character_name: string;
  genre: string;
}

/** Reads the catalogue from the store and shapes it as the contract's entities. */
export class CatalogueRepository {
  constructor(private readonly db: SqlExecutor, readonly imageUrl: (key: string) => string) {}

  async shopExists(shopId: number): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM shops WHERE shop_id = $1', [shopId])).length > 0;
  }

  async stations(shopId: number, now: Date): Promise<(PrizeItem & { recommend: boolean })[]> {
    const rows = await this.db.query<StationRow>(
      `SELECT s.station_id, s.station_admin_id, s.prize_name, s.image_key, s.play_price, s.station_status, s.station_type,
              s.designated_type, s.natia, s.recommend, s.stock, s.disclosure,
              s.released_at > $2::timestamptz - make_interval(days => $3) AS is_new,
              c.character_name, sc.sub_character_name, s.genre
         FROM stations s
         JOIN characters c ON c.character_id = s.character_id
         JOIN sub_characters sc ON sc.sub_character_id = s.sub_character_id
        WHERE s.shop_id = $1
        ORDER BY s.sort, s.station_id`,
      [shopId, now.toISOString(), NEW_PRIZE_DAYS],
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
      // Guests have won nothing; per-user wins arrive with the play log.
      is_get: 0,
      genre: r.genre,
      recommend: r.recommend,
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
        : `SELECT fes_id, image_key FROM fes WHERE shop_id = $1 AND fes_id = $3`,
      fesId === undefined ? [shopId, now.toISOString()] : [shopId, now.toISOString(), fesId],
    );
    if (!row) return null;
    const ids = await this.db.query<{ station_id: number }>('SELECT station_id FROM fes_stations WHERE fes_id = $1 ORDER BY station_id', [row.fes_id]);
    return { ...row, station_ids: ids.map((r) => r.station_id) };
  }

  async image(key: string): Promise<{ content_type: string; body: Uint8Array } | null> {
    const [row] = await this.db.query<{ content_type: string; body: Uint8Array }>('SELECT content_type, body FROM images WHERE image_key = $1', [key]);
    return row ?? null;
  }
}

/** Kinds of tab that get a row of their own on the top page, in order, before the genre rows. */
const SECTION_KINDS = ['recommend', 'new_face', 'vip', 'exclusive', 'natia', 'practice', 'point_ticket'] as const;

/** Builds the top page from the catalogue. `signedIn` decides whether the virtual-crane tab is listed. */
export async function buildTopPage(repo: CatalogueRepository, shopId: number, now: Date, opts: { signedIn: boolean; fesId?: number }): Promise<TopPageCatalogue> {
  const [stations, tabs, banners, fes] = await Promise.all([
    repo.stations(shopId, now), repo.tabs(), repo.banners(shopId), repo.fes(shopId, now, opts.fesId),
  ]);
  const strip = ({ recommend: _recommend, ...item }: PrizeItem & { recommend: boolean }): PrizeItem => item;
  const matches: Record<(typeof SECTION_KINDS)[number], (s: PrizeItem & { recommend: boolean }) => boolean> = {
    recommend: (s) => s.recommend,
    new_face: (s) => s.new === 1,
    vip: (s) => s.type === 'vip',
    exclusive: (s) => s.type === 'exclusive',
    natia: (s) => s.natia === 1,
    practice: (s) => s.designated_type === 'practice',
    point_ticket: (s) => s.designated_type === 'point_ticket',
  };
  const sale_list = [
    ...SECTION_KINDS.flatMap((kind) => tabs.filter((t) => t.tab_kind === kind).map((t) => ({ tab_id: t.tab_id, title: t.tab_name, list: stations.filter(matches[kind]).map(strip) }))),
    ...tabs.filter((t) => t.tab_kind === 'genre').map((t) => ({ tab_id: t.tab_id, title: t.tab_name, list: stations.filter((s) => s.genre === t.genre).map(strip) })),
  ].filter((section) => section.list.length > 0);
  const newUser = banners.find((b) => b.placement === 'new_user');
  const byId = new Map(stations.map((s) => [s.station_id, s]));
  return {
    tab_list: tabs
      .filter((t) => opts.signedIn || t.tab_kind !== 'virtual_crane')
      .map(({ genre: _genre, ...tab }) => tab),
    sale_list,
    campaign_banner: banners.filter((b) => b.placement === 'campaign').map((b) => ({ id: b.id, title: b.title, img_url: repo.imageUrl(b.image_key) })),
    new_user: { img: newUser ? repo.imageUrl(newUser.image_key) : '' },
    fes: fes
      ? { img: repo.imageUrl(fes.image_key), list: fes.station_ids.flatMap((id) => (byId.has(id) ? [strip(byId.get(id)!)] : [])) }
      : { img: '', list: [] },
    new_prize: stations.filter((s) => s.new === 1).map(strip),
  };
}
