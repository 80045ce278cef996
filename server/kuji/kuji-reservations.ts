import type { KujiBoxStatus, KujiPlayInfo, KujiPlayReserveStatus } from '../../src/contract';
import {
  KUJI_TIME_LIMITS,
  kujiRemainingSeconds as domainKujiRemainingSeconds,
  type KujiTimeLimits,
} from '../../src/domain';
import { isUniqueViolation, Refusal } from '../play/refusal';
import type { SqlExecutor, Store } from '../store/store';
import type { Clock } from '../clock';
import { DOMAIN_MESSAGES } from '../../src/domain';
import { SERVER_MESSAGES } from '../messages';
import {
  cancelReservation,
  joinBoxLine,
  KUJI_ACTIVE_SQL,
  KUJI_HOLDER_SQL,
  lockBox,
  promoteNextInLine,
} from './kuji-line-store';

const ACTIVE = KUJI_ACTIVE_SQL;
const NOT_FOUND = DOMAIN_MESSAGES.kujiReserveNotFound;

interface KujiReservationRow {
  kuji_play_reserve_id: number;
  kuji_id: number;
  box_id: number;
  reserve_status: KujiPlayReserveStatus;
  reserve_token: string;
  play_at: Date | null;
  box_status: KujiBoxStatus;
  reserve_num: number;
}

/**
 * Seconds left of a timed kuji status [R4.4-5]: the domain's rule with the server's maximums, as
 * a polling client sees it; 0 for the untimed statuses (waiting in line, ended).
 */
export function kujiRemainingSeconds(
  status: KujiPlayReserveStatus,
  playAt: Date | null,
  now: Date,
  limits: KujiTimeLimits = KUJI_TIME_LIMITS,
): number {
  if (playAt === null) return 0;
  const seconds = domainKujiRemainingSeconds({
    status,
    playAtMs: new Date(playAt).getTime(),
    nowMs: now.getTime(),
    limits,
    polling: true,
  });
  return seconds ?? 0;
}

/**
 * Kuji reservations over the store. One player holds a box at a time (firstReserved, then confirm
 * while drawing); the others wait in line (reserve). Joining an idle box makes the caller the
 * holder at once; when the holder cancels, the next in line becomes the holder. Expiry of a
 * holder's window and the draw itself belong to the kuji play loop (a later issue).
 */
