import type { KujiBoxStatus, KujiDrawnPrize, KujiDrawResult } from '../../src/domain';
import type { SqlExecutor } from '../store/store';
import type { Ledger } from '../wallet/ledger';

/** A draw as stored. */
export interface DrawRow {
  draw_id: number;
  user_id: number;
  kuji_id: number;
  box_id: number;
  price_total: number;
  last_one: boolean;
}

/**
 * A draw's answer (docs/kuji.md): its tickets in the box's order with their prizes, the last-one
 * prize when it took the last ticket, the price, the drawer's balance after, the box as it is now.
 */
export async function drawAnswer(
  tx: SqlExecutor,
  ledger: Ledger,
  imageUrl: (key: string) => string,
  draw: DrawRow,
  replayed: boolean,
): Promise<KujiDrawResult> {
  const prizes = await tx.query<{ rank: string; prize_name: string; image_key: string; is_last_one: boolean }>(
    'SELECT rank, prize_name, image_key, is_last_one FROM kuji_box_prizes WHERE box_id = $1',
    [draw.box_id],
  );
  const prizeOf = (rank: string, position: number | null): KujiDrawnPrize => {
    const p = prizes.find((x) => x.rank === rank);
    return { position, rank, prize_name: p?.prize_name ?? rank, img_url: p ? imageUrl(p.image_key) : '' };
  };
  const tickets = await tx.query<{ position: number; rank: string }>(
    'SELECT position, rank FROM kuji_box_tickets WHERE draw_id = $1 ORDER BY position',
    [draw.draw_id],
  );
  const special = prizes.find((p) => p.is_last_one);
  const [box] = await tx.query<{ box_status: KujiBoxStatus; n: number }>(
    `SELECT b.box_status, (SELECT count(*)::int FROM kuji_box_tickets t WHERE t.box_id = b.box_id AND t.draw_id IS NULL) AS n
       FROM kuji_boxes b WHERE b.box_id = $1`,
    [draw.box_id],
  );
  return {
    draw_id: draw.draw_id,
    kuji_id: draw.kuji_id,
    box_id: draw.box_id,
    tickets: tickets.map((t) => prizeOf(t.rank, t.position)),
    last_one: draw.last_one && special ? prizeOf(special.rank, null) : null,
    price_total: draw.price_total,
    tc: await ledger.balance(draw.user_id, tx),
    remaining_count: box?.n ?? 0,
    box_status: box?.box_status ?? 'onSale',
    replayed: replayed ? 1 : 0,
  };
}
