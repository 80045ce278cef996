import { randomBytes } from 'node:crypto';
import {
  boxTickets,
  deriveTicketOrder,
  fairnessCommitment,
  KUJI_RESERVE_STATUSES,
  type KujiBoxEffect,
  type KujiBoxSnapshot,
  type KujiBoxStatus,
  type KujiBoxWrite,
  type KujiDrawRequest,
  type KujiDrawResult,
  type KujiJoined,
  type KujiRankStock,
  type KujiTimeLimits,
} from '../../src/domain';
import { recordWonPrize } from '../delivery/won-prizes';
import { SERVER_MESSAGES } from '../messages';
import { isUniqueViolation, Refusal } from '../play/refusal';
import { newReserveToken } from '../play/reserve-token';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger } from '../wallet/ledger';
import { drawAnswer, type DrawRow } from './kuji-draw-answer';

const ACTIVE = [...KUJI_RESERVE_STATUSES];
const iso = (at: number): string => new Date(at).toISOString();

interface PrizeRow {
  rank: string;
  prize_name: string;
  image_key: string;
  remaining: number;
  is_last_one: boolean;
}

/** Where a kuji box's room keeps what must outlive the process; every method is one transaction. */
export interface KujiBoxStore {
  loadBoxes(boxIds?: readonly number[]): Promise<KujiBoxSnapshot[]>;
  commit(boxId: number, writes: readonly KujiBoxWrite[]): Promise<void>;
  addToLine(boxId: number, join: Extract<KujiBoxEffect, { type: 'addToLine' }>): Promise<KujiJoined>;
  findDraw(request: KujiDrawRequest): Promise<KujiDrawResult | null>;
  draw(boxId: number, draw: Extract<KujiBoxEffect, { type: 'draw' }>): Promise<KujiDrawResult>;
  setStock(boxId: number, prizes: readonly { rank: string; quantity: number }[]): Promise<number>;
}

/**
 * Where a kuji box's room keeps what must outlive the process (docs/kuji.md): the box's status, its
 * ticket order and fairness record, its line, its draws with their charges and prizes. Every method
 * is one transaction; this is the only writer of kuji reservation statuses and box statuses, and
 * every decision it carries out was made by the box's pure `kujiTransition`.
 */
export class SqlKujiBoxStore implements KujiBoxStore {
  constructor(
    private readonly db: Store,
    private readonly ledger: Ledger,
    private readonly imageUrl: (key: string) => string,
    private readonly limits: KujiTimeLimits,
    private readonly prizeStorageDays: number,
  ) {}

  /** The boxes as stored: every one, or only those named. */
  async loadBoxes(boxIds?: readonly number[]): Promise<KujiBoxSnapshot[]> {
    const only = boxIds ? [...boxIds] : null;
    const boxes = await this.db.query<{
      box_id: number;
      kuji_id: number;
      box_status: KujiBoxStatus;
      price: number;
      starts_at: Date;
      ends_at: Date;
      remaining: number;
      opened: boolean;
      revealed: boolean;
    }>(
      `SELECT b.box_id, b.kuji_id, b.box_status, k.price, k.starts_at, k.ends_at,
              (SELECT coalesce(sum(p.remaining), 0)::int FROM kuji_box_prizes p WHERE p.box_id = b.box_id AND NOT p.is_last_one) AS remaining,
              f.box_id IS NOT NULL AS opened, f.revealed_at IS NOT NULL AS revealed
         FROM kuji_boxes b JOIN kuji k ON k.kuji_id = b.kuji_id LEFT JOIN kuji_box_fairness f ON f.box_id = b.box_id
        WHERE $1::int[] IS NULL OR b.box_id = ANY($1::int[]) ORDER BY b.box_id`,
      [only],
    );
    const places = await this.db.query<{
      kuji_play_reserve_id: number;
      user_id: number;
      box_id: number;
      reserve_token: string;
      reserve_status: 'reserve' | 'firstReserved' | 'confirm';
      play_at: Date | null;
    }>(
      `SELECT kuji_play_reserve_id, user_id, box_id, reserve_token, reserve_status, play_at FROM kuji_reservations
        WHERE reserve_status = ANY($2::text[]) AND ($1::int[] IS NULL OR box_id = ANY($1::int[]))
        ORDER BY box_id, queued_at, kuji_play_reserve_id`,
      [only, ACTIVE],
    );
    return boxes.map((b) => ({
      box: {
        boxId: b.box_id,
        kujiId: b.kuji_id,
        status: b.box_status,
        price: b.price,
        saleStartsAt: new Date(b.starts_at).getTime(),
        saleEndsAt: new Date(b.ends_at).getTime(),
        remaining: b.remaining,
        opened: b.opened,
        revealed: b.revealed,
      },
      places: places
        .filter((p) => p.box_id === b.box_id)
        .map((p) => ({
          reserveId: p.kuji_play_reserve_id,
          userId: p.user_id,
          token: p.reserve_token,
          status: p.reserve_status,
          playAt: p.play_at === null ? null : new Date(p.play_at).getTime(),
        })),
      limits: this.limits,
    }));
  }

