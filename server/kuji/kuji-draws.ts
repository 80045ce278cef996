import { recordWonPrize } from '../delivery/won-prizes';
import { randomBytes } from 'node:crypto';
import type { KujiBoxStatus, KujiDraw, KujiDrawnPrize, KujiFairness } from '../../src/contract';
import {
  boxTickets,
  deriveTicketOrder,
  DOMAIN_MESSAGES,
  fairnessCommitment,
  KUJI_FAIRNESS_VERSION,
  KUJI_TIME_LIMITS,
  PRIZE_STORAGE_DAYS,
  kujiWindowEndsAtMs,
  type KujiRankStock,
  type KujiTimeLimits,
} from '../../src/domain';
import { MAX_LEDGER_AMOUNT } from '../wallet/ledger';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import { endBoxLine, holderDrew, lockBox } from './kuji-line-store';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger } from '../wallet/ledger';

interface PrizeRow {
  rank: string;
  prize_name: string;
  image_key: string;
  quantity: number;
  remaining: number;
  is_last_one: boolean;
}

interface DrawRow {
  draw_id: number;
  kuji_id: number;
  box_id: number;
  price_total: number;
  last_one: boolean;
}

/**
 * The kuji draw and its provable fairness (docs/kuji.md). When a box opens (a box on sale with no
 * order yet), a secret seed fixes the order of its tickets and only the commitment is published.
 * A draw, made by the box's holder, takes the next tickets in that order, in one transaction with
 * the TC charge, the stock and the player's prizes; the last ticket also gives the last-one prize and
 * sells the box out. When a box ends, its seed is published so anyone can check every draw.
 */
