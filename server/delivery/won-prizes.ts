import type { PrizeType, WonPrize } from '../../src/domain';
import type { UnreadKind } from '../../src/contract';
import type { SqlExecutor } from '../store/store';

/** A win to record: a crane play, a kuji draw, or an operator's grant. */
export interface WinToRecord {
  readonly userId: number;
  readonly stationId?: number | null;
  readonly prizeKind: WonPrize['prize_kind'];
  readonly prizeType?: PrizeType;
  readonly productName: string;
  readonly kujiName?: string | null;
  readonly prizeCount?: number;
  readonly addDeliveryDays?: number;
  readonly isReservationDelivery?: boolean;
  readonly imageKey?: string | null;
  readonly digitalUrl?: string | null;
}

/** The unread flag a new prize sets (spec §3 unread flags): by type first, then by kind. */
export function unreadKindOfWin(kind: WonPrize['prize_kind'], type: PrizeType): UnreadKind {
  if (type === 'digital') return 'digital';
  if (type === 'direct') return 'direct';
  if (kind === 'kuji') return 'kuji';
  if (kind === 'order_made') return 'order_made_prize';
  return 'prize';
}

/**
 * Records a win in the caller's transaction: the prize with its storage deadline (`storageDays`
 * after now; none for a digital prize, which never ships) [R10-5], and the unread flag of its kind.
 * The one insert of won_prizes: plays, kuji draws and operator grants all come through here.
 */
export async function recordWonPrize(
  tx: SqlExecutor,
  win: WinToRecord,
  storageDays: number,
  now: Date,
): Promise<number> {
  const type = win.prizeType ?? 'normal';
  const [row] = await tx.query<{ play_history_id: number }>(
    `INSERT INTO won_prizes (user_id, station_id, prize_kind, prize_type, product_name, kuji_name, prize_count, add_delivery_days,
                             is_reservation_delivery, image_key, digital_url, won_at, keep_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz,
             CASE WHEN $4 = 'digital' THEN NULL ELSE $12::timestamptz + make_interval(days => $13) END)
     RETURNING play_history_id`,
    [
      win.userId,
      win.stationId ?? null,
      win.prizeKind,
      type,
      win.productName,
      win.kujiName ?? null,
      win.prizeCount ?? 1,
      win.addDeliveryDays ?? 0,
      win.isReservationDelivery ?? false,
      win.imageKey ?? null,
      win.digitalUrl ?? null,
      now.toISOString(),
      storageDays,
    ],
  );
  await tx.query('INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    win.userId,
    unreadKindOfWin(win.prizeKind, type),
    now.toISOString(),
  ]);
  return row!.play_history_id;
}
