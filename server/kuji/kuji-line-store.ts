import { KUJI_QUEUE_STATUSES, KUJI_RESERVE_STATUSES } from '../../src/domain';
import { newReserveToken } from '../play/reserve-token';
import { sqlList } from '../store/sql-list';
import type { SqlExecutor } from '../store/store';

/**
 * The only writer of kuji reservation statuses (kuji_reservations.reserve_status): joining a box's
 * line, the holder's steps, cancels, lapses and the end of a box's line all change it here, so what a
 * status may become is read in one file. The statuses' lists are the domain's.
 */

/** A place in a box's line or its holder: ('reserve', 'firstReserved', 'confirm'). */
export const KUJI_ACTIVE_SQL = sqlList(KUJI_RESERVE_STATUSES);
/** The box's holder: ('firstReserved', 'confirm'). */
export const KUJI_HOLDER_SQL = sqlList(KUJI_QUEUE_STATUSES);

export interface KujiHolder {
  readonly kuji_play_reserve_id: number;
  readonly user_id: number;
  readonly kuji_id: number;
  readonly box_id: number;
  readonly reserve_status: 'firstReserved' | 'confirm';
  readonly play_at: Date;
}

/**
 * Serialises the changes to one box's line and stock (on PostgreSQL, transactions run side by side):
 * every transaction that joins, cancels, hands over, lapses or draws takes the box's row first,
 * before any user or wallet row, so two of them never interleave and never deadlock.
 */
export async function lockBox(tx: SqlExecutor, boxId: number): Promise<void> {
  await tx.query('SELECT box_id FROM kuji_boxes WHERE box_id = $1 FOR UPDATE', [boxId]);
}

/** Joins a box's line: its holder at once when nobody holds it, else last in line. Returns the id. */
export async function joinBoxLine(
  tx: SqlExecutor,
  join: { userId: number; kujiId: number; boxId: number; now: Date },
): Promise<number> {
  const [holder] = await tx.query(
    `SELECT 1 FROM kuji_reservations WHERE box_id = $1 AND reserve_status IN ${KUJI_HOLDER_SQL}`,
    [join.boxId],
  );
  const at = join.now.toISOString();
  const [row] = await tx.query<{ kuji_play_reserve_id: number }>(
    `INSERT INTO kuji_reservations (user_id, kuji_id, box_id, reserve_status, reserve_token, queued_at, play_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $6) RETURNING kuji_play_reserve_id`,
    [
      join.userId,
      join.kujiId,
      join.boxId,
      holder ? 'reserve' : 'firstReserved',
      newReserveToken(),
      at,
      holder ? null : at,
    ],
  );
  return row!.kuji_play_reserve_id;
}

/**
 * Makes the first in a box's line its holder (firstReserved from `now`), unless someone holds it:
 * after a holder cancelled or their window lapsed. Returns who became the holder, or null.
 */
export async function promoteNextInLine(
  tx: SqlExecutor,
  boxId: number,
  now: Date,
): Promise<{ user_id: number; kuji_id: number; box_id: number } | null> {
  const [row] = await tx.query<{ user_id: number; kuji_id: number; box_id: number }>(
    `UPDATE kuji_reservations SET reserve_status = 'firstReserved', play_at = $2, updated_at = $2
      WHERE kuji_play_reserve_id = (SELECT kuji_play_reserve_id FROM kuji_reservations
                                     WHERE box_id = $1 AND reserve_status = 'reserve'
                                     ORDER BY queued_at, kuji_play_reserve_id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM kuji_reservations WHERE box_id = $1 AND reserve_status IN ${KUJI_HOLDER_SQL})
    RETURNING user_id, kuji_id, box_id`,
    [boxId, now.toISOString()],
  );
  return row ?? null;
}

/** The player gave up their place (or the box). */
export async function cancelReservation(tx: SqlExecutor, reserveId: number, now: Date): Promise<void> {
  await tx.query(
    `UPDATE kuji_reservations SET reserve_status = 'cancel', ended_at = $2, end_reason = 'user_cancel', updated_at = $2
      WHERE kuji_play_reserve_id = $1`,
    [reserveId, now.toISOString()],
  );
}

/** The holder drew: the confirm window starts again from `now`. */
export async function holderDrew(tx: SqlExecutor, reserveId: number, now: Date): Promise<void> {
  await tx.query(
    `UPDATE kuji_reservations SET reserve_status = 'confirm', play_at = $2, updated_at = $2 WHERE kuji_play_reserve_id = $1`,
    [reserveId, now.toISOString()],
  );
}

/**
 * The holder's window lapsed: the reservation ends ('timeout'), only if it is still the same step
 * (a draw that restarted the window first wins). True when it ended.
 */
export async function lapseHolder(tx: SqlExecutor, holder: KujiHolder, now: Date): Promise<boolean> {
  const ended = await tx.query(
    `UPDATE kuji_reservations SET reserve_status = 'end', end_reason = 'timeout', ended_at = $2, updated_at = $2
      WHERE kuji_play_reserve_id = $1 AND reserve_status = $3 AND play_at = $4 RETURNING kuji_play_reserve_id`,
    [holder.kuji_play_reserve_id, now.toISOString(), holder.reserve_status, new Date(holder.play_at).toISOString()],
  );
  return ended.length > 0;
}

/**
 * Ends every active reservation of a box that ended: reason box_ended, or drawn for the drawer whose
 * draw sold it out. Returns how many ended.
 */
export async function endBoxLine(
  tx: SqlExecutor,
  boxId: number,
  now: Date,
  drawerReservation: number | null,
): Promise<number> {
  const ended = await tx.query(
    `UPDATE kuji_reservations SET reserve_status = 'end', ended_at = $2, updated_at = $2,
            end_reason = CASE WHEN kuji_play_reserve_id = $3 THEN 'drawn' ELSE 'box_ended' END
      WHERE box_id = $1 AND reserve_status IN ${KUJI_ACTIVE_SQL} RETURNING kuji_play_reserve_id`,
    [boxId, now.toISOString(), drawerReservation],
  );
  return ended.length;
}

/** The box's holder now, or null. */
export async function boxHolder(db: SqlExecutor, boxId: number): Promise<KujiHolder | null> {
  const [row] = await db.query<KujiHolder>(
    `SELECT kuji_play_reserve_id, user_id, kuji_id, box_id, reserve_status, play_at FROM kuji_reservations
      WHERE box_id = $1 AND reserve_status IN ${KUJI_HOLDER_SQL} AND play_at IS NOT NULL
      ORDER BY kuji_play_reserve_id LIMIT 1`,
    [boxId],
  );
  return row ?? null;
}

/** Every box someone holds or waits for (a restart checks each). */
export async function boxesInLine(db: SqlExecutor): Promise<number[]> {
  const rows = await db.query<{ box_id: number }>(
    `SELECT DISTINCT box_id FROM kuji_reservations WHERE reserve_status IN ${KUJI_ACTIVE_SQL} ORDER BY box_id`,
  );
  return rows.map((r) => r.box_id);
}
