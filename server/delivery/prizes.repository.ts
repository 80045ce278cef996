import type { DeliveryView, WonPrize } from '../../src/contract';
import { PRIZE_STORAGE_DAYS, type DeliveryStatus, type PrizeDeliveryStatus } from '../../src/domain';
import type { SqlExecutor, Store } from '../store/store';
import { AccountRefusal } from '../account/account-errors';
import type { AddressesRepository } from '../account/addresses.repository';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { recordWonPrize } from './won-prizes';

export interface PrizeRow {
  play_history_id: number;
  user_id: number;
  station_id: number | null;
  prize_kind: WonPrize['prize_kind'];
  prize_type: WonPrize['prize_type'];
  product_name: string;
  kuji_name: string | null;
  prize_count: number;
  add_delivery_days: number;
  is_reservation_delivery: boolean;
  won_at: Date | string;
  keep_until: Date | string | null;
  expired_at: Date | string | null;
  storage_notice_days: number | null;
  image_key: string | null;
  station_image_key: string | null;
  digital_url: string | null;
  delivery_status: DeliveryStatus | null;
  delivery_id: number | null;
  prize_contact_number: string | null;
}

/** Won prizes with their (one) delivery request. `FOR UPDATE OF p` may follow the WHERE. */
export const SELECT_PRIZES = `
  SELECT p.play_history_id, p.user_id, p.station_id, p.prize_kind, p.prize_type, p.product_name, p.kuji_name, p.prize_count,
         p.add_delivery_days, p.is_reservation_delivery, p.won_at, p.keep_until, p.expired_at, p.storage_notice_days,
         p.image_key, s.image_key AS station_image_key, p.digital_url, r.delivery_status, r.delivery_id, r.prize_contact_number
    FROM won_prizes p
    LEFT JOIN stations s ON s.station_id = p.station_id
    LEFT JOIN delivery_request_items i ON i.play_history_id = p.play_history_id
    LEFT JOIN delivery_requests r ON r.delivery_id = i.delivery_id`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** A prize's state [R4.5-1]: its request's status, expired, or not requested. */
export const prizeStatusOf = (r: Pick<PrizeRow, 'delivery_status' | 'expired_at'>): PrizeDeliveryStatus =>
  r.delivery_status ?? (r.expired_at ? 'expired' : 'not_requested');

interface DeliveryRow {
  delivery_id: number;
  user_id: number;
  delivery_status: DeliveryStatus;
  requested_at: Date | string;
  fee_tc: number;
  ticket_used: boolean;
  auto_requested: boolean;
  lead_times: string;
  first_name: string;
  last_name: string;
  zip: string;
  address1: string;
  address2: string;
  address3: string;
  tel: string;
  email: string | null;
  prize_contact_number: string | null;
  prize_shipmented_at: Date | string | null;
  cancel_reason: string | null;
}

/**
 * Won prizes (one row per win; its id is the play_history_id) and the player's delivery requests
 * as they read them. Every read is scoped by user_id: another user's id is "not found".
 */
