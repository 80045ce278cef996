import type { CarouselItem, InformationItem } from '../../src/contract';
import type { SqlExecutor } from '../store/store';
import { NEW_PRIZE_DAYS } from './catalogue.repository';

interface InformationRow {
  information_id: number;
  tag: string;
  category: string;
  title: string;
  body: string;
  image_key: string | null;
  published_at: Date;
  is_top_page: boolean;
  is_pick_up: boolean;
  total: number;
}

/** A page of a list: the items plus how many there are in all. */
export interface Paged<T> {
  readonly list: T[];
  readonly total_count: number;
}

/** Editorial contents: carousel slides, information (news) and virtual cranes. */
export class ContentsRepository {
  constructor(
    private readonly db: SqlExecutor,
    private readonly imageUrl: (key: string) => string,
  ) {}

  /** Slides running now, in display order. shopId null: the demo shop's slides (every shop's). */
  async carousels(shopId: number | null, now: Date): Promise<CarouselItem[]> {
    const rows = await this.db.query<{
      carousel_id: number;
      title: string;
      type_id: 1 | 2 | 3;
      link: string;
      pc_image_key: string;
      sp_image_key: string;
    }>(
      `SELECT carousel_id, title, type_id, link, pc_image_key, sp_image_key FROM carousels
        WHERE ($1::int IS NULL OR shop_id = $1) AND starts_at <= $2 AND ends_at > $2
        ORDER BY sort, carousel_id`,
      [shopId, now.toISOString()],
    );
    return rows.map((r) => ({
      id: r.carousel_id,
      title: r.title,
      type_id: r.type_id,
      link: r.link,
      pc_img_url: this.imageUrl(r.pc_image_key),
      sp_img_url: this.imageUrl(r.sp_image_key),
    }));
  }

  /**
   * Published information of a shop, newest first, one page of `num` [R9-2]. `only` narrows to the
   * items flagged for the top page or as picked up (the start news).
   */
  async information(
    shopId: number,
    now: Date,
    page: number,
    num: number,
    only?: { is_top_page?: 0 | 1; is_pick_up?: 0 | 1; tag?: string },
  ): Promise<Paged<InformationItem>> {
    const rows = await this.db.query<InformationRow>(
      `SELECT information_id, tag, category, title, body, image_key, published_at, is_top_page, is_pick_up, count(*) OVER ()::int AS total
         FROM information
        WHERE shop_id = $1 AND published_at <= $2
          AND ($3::boolean IS NULL OR is_top_page = $3) AND ($4::boolean IS NULL OR is_pick_up = $4)
          AND ($7::text IS NULL OR tag = $7)
        ORDER BY published_at DESC, information_id DESC
        LIMIT $5 OFFSET $6`,
      [
        shopId,
        now.toISOString(),
        only?.is_top_page === undefined ? null : only.is_top_page === 1,
        only?.is_pick_up === undefined ? null : only.is_pick_up === 1,
        num,
        (page - 1) * num,
        only?.tag ?? null,
      ],
    );
    const total = rows[0]?.total ?? (page > 1 ? await this.countInformation(shopId, now, only) : 0);
    return {
      total_count: total,
      list: rows.map((r) => ({
        id: r.information_id,
        tag: r.tag,
        category: r.category,
        title: r.title,
        body: r.body,
        img_url: r.image_key ? this.imageUrl(r.image_key) : '',
        published_at: new Date(r.published_at).toISOString(),
        is_top_page: r.is_top_page ? 1 : 0,
        is_pick_up: r.is_pick_up ? 1 : 0,
      })),
    };
  }

  private async countInformation(
    shopId: number,
    now: Date,
    only?: { is_top_page?: 0 | 1; is_pick_up?: 0 | 1; tag?: string },
  ): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information WHERE shop_id = $1 AND published_at <= $2
          AND ($3::boolean IS NULL OR is_top_page = $3) AND ($4::boolean IS NULL OR is_pick_up = $4)
          AND ($5::text IS NULL OR tag = $5)`,
      [
        shopId,
        now.toISOString(),
        only?.is_top_page === undefined ? null : only.is_top_page === 1,
        only?.is_pick_up === undefined ? null : only.is_pick_up === 1,
        only?.tag ?? null,
      ],
    );
    return row?.n ?? 0;
  }

  /** Virtual cranes released by now, in display order, with how many of them are new. */
  async virtualCranes(now: Date): Promise<{
    list: {
      virtual_crane_id: number;
      name: string;
      description: string;
      img_url: string;
      play_price: number;
      new: 0 | 1;
    }[];
    newCount: number;
  }> {
    const rows = await this.db.query<{
      virtual_crane_id: number;
      name: string;
      description: string;
      image_key: string;
      play_price: number;
      is_new: boolean;
    }>(
      `SELECT virtual_crane_id, name, description, image_key, play_price,
              released_at > $1::timestamptz - make_interval(days => $2) AS is_new
         FROM virtual_cranes WHERE released_at <= $1 ORDER BY sort, virtual_crane_id`,
      [now.toISOString(), NEW_PRIZE_DAYS],
    );
    const list = rows.map((r) => ({
      virtual_crane_id: r.virtual_crane_id,
      name: r.name,
      description: r.description,
      img_url: this.imageUrl(r.image_key),
      play_price: r.play_price,
      new: r.is_new ? (1 as const) : (0 as const),
    }));
    return { list, newCount: list.filter((v) => v.new === 1).length };
  }
}
