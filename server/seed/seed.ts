import type { Store } from '../store/store';
import { bannerSvg, prizeSvg } from './art';
import { PRIZE_KINDS, SEED_CHARACTERS, SEED_STATIONS, SEED_TABS } from './catalogue-data';

export const DEMO_SHOP_ID = 1;
const DAY_MS = 86_400_000;

/**
 * Fills an empty store with the demo catalogue. Idempotent: a store that already has the shop is
 * left as it is. `now` dates the releases, so "new" prizes are new relative to the first start.
 */
export async function seedCatalogue(store: Store, now: Date): Promise<boolean> {
  const existing = await store.query('SELECT 1 FROM shops WHERE shop_id = $1', [DEMO_SHOP_ID]);
  if (existing.length > 0) return false;
  await store.transaction(async (tx) => {
    await tx.query('INSERT INTO shops (shop_id, shop_name) VALUES ($1, $2)', [DEMO_SHOP_ID, 'オンクレ本店']);
    const characterIds: number[] = [];
    const subIds: number[][] = [];
    for (const [ci, character] of SEED_CHARACTERS.entries()) {
      const [row] = await tx.query<{ character_id: number }>(
        'INSERT INTO characters (character_name, slug, sort) VALUES ($1, $2, $3) RETURNING character_id',
        [character.name, character.slug, ci],
      );
      characterIds.push(row!.character_id);
      const ids: number[] = [];
      for (const [si, sub] of character.subs.entries()) {
        const [subRow] = await tx.query<{ sub_character_id: number }>(
          'INSERT INTO sub_characters (character_id, sub_character_name, slug, sort) VALUES ($1, $2, $3, $4) RETURNING sub_character_id',
          [row!.character_id, sub.name, sub.slug, si],
        );
        ids.push(subRow!.sub_character_id);
      }
      subIds.push(ids);
    }
    for (const [ti, tab] of SEED_TABS.entries()) {
      await tx.query('INSERT INTO tabs (tab_name, tab_slug, tab_kind, genre, sort) VALUES ($1, $2, $3, $4, $5)', [tab.name, tab.slug, tab.kind, tab.genre ?? null, ti]);
    }
    const stationIds: number[] = [];
    for (const [i, s] of SEED_STATIONS.entries()) {
      const character = SEED_CHARACTERS[s.character]!;
      const sub = character.subs[s.sub]!;
      const kind = PRIZE_KINDS[s.kind];
      const adminId = `ST-${String(i + 1).padStart(4, '0')}`;
      const imageKey = `prize-${adminId.toLowerCase()}`;
      const svg = prizeSvg({ shape: character.shape, palette: sub.palette, kind: s.kind, seed: i + 1 });
      await tx.query('INSERT INTO images (image_key, content_type, body) VALUES ($1, $2, $3)', [imageKey, 'image/svg+xml', Buffer.from(svg)]);
      const name = `${character.name} ${sub.name} ${kind.label}${s.edition ? `（${s.edition}）` : ''}`;
      const type = s.type ?? 'normal';
      const designated = s.designated ?? 'normal';
      const price = designated === 'practice' ? 0 : type === 'normal' ? kind.price : kind.price + 100;
      const [row] = await tx.query<{ station_id: number }>(
        `INSERT INTO stations (station_admin_id, shop_id, prize_name, character_id, sub_character_id, genre, station_type,
           designated_type, natia, recommend, stock, disclosure, station_status, play_price, image_key, released_at, sort)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING station_id`,
        [adminId, DEMO_SHOP_ID, name, characterIds[s.character], subIds[s.character]![s.sub], kind.genre, type, designated, s.natia ?? false,
          s.recommend ?? false, s.stock ?? 10, type === 'normal' ? 0 : 1, s.status ?? 'open', price, imageKey,
          new Date(now.getTime() - s.releasedDaysAgo * DAY_MS), i],
      );
      stationIds.push(row!.station_id);
    }
    const faces = SEED_CHARACTERS.map((c) => ({ shape: c.shape, palette: c.subs[0]!.palette }));
    const banners = [
      { key: 'banner-campaign-autumn', placement: 'campaign', title: '秋のもちもちフェア', subtitle: '対象台で1プレイごとにポイント2倍', colors: ['#ff8fab', '#ffb56b'] as const },
      { key: 'banner-campaign-newface', placement: 'campaign', title: '新着景品ぞくぞく入荷中', subtitle: '毎週金曜日に新しい台が登場', colors: ['#6ec6ff', '#a18cff'] as const },
      { key: 'banner-new-user', placement: 'new_user', title: 'はじめての方へ', subtitle: '初回登録で無料練習台が遊べます', colors: ['#7ed6a5', '#5fb7e5'] as const },
      { key: 'banner-fes', placement: 'fes', title: 'オンクレ秋まつり', subtitle: 'おまつり限定景品が勢ぞろい', colors: ['#ff7a7a', '#ffcf5c'] as const },
    ];
    for (const [bi, b] of banners.entries()) {
      const svg = bannerSvg({ title: b.title, subtitle: b.subtitle, colors: b.colors, characters: faces.slice(bi, bi + 4) });
      await tx.query('INSERT INTO images (image_key, content_type, body) VALUES ($1, $2, $3)', [b.key, 'image/svg+xml', Buffer.from(svg)]);
      if (b.placement === 'fes') {
        const [fes] = await tx.query<{ fes_id: number }>(
          'INSERT INTO fes (shop_id, title, image_key, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5) RETURNING fes_id',
          [DEMO_SHOP_ID, b.title, b.key, new Date(now.getTime() - 7 * DAY_MS), new Date(now.getTime() + 365 * DAY_MS)],
        );
        for (const id of stationIds.filter((_, i) => i % 5 === 0)) await tx.query('INSERT INTO fes_stations (fes_id, station_id) VALUES ($1, $2)', [fes!.fes_id, id]);
      } else {
        await tx.query('INSERT INTO campaign_banners (shop_id, title, image_key, placement, sort) VALUES ($1, $2, $3, $4, $5)', [DEMO_SHOP_ID, b.title, b.key, b.placement, bi]);
      }
    }
  });
  return true;
}