export class PrizesRepository {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly addresses: AddressesRepository,
    private readonly imageUrl: (key: string) => string = () => '',
    private readonly storageDays: number = PRIZE_STORAGE_DAYS,
  ) {}

  toPrize(r: PrizeRow): WonPrize {
    const image = r.image_key ?? r.station_image_key;
    return {
      play_history_id: r.play_history_id,
      station_id: r.station_id,
      prize_kind: r.prize_kind,
      prize_type: r.prize_type,
      product_name: r.product_name,
      kuji_name: r.kuji_name,
      prize_count: r.prize_count,
      add_delivery_days: r.add_delivery_days,
      is_reservation_delivery: r.is_reservation_delivery ? 1 : 0,
      won_at: iso(r.won_at)!,
      delivery_status: prizeStatusOf(r),
      // A digital prize without a picture of its own shows itself.
      img_url: image ? this.imageUrl(image) : (r.digital_url ?? ''),
      digital_url: r.digital_url ?? '',
      keep_until: iso(r.keep_until),
      delivery_id: r.delivery_id,
      prize_contact_number: r.prize_contact_number ?? '',
    };
  }

  /** Records a win (for operator grants and tests; plays and kuji draws record theirs in their own transaction). */
  async recordWin(
    userId: number,
    w: {
      station_id?: number | null;
      prize_kind: WonPrize['prize_kind'];
      prize_type?: WonPrize['prize_type'];
      product_name: string;
      kuji_name?: string | null;
      prize_count?: number;
      add_delivery_days?: number;
      is_reservation_delivery?: boolean;
      digital_url?: string | null;
    },
    q: SqlExecutor = this.db,
  ): Promise<number> {
    return recordWonPrize(
      q,
      {
        userId,
        stationId: w.station_id ?? null,
        prizeKind: w.prize_kind,
        prizeType: w.prize_type ?? 'normal',
        productName: w.product_name,
        kujiName: w.kuji_name ?? null,
        prizeCount: w.prize_count ?? 1,
        addDeliveryDays: w.add_delivery_days ?? 0,
        isReservationDelivery: w.is_reservation_delivery ?? false,
        digitalUrl: w.digital_url ?? null,
      },
      this.storageDays,
      this.clock.now(),
    );
  }

  /** The user's won prizes, newest first (item_info). */
  async list(userId: number): Promise<WonPrize[]> {
    const rows = await this.db.query<PrizeRow>(
      `${SELECT_PRIZES} WHERE p.user_id = $1 ORDER BY p.won_at DESC, p.play_history_id DESC LIMIT ${MAX_ITEM_LIST}`,
      [userId],
    );
    return rows.map((r) => this.toPrize(r));
  }

  /** Some of the user's prizes, locked for a change; 404 when one is not the user's. */
  async lockOwn(q: SqlExecutor, userId: number, ids: readonly number[]): Promise<PrizeRow[]> {
    const unique = [...new Set(ids)];
    const rows = await q.query<PrizeRow>(
      `${SELECT_PRIZES} WHERE p.user_id = $1 AND p.play_history_id = ANY($2::int[]) ORDER BY p.play_history_id FOR UPDATE OF p`,
      [userId, unique],
    );
    if (rows.length !== unique.length) throw new AccountRefusal(404, SERVER_MESSAGES.prizeNotFound);
    return rows;
  }

  /** The user's delivery requests (newest first), or one of them; another user's is never read. */
  async deliveries(
    userId: number | null,
    filter: { deliveryId?: number; status?: DeliveryStatus; limit?: number } = {},
    q: SqlExecutor = this.db,
  ): Promise<(DeliveryView & { user_id: number })[]> {
    const rows = await q.query<DeliveryRow>(
      `SELECT delivery_id, user_id, delivery_status, requested_at, fee_tc, ticket_used, auto_requested, lead_times, first_name, last_name,
              zip, address1, address2, address3, tel, email, prize_contact_number, prize_shipmented_at, cancel_reason
         FROM delivery_requests
        WHERE ($1::int IS NULL OR user_id = $1) AND ($2::int IS NULL OR delivery_id = $2) AND ($3::text IS NULL OR delivery_status = $3)
        ORDER BY delivery_id ${userId === null ? 'ASC' : 'DESC'} LIMIT $4`,
      [userId, filter.deliveryId ?? null, filter.status ?? null, filter.limit ?? MAX_ITEM_LIST],
    );
    if (rows.length === 0) return [];
    const items = await q.query<PrizeRow>(
      `${SELECT_PRIZES} WHERE r.delivery_id = ANY($1::int[]) ORDER BY p.play_history_id`,
      [rows.map((r) => r.delivery_id)],
    );
    return rows.map((r) => ({
      delivery_id: r.delivery_id,
      user_id: r.user_id,
      delivery_status: r.delivery_status,
      requested_at: iso(r.requested_at)!,
      fee_tc: r.fee_tc,
      waived: r.ticket_used ? 1 : 0,
      auto_requested: r.auto_requested ? 1 : 0,
      lead_times: r.lead_times,
      address: {
        first_name: r.first_name,
        last_name: r.last_name,
        zip: r.zip,
        address1: r.address1,
        address2: r.address2,
        address3: r.address3,
        tel: r.tel,
        email: r.email ?? '',
      },
      prize_contact_number: r.prize_contact_number ?? '',
      prize_shipmented_at: iso(r.prize_shipmented_at) ?? '-',
      cancel_reason: r.cancel_reason ?? '',
      prizeData: items
        .filter((i) => i.delivery_id === r.delivery_id)
        .map((i) => ({
          play_history_id: i.play_history_id,
          prize_kind: i.prize_kind,
          prize_type: i.prize_type,
          kuji_name: i.kuji_name ?? '',
          product_name: i.product_name,
          prize_count: i.prize_count,
          add_delivery_days: i.add_delivery_days,
          is_reservation_delivery: i.is_reservation_delivery ? 1 : 0,
        })),
    }));
  }

  /** One of the user's delivery requests; 404 for none or another user's. */
  async delivery(userId: number, deliveryId: number, q: SqlExecutor = this.db): Promise<DeliveryView> {
    const [view] = await this.deliveries(userId, { deliveryId }, q);
    if (!view) throw new AccountRefusal(404, SERVER_MESSAGES.deliveryNotFound);
    const { user_id: _owner, ...mine } = view;
    return mine;
  }

  /** get_delivery_address.data for one of the user's prizes. */
  async deliveryOf(userId: number, playHistoryId: number) {
    const [row] = await this.db.query<PrizeRow>(`${SELECT_PRIZES} WHERE p.user_id = $1 AND p.play_history_id = $2`, [
      userId,
      playHistoryId,
    ]);
    if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.prizeNotFound);
    const prize = this.toPrize(row);
    if (row.delivery_id !== null) {
      const view = await this.delivery(userId, row.delivery_id);
      const { email, ...rest } = view.address;
      return {
        play_history_id: prize.play_history_id,
        delivery_status: prize.delivery_status,
        address: { ...rest, email: email === '' ? null : email },
        prize,
        prize_contact_number: view.prize_contact_number,
        prize_shipmented_at: view.prize_shipmented_at,
      };
    }
    const main = await this.addresses.main(userId);
    return {
      play_history_id: prize.play_history_id,
      delivery_status: prize.delivery_status,
      address: main
        ? {
            first_name: main.first_name,
            last_name: main.last_name,
            zip: main.zip,
            address1: main.address1,
            address2: main.address2,
            address3: main.address3,
            tel: main.tel,
            email: main.email === '' ? null : main.email,
          }
        : null,
      prize,
      prize_contact_number: '',
      prize_shipmented_at: '-',
    };
  }
}

/** Most prizes one item list answers (newest first). */
export const MAX_ITEM_LIST = 500;