  /** The writes of one step, in order, in one transaction. */
  commit(boxId: number, writes: readonly KujiBoxWrite[]): Promise<void> {
    return this.db.transaction((tx) => this.write(tx, boxId, writes));
  }

  /**
   * A new place in the box's line (its holder at once when `asHolder`). Refused (409) when the
   * player holds a place in another box's line: one kuji place per player.
   */
  async addToLine(boxId: number, join: Extract<KujiBoxEffect, { type: 'addToLine' }>): Promise<KujiJoined> {
    try {
      return await this.db.transaction(async (tx) => {
        const [held] = await tx.query(
          'SELECT 1 FROM kuji_reservations WHERE user_id = $1 AND reserve_status = ANY($2::text[])',
          [join.userId, ACTIVE],
        );
        if (held) throw new Refusal(409, 409, SERVER_MESSAGES.kujiAlreadyReserved);
        const token = newReserveToken();
        const at = iso(join.at);
        const [row] = await tx.query<{ kuji_play_reserve_id: number }>(
          `INSERT INTO kuji_reservations (user_id, kuji_id, box_id, reserve_status, reserve_token, queued_at, play_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $6) RETURNING kuji_play_reserve_id`,
          [
            join.userId,
            join.kujiId,
            boxId,
            join.asHolder ? 'firstReserved' : 'reserve',
            token,
            at,
            join.asHolder ? at : null,
          ],
        );
        return {
          reserveId: row!.kuji_play_reserve_id,
          userId: join.userId,
          token,
          asHolder: join.asHolder,
          at: join.at,
        };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal(409, 409, SERVER_MESSAGES.kujiAlreadyReserved);
      throw error;
    }
  }

  /**
   * The draw the player already made with this request id, answered again (replayed), or null. A
   * read (a draw never changes once made): no transaction, nothing for the store to commit.
   */
  async findDraw(request: KujiDrawRequest): Promise<KujiDrawResult | null> {
    const [previous] = await this.db.query<DrawRow>(
      'SELECT draw_id, user_id, kuji_id, box_id, price_total, last_one FROM kuji_draws WHERE user_id = $1 AND request_id = $2',
      [request.userId, request.requestId],
    );
    return previous ? drawAnswer(this.db, this.ledger, this.imageUrl, previous, true) : null;
  }

  /**
   * The draw, in one transaction: the draw row, the TC charge through the ledger (free TC first; too
   * little refuses the whole draw), the next `count` undrawn tickets of the box's order, the stock of
   * each rank, the player's prizes, the last-one prize with the last ticket, then the step's writes.
   */
  async draw(boxId: number, draw: Extract<KujiBoxEffect, { type: 'draw' }>): Promise<KujiDrawResult> {
    const now = new Date(draw.at);
    return this.db.transaction(async (tx) => {
      // A box on sale opens with its first step; one that had not yet opens with its first draw.
      if (draw.writes.some((w) => w.kind === 'open')) await this.open(tx, boxId, now);
      const { request } = draw;
      const [row] = await tx.query<DrawRow>(
        `INSERT INTO kuji_draws (user_id, kuji_id, box_id, kuji_play_reserve_id, ticket_count, price_total, request_id, last_one, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING draw_id, user_id, kuji_id, box_id, price_total, last_one`,
        [
          request.userId,
          request.kujiId,
          boxId,
          draw.reserveId,
          draw.count,
          draw.priceTotal,
          request.requestId,
          draw.lastOne,
          now.toISOString(),
        ],
      );
      const drawId = row!.draw_id;
      if (draw.priceTotal > 0)
        await this.ledger.debit(
          request.userId,
          {
            amount: draw.priceTotal,
            reason: 'kuji',
            reference: `kuji_draw:${drawId}`,
            idempotencyKey: `kuji_draw:${drawId}`,
          },
          tx,
        );
      const taken = await tx.query<{ position: number; rank: string }>(
        `UPDATE kuji_box_tickets SET draw_id = $3
          WHERE box_id = $1 AND draw_id IS NULL
            AND position IN (SELECT position FROM kuji_box_tickets WHERE box_id = $1 AND draw_id IS NULL ORDER BY position LIMIT $2)
          RETURNING position, rank`,
        [boxId, draw.count, drawId],
      );
      // The room drew from what it knew was left: anything else is a store out of step, never a half draw.
      if (taken.length !== draw.count)
        throw new Error(`kuji box ${boxId}: ${taken.length} of ${draw.count} tickets were left`);
      const byRank = new Map<string, number>();
      for (const t of taken) byRank.set(t.rank, (byRank.get(t.rank) ?? 0) + 1);
      for (const [rank, n] of byRank)
        await tx.query('UPDATE kuji_box_prizes SET remaining = remaining - $3 WHERE box_id = $1 AND rank = $2', [
          boxId,
          rank,
          n,
        ]);
      const prizes = await tx.query<PrizeRow>(
        'SELECT rank, prize_name, image_key, remaining, is_last_one FROM kuji_box_prizes WHERE box_id = $1',
        [boxId],
      );
      const [kuji] = await tx.query<{ kuji_name: string }>('SELECT kuji_name FROM kuji WHERE kuji_id = $1', [
        request.kujiId,
      ]);
      const kujiName = kuji?.kuji_name ?? '';
      for (const [rank, n] of byRank) {
        const prize = prizes.find((p) => p.rank === rank);
        await this.recordWin(tx, request.userId, prize?.prize_name ?? rank, prize?.image_key ?? null, kujiName, n, now);
      }
      if (draw.lastOne) {
        const special = prizes.find((p) => p.is_last_one && p.remaining > 0);
        if (special) {
          await tx.query('UPDATE kuji_box_prizes SET remaining = 0 WHERE box_id = $1 AND rank = $2', [
            boxId,
            special.rank,
          ]);
          await this.recordWin(tx, request.userId, special.prize_name, special.image_key, kujiName, 1, now);
        }
      }
      await this.write(
        tx,
        boxId,
        draw.writes.filter((w) => w.kind !== 'open'),
      );
      return drawAnswer(tx, this.ledger, this.imageUrl, row!, false);
    });
  }

  /**
   * Sets a box's stock rank by rank (before it opens): quantity and remaining both become the number;
   * 404 for a rank the box does not have. Answers the tickets the box then holds.
   */
  async setStock(boxId: number, prizes: readonly { rank: string; quantity: number }[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      for (const p of prizes) {
        const done = await tx.query(
          'UPDATE kuji_box_prizes SET quantity = $3, remaining = $3 WHERE box_id = $1 AND rank = $2 RETURNING rank',
          [boxId, p.rank, p.quantity],
        );
        if (done.length === 0) throw new Refusal(404, 404, SERVER_MESSAGES.kujiRankUnknown);
      }
      const [left] = await tx.query<{ n: number }>(
        'SELECT coalesce(sum(remaining), 0)::int AS n FROM kuji_box_prizes WHERE box_id = $1 AND NOT is_last_one',
        [boxId],
      );
      return left?.n ?? 0;
    });
  }

  private async write(tx: SqlExecutor, boxId: number, writes: readonly KujiBoxWrite[]): Promise<void> {
    for (const w of writes) {
      switch (w.kind) {
        case 'open':
          await this.open(tx, boxId, new Date(w.at));
          break;
        case 'status':
          await tx.query('UPDATE kuji_boxes SET box_status = $2 WHERE box_id = $1', [boxId, w.status]);
          break;
        case 'reveal':
          await tx.query('UPDATE kuji_box_fairness SET revealed_at = $2 WHERE box_id = $1 AND revealed_at IS NULL', [
            boxId,
            iso(w.at),
          ]);
          break;
        case 'endPlaces':
          await tx.query(
            `UPDATE kuji_reservations SET reserve_status = $2, ended_at = $4, updated_at = $4,
                    end_reason = CASE WHEN kuji_play_reserve_id = $5 THEN 'drawn' ELSE $3 END
              WHERE kuji_play_reserve_id = ANY($1::int[]) AND reserve_status = ANY($6::text[])`,
            [[...w.reserveIds], w.status, w.reason, iso(w.at), w.drawer, ACTIVE],
          );
          break;
        case 'holder':
          await tx.query(
            `UPDATE kuji_reservations SET reserve_status = $2, play_at = $3, updated_at = $3 WHERE kuji_play_reserve_id = $1`,
            [w.reserveId, w.status, iso(w.at)],
          );
          break;
      }
    }
  }

  /**
   * Fixes the order of a box's tickets from a fresh secret seed, once: the tickets left now, rank by
   * rank in the box's order; only the commitment is published (docs/kuji.md).
   */
  private async open(tx: SqlExecutor, boxId: number, now: Date): Promise<void> {
    const [opened] = await tx.query('SELECT 1 FROM kuji_box_fairness WHERE box_id = $1', [boxId]);
    if (opened) return;
    const prizes = await tx.query<{ rank: string; remaining: number; is_last_one: boolean }>(
      'SELECT rank, remaining, is_last_one FROM kuji_box_prizes WHERE box_id = $1 ORDER BY sort, rank',
      [boxId],
    );
    const stock: KujiRankStock[] = prizes
      .filter((p) => !p.is_last_one)
      .map((p) => ({ rank: p.rank, quantity: p.remaining }));
    const seed = randomBytes(32).toString('hex');
    const order = deriveTicketOrder(seed, boxTickets(stock));
    await tx.query(
      'INSERT INTO kuji_box_fairness (box_id, seed, commitment, stock, opened_at) VALUES ($1, $2, $3, $4, $5)',
      [boxId, seed, fairnessCommitment(boxId, seed, order), JSON.stringify(stock), now.toISOString()],
    );
    if (order.length > 0)
      await tx.query(
        `INSERT INTO kuji_box_tickets (box_id, position, rank)
         SELECT $1, t.ord - 1, t.rank FROM unnest($2::text[]) WITH ORDINALITY AS t(rank, ord)`,
        [boxId, order],
      );
  }

  private recordWin(
    tx: SqlExecutor,
    userId: number,
    productName: string,
    imageKey: string | null,
    kujiName: string,
    count: number,
    now: Date,
  ): Promise<number> {
    return recordWonPrize(
      tx,
      { userId, prizeKind: 'kuji', productName, imageKey, kujiName, prizeCount: count },
      this.prizeStorageDays,
      now,
    );
  }
}
