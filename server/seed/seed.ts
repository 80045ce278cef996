import type { SqlExecutor, Store } from '../store/store';
import { STORE_LOCKS, takeStoreLock } from '../store/store-locks';
import { bannerSvg, prizeSvg } from './art';
import { PRIZE_KINDS, SEED_CHARACTERS, SEED_STATIONS, SEED_TABS } from './catalogue-data';
import {
  INFORMATION_TEMPLATES,
  SEED_CAROUSELS,
  SEED_FEATURE_ARTICLES,
  SEED_INFORMATION_COUNT,
  SEED_KUJI,
  SEED_VIRTUAL_CRANES,
} from './contents-data';

/** Base arm strengths the demo stations cycle through (published per station in the play log). */
const SEED_ARM_STRENGTHS = [0.55, 0.45, 0.6, 0.5, 0.4, 0.65] as const;

export const DEMO_SHOP_ID = 1;
const DAY_MS = 86_400_000;

/** Prize kinds that also belong to the ギフト tab (gift_type 1). */
const GIFT_KINDS = new Set(['mug', 'sweets', 'blanket']);

/**
 * Fills an empty store with the demo catalogue and contents. Idempotent: a store that already has
 * the shop keeps its catalogue, and contents are added only where missing. `now` dates the
 * releases, so "new" prizes are new relative to the first start.
 */
export async function seedCatalogue(store: Store, now: Date): Promise<boolean> {
  const created = await seedShop(store, now);
  await seedContents(store, now);
  return created;
}