export class KujiReservations {
  /** After a line changed: who became the box's holder, if anyone (the kuji line pushes and re-arms). */
  onLineChanged: (kujiId: number, boxId: number, newHolder: number | null) => void = () => undefined;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly limits: KujiTimeLimits = KUJI_TIME_LIMITS,
  ) {}

  private async find(db: SqlExecutor, where: string, params: unknown[]): Promise<KujiReservationRow | null> {
    const [row] = await db.query<KujiReservationRow>(
      `SELECT r.kuji_play_reserve_id, r.kuji_id, r.box_id, r.reserve_status, r.reserve_token, r.play_at, b.box_status,
              CASE WHEN r.reserve_status IN ${ACTIVE} THEN
                (SELECT count(*)::int FROM kuji_reservations o
                  WHERE o.box_id = r.box_id AND o.reserve_status IN ${ACTIVE}
                    AND (o.reserve_status IN ${KUJI_HOLDER_SQL}
                         OR (o.reserve_status = 'reserve' AND r.reserve_status = 'reserve'
                             AND (o.queued_at, o.kuji_play_reserve_id) <= (r.queued_at, r.kuji_play_reserve_id))))
              ELSE 0 END AS reserve_num
         FROM kuji_reservations r JOIN kuji_boxes b ON b.box_id = r.box_id
        WHERE ${where}`,
      params,
    );
    return row ?? null;
  }

  private info(row: KujiReservationRow, now: Date): KujiPlayInfo {
    return {
      reserve_polling_id: row.kuji_play_reserve_id,
      kuji_play_reserve_id: row.kuji_play_reserve_id,
      reserve_token: row.reserve_token,
      reserve_num: row.reserve_num,
      reserve_status: row.reserve_status,
      kuji_id: row.kuji_id,
      box_id: row.box_id,
      box_status: row.box_status,
      reserve_remaintime: kujiRemainingSeconds(row.reserve_status, row.play_at, now, this.limits),
      play_at: row.play_at ? new Date(row.play_at).toISOString() : null,
    };
  }

  /** The caller's active kuji reservation, or null [R3-8]. */
  /**
   * Sets a box's status (the operator). The reservations stay as they are: each client learns the
   * box ended from its next poll (box_status) or at once from the box channel's play_end=1 [R7-11,
   * R4.4-2]. 404 for an unknown box.
   */
  async setBoxStatus(
    boxId: number,
    status: KujiBoxStatus,
  ): Promise<{ kuji_id: number; box_id: number; box_status: KujiBoxStatus }> {
    const [row] = await this.db.query<{ kuji_id: number; box_id: number; box_status: KujiBoxStatus }>(
      'UPDATE kuji_boxes SET box_status = $2 WHERE box_id = $1 RETURNING kuji_id, box_id, box_status',
      [boxId, status],
    );
    if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.kujiNotFound);
    return row;
  }

  async statusCheck(userId: number): Promise<KujiPlayInfo | null> {
    const row = await this.find(this.db, `r.user_id = $1 AND r.reserve_status IN ${ACTIVE}`, [userId]);
    return row ? this.info(row, this.clock.now()) : null;
  }

  /** Joins a box's line. 404 unknown kuji/box; 409 box not on sale, sold out, or a kuji already held. */
  async reserve(userId: number, kujiId: number, boxId: number): Promise<KujiPlayInfo> {
    const now = this.clock.now();
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        await lockBox(tx, boxId);
        const [box] = await tx.query<{ box_status: KujiBoxStatus; on_sale_now: boolean; remaining: number }>(
          `SELECT b.box_status, (k.starts_at <= $3 AND k.ends_at > $3) AS on_sale_now,
                  (SELECT coalesce(sum(remaining), 0)::int FROM kuji_box_prizes p WHERE p.box_id = b.box_id AND NOT p.is_last_one) AS remaining
             FROM kuji_boxes b JOIN kuji k ON k.kuji_id = b.kuji_id
            WHERE b.box_id = $1 AND b.kuji_id = $2 AND b.box_status <> 'deleted'`,
          [boxId, kujiId, now.toISOString()],
        );
        if (!box) throw new Refusal(404, 404, SERVER_MESSAGES.kujiNotFound);
        if (!box.on_sale_now) throw new Refusal(409, 409, SERVER_MESSAGES.kujiOutOfPeriod);
        if (box.box_status !== 'onSale') throw new Refusal(409, 409, SERVER_MESSAGES.kujiBoxNotOnSale);
        if (box.remaining <= 0) throw new Refusal(409, 409, SERVER_MESSAGES.kujiBoxEmpty);
        const [held] = await tx.query(
          `SELECT 1 FROM kuji_reservations WHERE user_id = $1 AND reserve_status IN ${ACTIVE}`,
          [userId],
        );
        if (held) throw new Refusal(409, 409, SERVER_MESSAGES.kujiAlreadyReserved);
        return joinBoxLine(tx, { userId, kujiId, boxId, now });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal(409, 409, SERVER_MESSAGES.kujiAlreadyReserved);
      throw error;
    }
    const row = await this.find(this.db, 'r.kuji_play_reserve_id = $1', [id]);
    this.onLineChanged(kujiId, boxId, null);
    return this.info(row!, now);
  }

  /** The caller's reservation named by token, kuji and box (ended ones too, so the client stops) [R3-8]. */
  async polling(userId: number, token: string, kujiId: number, boxId: number): Promise<KujiPlayInfo> {
    const row = await this.find(
      this.db,
      'r.user_id = $1 AND r.reserve_token = $2 AND r.kuji_id = $3 AND r.box_id = $4',
      [userId, token, kujiId, boxId],
    );
    if (!row) throw new Refusal(404, 404, NOT_FOUND);
    return this.info(row, this.clock.now());
  }

  /** Gives up the caller's place; when the caller held the box, the next in line becomes the holder. */
  async cancel(userId: number, token: string, kujiId: number, boxId: number): Promise<KujiPlayInfo> {
    const now = this.clock.now();
    const newHolder = await this.db.transaction(async (tx): Promise<number | null> => {
      await lockBox(tx, boxId);
      const [row] = await tx.query<{ kuji_play_reserve_id: number; reserve_status: KujiPlayReserveStatus }>(
        'SELECT kuji_play_reserve_id, reserve_status FROM kuji_reservations WHERE user_id = $1 AND reserve_token = $2 AND kuji_id = $3 AND box_id = $4',
        [userId, token, kujiId, boxId],
      );
      if (!row) throw new Refusal(404, 404, NOT_FOUND);
      if (row.reserve_status === 'cancel' || row.reserve_status === 'end')
        throw new Refusal(409, 409, SERVER_MESSAGES.kujiReservationEnded);
      await cancelReservation(tx, row.kuji_play_reserve_id, now);
      if (row.reserve_status === 'reserve') return null;
      const next = await promoteNextInLine(tx, boxId, now);
      return next?.user_id ?? null;
    });
    const row = await this.find(this.db, 'r.user_id = $1 AND r.reserve_token = $2', [userId, token]);
    this.onLineChanged(kujiId, boxId, newHolder);
    return this.info(row!, now);
  }
}