export class KujiDraws {
  /** Called after a draw sold a box out (the real-time hub pushes play_end on its channel). */
  onBoxEnded: (kujiId: number, boxId: number) => void = () => undefined;
  /** Called after every draw (the holder's window moved: the kuji line re-arms its timer). */
  onDrawn: (boxId: number) => void = () => undefined;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly imageUrl: (key: string) => string,
    private readonly limits: KujiTimeLimits = KUJI_TIME_LIMITS,
    private readonly prizeStorageDays: number = PRIZE_STORAGE_DAYS,
  ) {}

  /**
   * Refuses to put a box back on sale once its seed is published: the seed gives away the order of
   * every ticket still in it (409). Called by the operator's status change before it writes.
   */
  async assertCanOpen(boxId: number): Promise<void> {
    const [row] = await this.db.query<{ revealed_at: Date | null }>(
      'SELECT revealed_at FROM kuji_box_fairness WHERE box_id = $1',
      [boxId],
    );
    if (row?.revealed_at) throw new Refusal(409, 409, SERVER_MESSAGES.kujiSeedPublished);
  }

  /** Opens every box on sale that has no order yet (at start, and after the seed). */
  async openAllOnSale(): Promise<number> {
    const boxes = await this.db.query<{ box_id: number }>(
      `SELECT b.box_id FROM kuji_boxes b LEFT JOIN kuji_box_fairness f ON f.box_id = b.box_id
        WHERE b.box_status = 'onSale' AND f.box_id IS NULL ORDER BY b.box_id`,
    );
    for (const b of boxes) await this.db.transaction((tx) => this.ensureOpen(tx, b.box_id));
    return boxes.length;
  }

  /**
   * Fixes the order of a box's tickets from a fresh secret seed, once: the tickets left now, rank by
   * rank in the box's order. Only boxes on sale open. Returns whether the box has an order.
   */
  async ensureOpen(tx: SqlExecutor, boxId: number): Promise<boolean> {
    // Instances opening the same box at start, or a draw and the operator's stock: one at a time.
    await lockBox(tx, boxId);
    const [opened] = await tx.query('SELECT 1 FROM kuji_box_fairness WHERE box_id = $1', [boxId]);
    if (opened) return true;
    const [box] = await tx.query<{ box_status: KujiBoxStatus }>('SELECT box_status FROM kuji_boxes WHERE box_id = $1', [
      boxId,
    ]);
    if (box?.box_status !== 'onSale') return false;
    const prizes = await tx.query<PrizeRow>(
      'SELECT rank, prize_name, image_key, quantity, remaining, is_last_one FROM kuji_box_prizes WHERE box_id = $1 ORDER BY sort, rank',
      [boxId],
    );
    const stock: KujiRankStock[] = prizes
      .filter((p) => !p.is_last_one)
      .map((p) => ({ rank: p.rank, quantity: p.remaining }));
    const seed = randomBytes(32).toString('hex');
    const order = deriveTicketOrder(seed, boxTickets(stock));
    await tx.query(
      'INSERT INTO kuji_box_fairness (box_id, seed, commitment, stock, opened_at) VALUES ($1, $2, $3, $4, $5)',
      [boxId, seed, fairnessCommitment(boxId, seed, order), JSON.stringify(stock), this.clock.now().toISOString()],
    );
    if (order.length > 0) {
      await tx.query(
        `INSERT INTO kuji_box_tickets (box_id, position, rank)
         SELECT $1, t.ord - 1, t.rank FROM unnest($2::text[]) WITH ORDINALITY AS t(rank, ord)`,
        [boxId, order],
      );
    }
    return true;
  }

  /**
   * Sets a box's stock (the operator), rank by rank, before it opens: 409 once its order is fixed,
   * 404 for an unknown box or a rank it does not have. Quantity and remaining both become the number.
   */
  async setStock(
    boxId: number,
    prizes: readonly { rank: string; quantity: number }[],
  ): Promise<{ box_id: number; prizes: { rank: string; quantity: number; remaining: number }[] }> {
    return this.db.transaction(async (tx) => {
      const [box] = await tx.query<{ box_id: number }>('SELECT box_id FROM kuji_boxes WHERE box_id = $1 FOR UPDATE', [
        boxId,
      ]);
      if (!box) throw new Refusal(404, 404, SERVER_MESSAGES.kujiNotFound);
      const [opened] = await tx.query('SELECT 1 FROM kuji_box_fairness WHERE box_id = $1', [boxId]);
      if (opened) throw new Refusal(409, 409, SERVER_MESSAGES.kujiStockFixed);
      for (const p of prizes) {
        const done = await tx.query(
          'UPDATE kuji_box_prizes SET quantity = $3, remaining = $3 WHERE box_id = $1 AND rank = $2 RETURNING rank',
          [boxId, p.rank, p.quantity],
        );
        if (done.length === 0) throw new Refusal(404, 404, SERVER_MESSAGES.kujiRankUnknown);
      }
      return {
        box_id: boxId,
        prizes: await tx.query<{ rank: string; quantity: number; remaining: number }>(
          'SELECT rank, quantity, remaining FROM kuji_box_prizes WHERE box_id = $1 ORDER BY sort, rank',
          [boxId],
        ),
      };
    });
  }

  /**
   * Ends every active reservation of a box that ended: reason box_ended, or drawn for the drawer
   * whose draw sold it out.
   */
  endLine(tx: SqlExecutor, boxId: number, drawerReservation: number | null = null): Promise<number> {
    return endBoxLine(tx, boxId, this.clock.now(), drawerReservation);
  }

  /** Publishes a box's seed (idempotent); a box that never opened has nothing to publish. */
  async reveal(tx: SqlExecutor, boxId: number): Promise<void> {
    await tx.query('UPDATE kuji_box_fairness SET revealed_at = $2 WHERE box_id = $1 AND revealed_at IS NULL', [
      boxId,
      this.clock.now().toISOString(),
    ]);
  }

  /**
   * The holder of the box draws `count` tickets (or all left). Refusals, all in Japanese and before
   * anything changes: 404 no such reservation; 409 not the holder, box not on sale, fewer tickets left
   * than asked; 402 not enough TC. The same request id answers the first draw again (replayed 1).
   */
  async draw(
    userId: number,
    req: { reserve_token: string; kuji_id: number; box_id: number; count: 1 | 3 | 5 | 10 | 'all'; request_id: string },
  ): Promise<KujiDraw> {
    const now = this.clock.now();
    let ended = false;
    let windowLapsed = false;
    const result = await this.db
      .transaction(async (tx): Promise<KujiDraw> => {
        // One box's draws and line changes one at a time: the box first, before the request id is
        // looked up, the window checked, the tickets counted and the next ones taken.
        await lockBox(tx, req.box_id);
        const [previous] = await tx.query<DrawRow>(
          'SELECT draw_id, kuji_id, box_id, price_total, last_one FROM kuji_draws WHERE user_id = $1 AND request_id = $2',
          [userId, req.request_id],
        );
        if (previous) return this.answer(tx, userId, previous, true);

        const [reservation] = await tx.query<{
          kuji_play_reserve_id: number;
          reserve_status: string;
          play_at: Date | null;
        }>(
          `SELECT kuji_play_reserve_id, reserve_status, play_at FROM kuji_reservations
          WHERE user_id = $1 AND reserve_token = $2 AND kuji_id = $3 AND box_id = $4`,
          [userId, req.reserve_token, req.kuji_id, req.box_id],
        );
        if (!reservation) throw new Refusal(404, 404, DOMAIN_MESSAGES.kujiReserveNotFound);
        if (reservation.reserve_status !== 'firstReserved' && reservation.reserve_status !== 'confirm') {
          throw new Refusal(
            409,
            409,
            reservation.reserve_status === 'reserve'
              ? SERVER_MESSAGES.kujiNotYourTurn
              : SERVER_MESSAGES.kujiReservationEnded,
          );
        }
        // The window is the server's: a draw that arrives after it lapsed is refused even if the line's
        // timer has not run yet (the timer then ends the reservation and hands the box over).
        const endsAt = reservation.play_at
          ? kujiWindowEndsAtMs(reservation.reserve_status, new Date(reservation.play_at).getTime(), this.limits)
          : null;
        if (endsAt !== null && endsAt <= now.getTime()) {
          windowLapsed = true;
          throw new Refusal(409, 409, SERVER_MESSAGES.kujiReservationEnded);
        }
        const [box] = await tx.query<{
          box_status: KujiBoxStatus;
          price: number;
          kuji_name: string;
          on_sale_now: boolean;
        }>(
          `SELECT b.box_status, k.price, k.kuji_name, (k.starts_at <= $2 AND k.ends_at > $2) AS on_sale_now
           FROM kuji_boxes b JOIN kuji k ON k.kuji_id = b.kuji_id WHERE b.box_id = $1`,
          [req.box_id, now.toISOString()],
        );
        if (!box || box.box_status !== 'onSale') throw new Refusal(409, 409, SERVER_MESSAGES.kujiBoxNotOnSale);
        if (!box.on_sale_now) throw new Refusal(409, 409, SERVER_MESSAGES.kujiOutOfPeriod);
        await this.ensureOpen(tx, req.box_id);
        const [left] = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM kuji_box_tickets WHERE box_id = $1 AND draw_id IS NULL',
          [req.box_id],
        );
        const remaining = left?.n ?? 0;
        const count = req.count === 'all' ? remaining : req.count;
        if (remaining === 0) throw new Refusal(409, 409, SERVER_MESSAGES.kujiBoxEmpty);
        if (count > remaining) throw new Refusal(409, 409, SERVER_MESSAGES.kujiNotEnoughTickets(remaining));

        const price = count * box.price;
        if (price > MAX_LEDGER_AMOUNT) throw new Refusal(409, 409, SERVER_MESSAGES.kujiDrawTooLarge);
        const lastOne = count === remaining;
        const [draw] = await tx.query<DrawRow>(
          `INSERT INTO kuji_draws (user_id, kuji_id, box_id, kuji_play_reserve_id, ticket_count, price_total, request_id, last_one, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING draw_id, kuji_id, box_id, price_total, last_one`,
          [
            userId,
            req.kuji_id,
            req.box_id,
            reservation.kuji_play_reserve_id,
            count,
            price,
            req.request_id,
            lastOne,
            now.toISOString(),
          ],
        );
        // The charge first: not enough TC refuses the whole draw (the transaction rolls back).
        if (price > 0)
          await this.ledger.debit(
            userId,
            {
              amount: price,
              reason: 'kuji',
              reference: `kuji_draw:${draw!.draw_id}`,
              idempotencyKey: `kuji_draw:${draw!.draw_id}`,
            },
            tx,
          );

        const taken = await tx.query<{ position: number; rank: string }>(
          `UPDATE kuji_box_tickets SET draw_id = $3
          WHERE box_id = $1 AND position IN (SELECT position FROM kuji_box_tickets WHERE box_id = $1 AND draw_id IS NULL ORDER BY position LIMIT $2)
          RETURNING position, rank`,
          [req.box_id, count, draw!.draw_id],
        );
        const byRank = new Map<string, number>();
        for (const t of taken) byRank.set(t.rank, (byRank.get(t.rank) ?? 0) + 1);
        for (const [rank, n] of byRank) {
          await tx.query('UPDATE kuji_box_prizes SET remaining = remaining - $3 WHERE box_id = $1 AND rank = $2', [
            req.box_id,
            rank,
            n,
          ]);
        }
        const prizes = await tx.query<PrizeRow>(
          'SELECT rank, prize_name, image_key, quantity, remaining, is_last_one FROM kuji_box_prizes WHERE box_id = $1',
          [req.box_id],
        );
        for (const [rank, n] of byRank) {
          const prize = prizes.find((p) => p.rank === rank);
          await this.recordWin(tx, userId, prize?.prize_name ?? rank, prize?.image_key ?? null, box.kuji_name, n, now);
        }

        if (lastOne) {
          const special = prizes.find((p) => p.is_last_one && p.remaining > 0);
          if (special) {
            await tx.query('UPDATE kuji_box_prizes SET remaining = 0 WHERE box_id = $1 AND rank = $2', [
              req.box_id,
              special.rank,
            ]);
            await this.recordWin(tx, userId, special.prize_name, special.image_key, box.kuji_name, 1, now);
          }
          // Sold out: the box ends, its seed is published, its line is over.
          await tx.query(`UPDATE kuji_boxes SET box_status = 'outOfStock' WHERE box_id = $1`, [req.box_id]);
          await this.reveal(tx, req.box_id);
          await this.endLine(tx, req.box_id, reservation.kuji_play_reserve_id);
          ended = true;
        } else {
          // Still the holder, now drawing: the confirm window starts again with each draw.
          await holderDrew(tx, reservation.kuji_play_reserve_id, now);
        }
        return this.answer(tx, userId, draw!, false);
      })
      .catch((error: unknown) => {
        // A lapsed window found here: the line ends it and hands the box over now.
        if (windowLapsed) this.onDrawn(req.box_id);
        throw error;
      });
    if (ended) this.onBoxEnded(req.kuji_id, req.box_id);
    if (result.replayed === 0) this.onDrawn(req.box_id);
    return result;
  }

  /** What anyone may know of a box's fairness: the commitment and the draws; the seed once it ended. */
  async fairness(boxId: number): Promise<KujiFairness> {
    const answer = await this.db.transaction(async (tx) => {
      await this.ensureOpen(tx, boxId);
      // A kuji whose sale period is over has ended too: its boxes' seeds are published.
      await tx.query(
        `UPDATE kuji_box_fairness f SET revealed_at = $2 FROM kuji_boxes b JOIN kuji k ON k.kuji_id = b.kuji_id
          WHERE f.box_id = $1 AND b.box_id = f.box_id AND f.revealed_at IS NULL AND k.ends_at <= $2`,
        [boxId, this.clock.now().toISOString()],
      );
      const [row] = await tx.query<{
        kuji_id: number;
        box_status: KujiBoxStatus;
        seed: string;
        commitment: string;
        stock: string;
        opened_at: Date;
        revealed_at: Date | null;
      }>(
        `SELECT b.kuji_id, b.box_status, f.seed, f.commitment, f.stock, f.opened_at, f.revealed_at
           FROM kuji_box_fairness f JOIN kuji_boxes b ON b.box_id = f.box_id WHERE f.box_id = $1`,
        [boxId],
      );
      if (!row) return null;
      const draws = await tx.query<{ position: number; rank: string }>(
        'SELECT position, rank FROM kuji_box_tickets WHERE box_id = $1 AND draw_id IS NOT NULL ORDER BY position',
        [boxId],
      );
      return {
        version: KUJI_FAIRNESS_VERSION,
        kuji_id: row.kuji_id,
        box_id: boxId,
        box_status: row.box_status,
        commitment: row.commitment,
        opened_at: new Date(row.opened_at).toISOString(),
        stock: JSON.parse(row.stock) as KujiRankStock[],
        seed: row.revealed_at ? row.seed : null,
        revealed_at: row.revealed_at ? new Date(row.revealed_at).toISOString() : null,
        draws,
      };
    });
    if (!answer) {
      const [box] = await this.db.query<{ box_status: KujiBoxStatus }>(
        'SELECT box_status FROM kuji_boxes WHERE box_id = $1',
        [boxId],
      );
      throw new Refusal(
        404,
        404,
        box?.box_status === 'ready' || !box ? SERVER_MESSAGES.kujiNotOpened : SERVER_MESSAGES.kujiNoRecord,
      );
    }
    return answer;
  }

  private async recordWin(
    tx: SqlExecutor,
    userId: number,
    productName: string,
    imageKey: string | null,
    kujiName: string,
    count: number,
    now: Date,
  ): Promise<void> {
    await recordWonPrize(
      tx,
      { userId, prizeKind: 'kuji', productName, imageKey, kujiName, prizeCount: count },
      this.prizeStorageDays,
      now,
    );
  }

  private async answer(tx: SqlExecutor, userId: number, draw: DrawRow, replayed: boolean): Promise<KujiDraw> {
    const prizes = await tx.query<PrizeRow>(
      'SELECT rank, prize_name, image_key, quantity, remaining, is_last_one FROM kuji_box_prizes WHERE box_id = $1',
      [draw.box_id],
    );
    const prizeOf = (rank: string, position: number | null): KujiDrawnPrize => {
      const p = prizes.find((x) => x.rank === rank);
      return { position, rank, prize_name: p?.prize_name ?? rank, img_url: p ? this.imageUrl(p.image_key) : '' };
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
      tc: await this.ledger.balance(userId, tx),
      remaining_count: box?.n ?? 0,
      box_status: box?.box_status ?? 'onSale',
      replayed: replayed ? 1 : 0,
    };
  }
}
