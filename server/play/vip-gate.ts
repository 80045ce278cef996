import { PLAY_ERROR } from '../../src/contract';
import {
  DAY_MS, VIP_PURCHASE_WINDOW_DAYS, VIP_REQUIRED_PURCHASE_TC, VIP_WEEKLY_PRIZE_LIMIT, startOfJstWeek as startOfJstWeekMs,
  type StationType,
} from '../../src/domain';
import type { SqlExecutor } from '../store/store';
import { Refusal } from './refusal';

/** Monday 00:00 Asia/Tokyo of the week that holds `now` [R6-4] (the domain's rule, on Dates). */
export function startOfJstWeek(now: Date): Date {
  return new Date(startOfJstWeekMs(now.getTime()));
}

/**
 * Where the VIP gate reads how much TC a user bought. The wallet owns purchases; this port keeps the
 * gate independent of its tables. Every read takes the executor of the running transaction.
 */
export interface PurchasedTcSource {
  /** TC bought by the user at an instant t with since < t ≤ until. */
  purchasedTc(db: SqlExecutor, userId: number, since: Date, until: Date): Promise<number>;
}

/**
 * Reads purchases from the wallet's ledger (`tc_ledger`, migration 011): the sum of positive paid
 * ('toll') credits with reason 'purchase' in the window.
 */
export class StoreTcLedgerSource implements PurchasedTcSource {
  async purchasedTc(db: SqlExecutor, userId: number, since: Date, until: Date): Promise<number> {
    const [row] = await db.query<{ total: string | number | null }>(
      `SELECT coalesce(sum(delta), 0) AS total FROM tc_ledger
        WHERE user_id = $1 AND kind = 'toll' AND reason = 'purchase' AND delta > 0 AND created_at > $2 AND created_at <= $3`,
      [userId, since.toISOString(), until.toISOString()],
    );
    return Number(row?.total ?? 0);
  }
}

/** The station facts the gate needs. */
export interface GatedStation {
  readonly station_id: number;
  readonly type: StationType;
}

/**
 * The VIP gate of spec §6/§8, checked at visit ('view': 569 only, the popup says 閲覧・プレイ) and at
 * reserve ('play': 569, then 570, then 571). Normal stations always pass. Throws a Refusal.
 */
export class VipGate {
  constructor(private readonly purchases: PurchasedTcSource) {}

  /** Whether the user may watch and play VIP-only stations at all [R6-3]. */
  async qualifies(db: SqlExecutor, userId: number, now: Date): Promise<boolean> {
    const bought = await this.purchases.purchasedTc(db, userId, new Date(now.getTime() - VIP_PURCHASE_WINDOW_DAYS * DAY_MS), now);
    return bought >= VIP_REQUIRED_PURCHASE_TC;
  }

  async check(db: SqlExecutor, userId: number, station: GatedStation, action: 'view' | 'play', now: Date): Promise<void> {
    if (station.type === 'normal') return;
    if (!(await this.qualifies(db, userId, now))) throw new Refusal(200, PLAY_ERROR.vipOnly.code, PLAY_ERROR.vipOnly.info);
    if (action === 'view') return;
    const [wins] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vip_prize_wins WHERE user_id = $1 AND won_at >= $2 AND won_at <= $3',
      [userId, startOfJstWeek(now).toISOString(), now.toISOString()],
    );
    if ((wins?.n ?? 0) >= VIP_WEEKLY_PRIZE_LIMIT) throw new Refusal(200, PLAY_ERROR.vipWeeklyWon.code, PLAY_ERROR.vipWeeklyWon.info);
    if (station.type === 'exclusive') {
      const [other] = await db.query(
        `SELECT 1 FROM station_reservations WHERE station_id = $1 AND user_id <> $2 AND reserve_status IN ('reserve', 'playTransition', 'playWaiting') LIMIT 1`,
        [station.station_id, userId],
      );
      if (other) throw new Refusal(200, PLAY_ERROR.exclusiveInUse.code, PLAY_ERROR.exclusiveInUse.info);
    }
  }
}