async function seedShop(store: Store, now: Date): Promise<boolean> {
  if ((await store.query('SELECT 1 FROM shops WHERE shop_id = $1', [DEMO_SHOP_ID])).length > 0) return false;
  // Instances starting at once on an empty PostgreSQL database: one seeds, the others find it done.
  return store.transaction(async (tx) => {
    await takeStoreLock(tx, STORE_LOCKS.seed);
    if ((await tx.query('SELECT 1 FROM shops WHERE shop_id = $1', [DEMO_SHOP_ID])).length > 0) return false;
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
      await tx.query('INSERT INTO tabs (tab_name, tab_slug, tab_kind, genre, sort) VALUES ($1, $2, $3, $4, $5)', [
        tab.name,
        tab.slug,
        tab.kind,
        tab.genre ?? null,
        ti,
      ]);
    }
    const stationIds: number[] = [];
    for (const [i, s] of SEED_STATIONS.entries()) {
      const character = SEED_CHARACTERS[s.character]!;
      const sub = character.subs[s.sub]!;
      const kind = PRIZE_KINDS[s.kind];
      const adminId = `ST-${String(i + 1).padStart(4, '0')}`;
      const imageKey = `prize-${adminId.toLowerCase()}`;
      const svg = prizeSvg({ shape: character.shape, palette: sub.palette, kind: s.kind, seed: i + 1 });
      await tx.query('INSERT INTO images (image_key, content_type, body) VALUES ($1, $2, $3)', [
        imageKey,
        'image/svg+xml',
        Buffer.from(svg),
      ]);
      const name = `${character.name} ${sub.name} ${kind.label}${s.edition ? `（${s.edition}）` : ''}`;
      const type = s.type ?? 'normal';
      const designated = s.designated ?? 'normal';
      const price = designated === 'practice' ? 0 : type === 'normal' ? kind.price : kind.price + 100;
      const [row] = await tx.query<{ station_id: number }>(
        `INSERT INTO stations (station_admin_id, shop_id, prize_name, character_id, sub_character_id, genre, station_type,
           designated_type, natia, recommend, stock, disclosure, station_status, play_price, image_key, released_at, sort, gift_type,
           prize_shape, arm_strength)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING station_id`,
        [
          adminId,
          DEMO_SHOP_ID,
          name,
          characterIds[s.character],
          subIds[s.character]![s.sub],
          kind.genre,
          type,
          designated,
          s.natia ?? false,
          s.recommend ?? false,
          s.stock ?? 10,
          type === 'normal' ? 0 : 1,
          s.status ?? 'open',
          price,
          imageKey,
          new Date(now.getTime() - s.releasedDaysAgo * DAY_MS),
          i,
          GIFT_KINDS.has(s.kind) ? 1 : 0,
          kind.shape,
          SEED_ARM_STRENGTHS[i % SEED_ARM_STRENGTHS.length],
        ],
      );
      stationIds.push(row!.station_id);
    }
    const faces = SEED_CHARACTERS.map((c) => ({ shape: c.shape, palette: c.subs[0]!.palette }));
    const banners = [
      {
        key: 'banner-campaign-autumn',
        placement: 'campaign',
        title: '秋のもちもちフェア',
        subtitle: '対象台で1プレイごとにポイント2倍',
        colors: ['#ff8fab', '#ffb56b'] as const,
      },
      {
        key: 'banner-campaign-newface',
        placement: 'campaign',
        title: '新着景品ぞくぞく入荷中',
        subtitle: '毎週金曜日に新しい台が登場',
        colors: ['#6ec6ff', '#a18cff'] as const,
      },
      {
        key: 'banner-new-user',
        placement: 'new_user',
        title: 'はじめての方へ',
        subtitle: '初回登録で無料練習台が遊べます',
        colors: ['#7ed6a5', '#5fb7e5'] as const,
      },
      {
        key: 'banner-fes',
        placement: 'fes',
        title: 'オンクレ秋まつり',
        subtitle: 'おまつり限定景品が勢ぞろい',
        colors: ['#ff7a7a', '#ffcf5c'] as const,
      },
    ];
    for (const [bi, b] of banners.entries()) {
      const svg = bannerSvg({
        title: b.title,
        subtitle: b.subtitle,
        colors: b.colors,
        characters: faces.slice(bi, bi + 4),
      });
      await tx.query('INSERT INTO images (image_key, content_type, body) VALUES ($1, $2, $3)', [
        b.key,
        'image/svg+xml',
        Buffer.from(svg),
      ]);
      if (b.placement === 'fes') {
        const [fes] = await tx.query<{ fes_id: number }>(
          'INSERT INTO fes (shop_id, title, image_key, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5) RETURNING fes_id',
          [DEMO_SHOP_ID, b.title, b.key, new Date(now.getTime() - 7 * DAY_MS), new Date(now.getTime() + 365 * DAY_MS)],
        );
        for (const id of stationIds.filter((_, i) => i % 5 === 0))
          await tx.query('INSERT INTO fes_stations (fes_id, station_id) VALUES ($1, $2)', [fes!.fes_id, id]);
      } else {
        await tx.query(
          'INSERT INTO campaign_banners (shop_id, title, image_key, placement, sort) VALUES ($1, $2, $3, $4, $5)',
          [DEMO_SHOP_ID, b.title, b.key, b.placement, bi],
        );
      }
    }
    return true;
  });
}

const insertImage = (tx: SqlExecutor, key: string, svg: string) =>
  tx.query(
    'INSERT INTO images (image_key, content_type, body) VALUES ($1, $2, $3) ON CONFLICT (image_key) DO NOTHING',
    [key, 'image/svg+xml', Buffer.from(svg)],
  );

/**
 * Station settings for every station without one, then — once — the kuji, carousel slides,
 * information and virtual cranes of the demo shop.
 */
