import type { KujiBoxStatus, KujiItem } from '../../src/contract';
import type { SqlExecutor } from '../store/store';

/** Reads the kuji catalogue: kuji on sale, their pictures, boxes and the prizes left in each box. */
export class KujiRepository {
  constructor(
    private readonly db: SqlExecutor,
    private readonly imageUrl: (key: string) => string,
  ) {}

  /** Kuji whose sale period holds `now`, with every box that is not deleted. shopId null: every shop. */
  async onSale(shopId: number | null, now: Date): Promise<KujiItem[]> {
    const kuji = await this.db.query<{
      kuji_id: number;
      kuji_name: string;
      description: string;
      price: number;
      starts_at: Date;
      ends_at: Date;
    }>(
      `SELECT kuji_id, kuji_name, description, price, starts_at, ends_at FROM kuji
        WHERE ($1::int IS NULL OR shop_id = $1) AND kuji_type = 1 AND starts_at <= $2 AND ends_at > $2
        ORDER BY sort, kuji_id`,
      [shopId, now.toISOString()],
    );
    if (kuji.length === 0) return [];
    const ids = kuji.map((k) => k.kuji_id);
    const [images, boxes, prizes] = await Promise.all([
      this.db.query<{ kuji_id: number; image_key: string }>(
        'SELECT kuji_id, image_key FROM kuji_images WHERE kuji_id = ANY($1::int[]) ORDER BY sort, image_key',
        [ids],
      ),
      this.db.query<{ box_id: number; kuji_id: number; box_no: number; box_status: KujiBoxStatus }>(
        `SELECT box_id, kuji_id, box_no, box_status FROM kuji_boxes WHERE kuji_id = ANY($1::int[]) AND box_status <> 'deleted' ORDER BY box_no`,
        [ids],
      ),
      this.db.query<{
        box_id: number;
        rank: string;
        prize_name: string;
        image_key: string;
        quantity: number;
        remaining: number;
        is_last_one: boolean;
      }>(
        `SELECT p.box_id, p.rank, p.prize_name, p.image_key, p.quantity, p.remaining, p.is_last_one FROM kuji_box_prizes p
           JOIN kuji_boxes b ON b.box_id = p.box_id WHERE b.kuji_id = ANY($1::int[]) ORDER BY p.sort, p.rank`,
        [ids],
      ),
    ]);
    return kuji.map((k) => ({
      kuji_id: k.kuji_id,
      kuji_name: k.kuji_name,
      description: k.description,
      price: k.price,
      starts_at: new Date(k.starts_at).toISOString(),
      ends_at: new Date(k.ends_at).toISOString(),
      kuji_img_urls: images.filter((i) => i.kuji_id === k.kuji_id).map((i) => this.imageUrl(i.image_key)),
      boxes: boxes
        .filter((b) => b.kuji_id === k.kuji_id)
        .map((b) => {
          const own = prizes.filter((p) => p.box_id === b.box_id);
          const tickets = own.filter((p) => !p.is_last_one);
          return {
            box_id: b.box_id,
            box_no: b.box_no,
            box_status: b.box_status,
            total_count: tickets.reduce((n, p) => n + p.quantity, 0),
            remaining_count: tickets.reduce((n, p) => n + p.remaining, 0),
            prizes: own.map((p) => ({
              rank: p.rank,
              prize_name: p.prize_name,
              img_url: this.imageUrl(p.image_key),
              quantity: p.quantity,
              remaining: p.remaining,
              last_one: p.is_last_one ? (1 as const) : (0 as const),
            })),
          };
        }),
    }));
  }
}
