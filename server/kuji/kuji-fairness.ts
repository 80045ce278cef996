import {
  KUJI_FAIRNESS_VERSION,
  type KujiBoxStatus,
  type KujiFairnessRecord,
  type KujiRankStock,
} from '../../src/domain';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { SqlExecutor } from '../store/store';

/**
 * What anyone may know of a box's fairness (docs/kuji.md): the commitment and the draws; the seed
 * once its room published it (the box ended, or its kuji's sale did). 404 in Japanese for a box
 * that has not opened, or has nothing to show.
 */
export async function kujiFairness(db: SqlExecutor, boxId: number): Promise<KujiFairnessRecord> {
  const [row] = await db.query<{
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
  if (!row) {
    const [box] = await db.query<{ box_status: KujiBoxStatus }>('SELECT box_status FROM kuji_boxes WHERE box_id = $1', [
      boxId,
    ]);
    throw new Refusal(
      404,
      404,
      box?.box_status === 'ready' || !box ? SERVER_MESSAGES.kujiNotOpened : SERVER_MESSAGES.kujiNoRecord,
    );
  }
  const draws = await db.query<{ position: number; rank: string }>(
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
}