export async function seedContents(store: Store, now: Date): Promise<void> {
  await store.transaction(async (tx) => {
    await takeStoreLock(tx, STORE_LOCKS.seed);
    await tx.query(
      `INSERT INTO station_settings (station_id)
       SELECT s.station_id FROM stations s
        WHERE NOT EXISTS (SELECT 1 FROM station_settings ss WHERE ss.station_id = s.station_id AND ss.active)
        ORDER BY s.station_id`,
    );
    if ((await tx.query('SELECT 1 FROM carousels LIMIT 1')).length > 0) return;
    const shop = await tx.query('SELECT 1 FROM shops WHERE shop_id = $1', [DEMO_SHOP_ID]);
    if (shop.length === 0) return;
    await seedKuji(tx, now);
    const carouselKeys = await seedCarousels(tx, now);
    await seedInformation(tx, now, carouselKeys);
    await seedVirtualCranes(tx, now);
  });
}

async function seedKuji(tx: SqlExecutor, now: Date): Promise<void> {
  for (const [ki, k] of SEED_KUJI.entries()) {
    const character = SEED_CHARACTERS[k.character]!;
    const bannerKey = `kuji-${ki + 1}-banner`;
    await insertImage(
      tx,
      bannerKey,
      bannerSvg({
        title: k.name,
        subtitle: `1回 ${k.price.toLocaleString('ja-JP')}TC`,
        colors: k.colors,
        characters: character.subs.map((sub) => ({ shape: character.shape, palette: sub.palette })),
      }),
    );
    const [row] = await tx.query<{ kuji_id: number }>(
      'INSERT INTO kuji (shop_id, kuji_name, description, price, starts_at, ends_at, sort) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING kuji_id',
      [
        DEMO_SHOP_ID,
        k.name,
        k.description,
        k.price,
        new Date(now.getTime() - 10 * DAY_MS),
        new Date(now.getTime() + 60 * DAY_MS),
        ki,
      ],
    );
    const kujiId = row!.kuji_id;
    await tx.query('INSERT INTO kuji_images (kuji_id, image_key, sort) VALUES ($1, $2, 0)', [kujiId, bannerKey]);
    const prizeKeys: string[] = [];
    for (const [pi, p] of k.prizes.entries()) {
      const key = `kuji-${ki + 1}-prize-${pi + 1}`;
      const sub = character.subs[pi % character.subs.length]!;
      await insertImage(
        tx,
        key,
        prizeSvg({
          shape: character.shape,
          palette: sub.palette,
          kind: p.kind,
          seed: 1000 + ki * 10 + pi,
          label: p.rank,
        }),
      );
      prizeKeys.push(key);
    }
    // The A prize picture is the kuji's second picture.
    await tx.query('INSERT INTO kuji_images (kuji_id, image_key, sort) VALUES ($1, $2, 1)', [kujiId, prizeKeys[0]]);
    for (const [bi, b] of k.boxes.entries()) {
      const [box] = await tx.query<{ box_id: number }>(
        'INSERT INTO kuji_boxes (kuji_id, box_no, box_status) VALUES ($1, $2, $3) RETURNING box_id',
        [kujiId, bi + 1, b.status],
      );
      let drawn = b.drawn ?? 0;
      // Draws take the smallest prizes first, so a partly drawn box still holds its top prizes.
      const remaining = k.prizes.map((p) => p.quantity);
      // The last-one prize is no ticket: it stays until the box's last ticket is drawn.
      for (let pi = k.prizes.length - 1; pi >= 0 && drawn > 0; pi--) {
        if (k.prizes[pi]!.lastOne) continue;
        const take = Math.min(remaining[pi]!, drawn);
        remaining[pi]! -= take;
        drawn -= take;
      }
      for (const [pi, p] of k.prizes.entries()) {
        await tx.query(
          'INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort, is_last_one) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [
            box!.box_id,
            p.rank,
            `${character.name} ${p.label}`,
            prizeKeys[pi],
            p.quantity,
            p.lastOne && remaining.every((r, ri) => ri === pi || k.prizes[ri]!.lastOne || r === 0) ? 0 : remaining[pi],
            pi,
            p.lastOne === true,
          ],
        );
      }
    }
  }
}

