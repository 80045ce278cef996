import { playCharge, RESERVING_STATUSES, type DesignatedType, type StationType } from '../../src/domain';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor } from '../store/store';
import type { DailyFreePlays } from '../wallet/daily-free-plays';
import { InsufficientFundsError, type Ledger } from '../wallet/ledger';
import { Refusal } from './refusal';
import type { VipGate } from './vip-gate';

/**
 * The player's side of taking a place in a station's line [R3-5]: the VIP gate (569, 570, 571)
 * [R6-3, R6-4, R6-5], enough TC (or a ticket) for one play, so nobody waits in line for nothing
 * (402), and one place at a time (409). The station's side (maintenance, a prize change, sold out)
 * is the station room's. Runs inside the transaction that inserts the place.
 */
export class ReserveGate {
  constructor(
    private readonly vip: VipGate,
    private readonly ledger: Ledger,
    private readonly dailyFree: DailyFreePlays,
  ) {}

  async check(tx: SqlExecutor, userId: number, stationId: number, now: Date): Promise<void> {
    const [station] = await tx.query<{
      station_type: StationType;
      designated_type: DesignatedType;
      play_price: number;
    }>('SELECT station_type, designated_type, play_price FROM stations WHERE station_id = $1', [stationId]);
    if (!station) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    await this.vip.check(tx, userId, { station_id: stationId, type: station.station_type }, 'play', now);
    const { currency, price } = playCharge(station.designated_type, station.play_price);
    if (currency === 'tc') {
      const { tc_all } = await this.ledger.balance(userId, tx);
      if (tc_all < price) throw new InsufficientFundsError(price, tc_all);
    } else if (currency === 'ticket') {
      // The day's free play counts as one ticket [R11-8].
      const tickets = (await this.ledger.tickets(userId, tx)) + ((await this.dailyFree.available(tx, userId)) ? 1 : 0);
      if (tickets < price) throw new InsufficientFundsError(price, tickets, SERVER_MESSAGES.ticketItemName);
    }
    const [held] = await tx.query(
      'SELECT 1 FROM station_reservations WHERE user_id = $1 AND reserve_status = ANY($2::text[])',
      [userId, [...RESERVING_STATUSES]],
    );
    if (held) throw new Refusal(409, 409, SERVER_MESSAGES.reservedElsewhere);
  }
}
