import type { PrizeDeliveryStatus as DeliveryStatus, WonPrize } from '../../src/contract';
import type { Store } from '../store/store';
import { AccountRefusal } from './account-errors';
import type { AddressesRepository } from './addresses.repository';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';

interface PrizeRow {
  play_history_id: number;
  station_id: number | null;
  prize_kind: WonPrize['prize_kind'];
  product_name: string;
  kuji_name: string | null;
  prize_count: number;
  add_delivery_days: number;
  is_reservation_delivery: boolean;
  won_at: Date;
  delivery_status: DeliveryStatus | null;
  delivery_id: number | null;
}

const SELECT_PRIZES = `
  SELECT p.play_history_id, p.station_id, p.prize_kind, p.product_name, p.kuji_name, p.prize_count, p.add_delivery_days,
         p.is_reservation_delivery, p.won_at, d.delivery_status, d.delivery_id
    FROM won_prizes p
    LEFT JOIN LATERAL (
      SELECT r.delivery_id, r.delivery_status FROM delivery_request_items i JOIN delivery_requests r ON r.delivery_id = i.delivery_id
       WHERE i.play_history_id = p.play_history_id ORDER BY r.delivery_id DESC LIMIT 1
    ) d ON true`;

const toPrize = (r: PrizeRow): WonPrize => ({
  play_history_id: r.play_history_id,
  station_id: r.station_id,
  prize_kind: r.prize_kind,
  product_name: r.product_name,
  kuji_name: r.kuji_name,
  prize_count: r.prize_count,
  add_delivery_days: r.add_delivery_days,
  is_reservation_delivery: r.is_reservation_delivery ? 1 : 0,
  won_at: new Date(r.won_at).toISOString(),
  delivery_status: r.delivery_status ?? 'not_requested',
});

/** Most prizes one item list answers (newest first). */
export const MAX_ITEM_LIST = 500;

/**
 * Won prizes (one row per win; its id is the play_history_id) and their delivery requests. Every
 * read is scoped by user_id: another user's play_history_id is "not found".
 */
export class PrizesRepository {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly addresses: AddressesRepository,
  ) {}

  /** Records a win (for the play and kuji modules, and tests). */
  async recordWin(
    userId: number,
    w: {
      station_id?: number | null;
      prize_kind: WonPrize['prize_kind'];
      product_name: string;
      kuji_name?: string | null;
      prize_count?: number;
    },
  ): Promise<number> {
    const [row] = await this.db.query<{ play_history_id: number }>(
      `INSERT INTO won_prizes (user_id, station_id, prize_kind, product_name, kuji_name, prize_count, won_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING play_history_id`,
      [
        userId,
        w.station_id ?? null,
        w.prize_kind,
        w.product_name,
        w.kuji_name ?? null,
        w.prize_count ?? 1,
        this.clock.now().toISOString(),
      ],
    );
    return row!.play_history_id;
  }

  /** The user's won prizes, newest first (item_info). */
  async list(userId: number): Promise<WonPrize[]> {
    const rows = await this.db.query<PrizeRow>(
      `${SELECT_PRIZES} WHERE p.user_id = $1 ORDER BY p.won_at DESC, p.play_history_id DESC LIMIT ${MAX_ITEM_LIST}`,
      [userId],
    );
    return rows.map(toPrize);
  }

  /**
   * Requests delivery of some of the user's prizes to one of the user's addresses; the address is
   * copied onto the request. Refuses prizes that are not the user's or already requested.
   */
  async requestDelivery(userId: number, playHistoryIds: readonly number[], addressId: number): Promise<number> {
    return this.db.transaction(async (q) => {
      const [address] = await q.query<Record<string, string | null>>(
        'SELECT * FROM addresses WHERE user_id = $1 AND id = $2',
        [userId, addressId],
      );
      if (!address) throw new AccountRefusal(404, SERVER_MESSAGES.addressNotFound);
      const rows = await q.query<PrizeRow>(
        `${SELECT_PRIZES} WHERE p.user_id = $1 AND p.play_history_id = ANY($2::int[]) FOR UPDATE OF p`,
        [userId, [...playHistoryIds]],
      );
      if (rows.length !== new Set(playHistoryIds).size) throw new AccountRefusal(404, SERVER_MESSAGES.prizeNotFound);
      if (rows.some((r) => r.delivery_status && !['cancelled', 'returned'].includes(r.delivery_status)))
        throw new AccountRefusal(409, SERVER_MESSAGES.prizeAlreadyRequested);
      const [req] = await q.query<{ delivery_id: number }>(
        `INSERT INTO delivery_requests (user_id, delivery_status, first_name, last_name, zip, address1, address2, address3, tel, email, requested_at)
         VALUES ($1, 'requested', $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING delivery_id`,
        [
          userId,
          address.first_name,
          address.last_name,
          address.zip,
          address.address1,
          address.address2,
          address.address3,
          address.tel,
          address.email,
          this.clock.now().toISOString(),
        ],
      );
      for (const id of new Set(playHistoryIds))
        await q.query('INSERT INTO delivery_request_items (delivery_id, play_history_id) VALUES ($1, $2)', [
          req!.delivery_id,
          id,
        ]);
      return req!.delivery_id;
    });
  }

  /** get_delivery_address.data for one of the user's prizes. */
  async deliveryOf(userId: number, playHistoryId: number) {
    const [row] = await this.db.query<PrizeRow>(`${SELECT_PRIZES} WHERE p.user_id = $1 AND p.play_history_id = $2`, [
      userId,
      playHistoryId,
    ]);
    if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.prizeNotFound);
    const prize = toPrize(row);
    let address = null;
    let contact = '';
    let shipped = '-';
    if (row.delivery_id !== null) {
      const [d] = await this.db.query<{
        first_name: string;
        last_name: string;
        zip: string;
        address1: string;
        address2: string;
        address3: string;
        tel: string;
        email: string | null;
        prize_contact_number: string | null;
        prize_shipmented_at: Date | null;
      }>(
        'SELECT first_name, last_name, zip, address1, address2, address3, tel, email, prize_contact_number, prize_shipmented_at FROM delivery_requests WHERE delivery_id = $1 AND user_id = $2',
        [row.delivery_id, userId],
      );
      if (d) {
        const { prize_contact_number, prize_shipmented_at, ...rest } = d;
        address = rest;
        contact = prize_contact_number ?? '';
        shipped = prize_shipmented_at ? new Date(prize_shipmented_at).toISOString() : '-';
      }
    } else {
      const main = await this.addresses.main(userId);
      if (main)
        address = {
          first_name: main.first_name,
          last_name: main.last_name,
          zip: main.zip,
          address1: main.address1,
          address2: main.address2,
          address3: main.address3,
          tel: main.tel,
          email: main.email,
        };
    }
    return {
      play_history_id: prize.play_history_id,
      delivery_status: prize.delivery_status,
      address,
      prize,
      prize_contact_number: contact,
      prize_shipmented_at: shipped,
    };
  }
}