async function seedCarousels(tx: SqlExecutor, now: Date): Promise<string[]> {
  const keys: string[] = [];
  for (const [ci, c] of SEED_CAROUSELS.entries()) {
    const faces = SEED_CHARACTERS.slice(ci, ci + 3).map((ch) => ({ shape: ch.shape, palette: ch.subs[0]!.palette }));
    const pc = `carousel-${ci + 1}-pc`;
    const sp = `carousel-${ci + 1}-sp`;
    await insertImage(tx, pc, bannerSvg({ title: c.title, subtitle: c.subtitle, colors: c.colors, characters: faces }));
    await insertImage(
      tx,
      sp,
      bannerSvg({
        title: c.title,
        subtitle: c.subtitle,
        colors: [c.colors[1], c.colors[0]],
        characters: faces.slice(0, 2),
      }),
    );
    await tx.query(
      'INSERT INTO carousels (shop_id, title, type_id, link, pc_image_key, sp_image_key, starts_at, ends_at, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [
        DEMO_SHOP_ID,
        c.title,
        c.typeId,
        c.link,
        pc,
        sp,
        new Date(now.getTime() - 14 * DAY_MS),
        new Date(now.getTime() + 90 * DAY_MS),
        ci,
      ],
    );
    keys.push(pc);
  }
  return keys;
}

async function seedInformation(tx: SqlExecutor, now: Date, imageKeys: readonly string[]): Promise<void> {
  for (let i = 0; i < SEED_INFORMATION_COUNT; i++) {
    const template = INFORMATION_TEMPLATES[i % INFORMATION_TEMPLATES.length]!;
    const n = Math.floor(i / INFORMATION_TEMPLATES.length) + 1;
    await tx.query(
      `INSERT INTO information (shop_id, tag, category, title, body, image_key, is_top_page, is_pick_up, published_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        DEMO_SHOP_ID,
        `info-${String(i + 1).padStart(4, '0')}`,
        template.category,
        template.title(n),
        template.body,
        i % 4 === 0 ? imageKeys[(i / 4) % imageKeys.length] : null,
        i % 10 === 0,
        i % 15 === 0,
        new Date(now.getTime() - (i * 2 + 1) * DAY_MS),
      ],
    );
  }
  for (const article of SEED_FEATURE_ARTICLES) {
    await tx.query(
      `INSERT INTO information (shop_id, tag, category, title, body, is_top_page, is_pick_up, published_at)
       VALUES ($1, $2, $3, $4, $5, false, false, $6)`,
      [DEMO_SHOP_ID, article.tag, article.category, article.title, article.body, new Date(now.getTime() - DAY_MS / 2)],
    );
  }
  // One notice scheduled for tomorrow: stored, but not listed until then.
  await tx.query(
    `INSERT INTO information (shop_id, tag, category, title, body, is_top_page, is_pick_up, published_at)
     VALUES ($1, 'info-scheduled', 'お知らせ', '年末年始の営業について', '年末年始もオンクレは休まず営業します。', true, true, $2)`,
    [DEMO_SHOP_ID, new Date(now.getTime() + DAY_MS)],
  );
}

async function seedVirtualCranes(tx: SqlExecutor, now: Date): Promise<void> {
  for (const [vi, v] of SEED_VIRTUAL_CRANES.entries()) {
    const character = SEED_CHARACTERS[v.character]!;
    const key = `virtual-crane-${vi + 1}`;
    await insertImage(
      tx,
      key,
      prizeSvg({
        shape: character.shape,
        palette: character.subs[0]!.palette,
        kind: v.kind,
        seed: 2000 + vi,
        label: 'バーチャル',
      }),
    );
    await tx.query(
      'INSERT INTO virtual_cranes (name, description, image_key, play_price, released_at, sort) VALUES ($1, $2, $3, $4, $5, $6)',
      [v.name, v.description, key, v.price, new Date(now.getTime() - v.releasedDaysAgo * DAY_MS), vi],
    );
  }
}
