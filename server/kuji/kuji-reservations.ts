import type { KujiBoxStatus, KujiPlayInfo, KujiPlayReserveStatus } from '../../src/contract';
import {
  KUJI_QUEUE_STATUSES,
  KUJI_RESERVE_STATUSES,
  kujiRemainingSeconds,
  type KujiTimeLimits,
} from '../../src/domain';
import { sqlList } from '../store/sql-list';
import type { SqlExecutor, Store } from '../store/store';
import type { Clock } from '../clock';

const ACTIVE = sqlList(KUJI_RESERVE_STATUSES);
const HOLDER = sqlList(KUJI_QUEUE_STATUSES);

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
 * The kuji reservations as players read them [R3-8]: their place (reserve_num, ranked over the
 * box's active places so a cancellation ahead moves everyone behind up), their status and the
 * seconds left of a holder's window [R4.4-5]. Places are taken, given up, handed over and ended by
 * the box's room (server/kuji/kuji-kind.ts); this only reads.
 */
export class KujiReservations {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly limits: KujiTimeLimits,
  ) {}

  private async find(db: SqlExecutor, where: string, params: unknown[]): Promise<KujiReservationRow | null> {
    const [row] = await db.query<KujiReservationRow>(
      `SELECT r.kuji_play_reserve_id, r.kuji_id, r.box_id, r.reserve_status, r.reserve_token, r.play_at, b.box_status,
              CASE WHEN r.reserve_status IN ${ACTIVE} THEN
                (SELECT count(*)::int FROM kuji_reservations o
                  WHERE o.box_id = r.box_id AND o.reserve_status IN ${ACTIVE}
                    AND (o.reserve_status IN ${HOLDER}
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
      // The domain's rule with the server's windows, as a polling client sees it; 0 for the untimed statuses.
      reserve_remaintime:
        row.play_at === null
          ? 0
          : (kujiRemainingSeconds({
              status: row.reserve_status,
              playAtMs: new Date(row.play_at).getTime(),
              nowMs: now.getTime(),
              limits: this.limits,
              polling: true,
            }) ?? 0),
      play_at: row.play_at ? new Date(row.play_at).toISOString() : null,
    };
  }

  /** The caller's active kuji reservation, or null [R3-8]. */
  async statusCheck(userId: number): Promise<KujiPlayInfo | null> {
    const row = await this.find(this.db, `r.user_id = $1 AND r.reserve_status IN ${ACTIVE}`, [userId]);
    return row ? this.info(row, this.clock.now()) : null;
  }

  /** The caller's reservation named by token, kuji and box (ended ones too, so the client stops), or null [R3-8]. */
  async byToken(userId: number, token: string, kujiId: number, boxId: number): Promise<KujiPlayInfo | null> {
    const row = await this.find(
      this.db,
      'r.user_id = $1 AND r.reserve_token = $2 AND r.kuji_id = $3 AND r.box_id = $4',
      [userId, token, kujiId, boxId],
    );
    return row ? this.info(row, this.clock.now()) : null;
  }
}
