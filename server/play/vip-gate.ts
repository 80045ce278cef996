import { PLAY_ERROR } from '../../src/contract';
import {
  DAY_MS,
  isVipOnlyStation,
  purchasedTcInWindow,
  qualifiesForVipStations,
  startOfJstWeek,
  VIP_EXCLUSIVE_IN_USE_ERROR_CODE,
  VIP_ONLY_ERROR_CODE,
  VIP_PURCHASE_WINDOW_DAYS,
  VIP_WEEKLY_LIMIT_ERROR_CODE,
  vipGate,
  type StationType,
  type TcPurchase,
} from '../../src/domain';
import { RESERVING_SQL } from './reservation-sql';
import type { SqlExecutor } from '../store/store';
import { Refusal } from './refusal';

/**
 * Where the VIP gate reads what a user bought. The wallet owns purchases; this port keeps the gate
 * independent of its tables. Every read takes the executor of the running transaction.
 */
export interface PurchasedTcSource {
  /** The user's paid-TC purchases at instants t with since < t ≤ until. */
  purchases(db: SqlExecutor, userId: number, since: Date, until: Date): Promise<TcPurchase[]>;
}

/**
 * Reads purchases from the wallet's ledger (`tc_ledger`, migration 011): the positive paid ('toll')
 * credits with reason 'purchase'.
 */
export class StoreTcLedgerSource implements PurchasedTcSource {
  async purchases(db: SqlExecutor, userId: number, since: Date, until: Date): Promise<TcPurchase[]> {
    const rows = await db.query<{ delta: number; created_at: Date | string }>(
      `SELECT delta, created_at FROM tc_ledger
        WHERE user_id = $1 AND kind = 'toll' AND reason = 'purchase' AND delta > 0 AND created_at > $2 AND created_at <= $3`,
      [userId, since.toISOString(), until.toISOString()],
    );
    return rows.map((r) => ({ toll_tc: Number(r.delta), purchasedAtMs: new Date(r.created_at).getTime() }));
  }

  /** TC bought in the window (the domain's sum over `purchases`). */
  async purchasedTc(db: SqlExecutor, userId: number, since: Date, until: Date): Promise<number> {
    return purchasedTcInWindow(
      await this.purchases(db, userId, since, until),
      until.getTime(),
      (until.getTime() - since.getTime()) / DAY_MS,
    );
  }
}

/** The station facts the gate needs. */
export interface GatedStation {
  readonly station_id: number;
  readonly type: StationType;
}

const REFUSALS = {
  [VIP_ONLY_ERROR_CODE]: PLAY_ERROR.vipOnly,
  [VIP_WEEKLY_LIMIT_ERROR_CODE]: PLAY_ERROR.vipWeeklyWon,
  [VIP_EXCLUSIVE_IN_USE_ERROR_CODE]: PLAY_ERROR.exclusiveInUse,
} as const;

/**
 * The VIP gate of spec §6/§8 on the server: it loads the facts (purchases in the window, VIP wins
 * this JST week, who holds an exclusive station) and asks the domain's `vipGate`, which decides
 * 569, 570 or 571 — the same rule the client knows. Checked at visit ('view': 569 only) and at
 * reserve ('play': 569, then 570, then 571). Throws a Refusal.
 */
export class VipGate {
  constructor(private readonly source: PurchasedTcSource) {}

  private purchasesFor(db: SqlExecutor, userId: number, now: Date): Promise<TcPurchase[]> {
    return this.source.purchases(db, userId, new Date(now.getTime() - VIP_PURCHASE_WINDOW_DAYS * DAY_MS), now);
  }

  /** Whether the user may watch and play VIP-only stations at all [R6-3]. */
  async qualifies(db: SqlExecutor, userId: number, now: Date): Promise<boolean> {
    return qualifiesForVipStations(await this.purchasesFor(db, userId, now), now.getTime());
  }

  async check(
    db: SqlExecutor,
    userId: number,
    station: GatedStation,
    action: 'view' | 'play',
    now: Date,
  ): Promise<void> {
    if (!isVipOnlyStation(station)) return;
    const purchases = await this.purchasesFor(db, userId, now);
    let vipWinsAtMs: number[] = [];
    let occupiedByUserId: number | null = null;
    if (action === 'play') {
      const wins = await db.query<{ won_at: Date | string }>(
        'SELECT won_at FROM vip_prize_wins WHERE user_id = $1 AND won_at >= $2 AND won_at <= $3',
        [userId, new Date(startOfJstWeek(now.getTime())).toISOString(), now.toISOString()],
      );
      vipWinsAtMs = wins.map((w) => new Date(w.won_at).getTime());
      const [holder] = await db.query<{ user_id: number }>(
        `SELECT user_id FROM station_reservations WHERE station_id = $1 AND user_id <> $2 AND reserve_status IN ${RESERVING_SQL} LIMIT 1`,
        [station.station_id, userId],
      );
      occupiedByUserId = holder?.user_id ?? null;
    }
    const code = vipGate({ station, action, userId, purchases, vipWinsAtMs, occupiedByUserId, nowMs: now.getTime() });
    if (code !== 200) throw new Refusal(200, REFUSALS[code].code, REFUSALS[code].info);
  }
}
