import type { DeliveryQuote, DeliveryView, PushMessage } from '../../src/contract';
import {
  chargeOfPrizes,
  isAddressPresent,
  isDeliverable,
  type AddressRecord,
  type DeliveryStatus,
} from '../../src/domain';
import { AccountRefusal } from '../account/account-errors';
import type { AddressesRepository } from '../account/addresses.repository';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor, Store } from '../store/store';
import { lockUser } from '../store/user-lock';
import type { Ledger, TcBalance } from '../wallet/ledger';
import type { DeliveryTickets } from './delivery-tickets';
import { prizeStatusOf, type PrizeRow, type PrizesRepository } from './prizes.repository';

/** Where the delivery module tells a player something at once (the real-time user channel). */
export interface DeliveryEvents {
  push(userId: number, push: PushMessage): void;
}

/** Statuses a request can still be changed or cancelled in (not yet handed to the carrier). */
const OPEN: readonly DeliveryStatus[] = ['requested', 'preparing'];

const feeKey = (deliveryId: number) => `delivery:${deliveryId}`;
const refundKey = (deliveryId: number) => `delivery-refund:${deliveryId}`;

/**
 * Delivery requests (docs/delivery.md). A request is one transaction under the player's row lock:
 * the prizes are locked and checked, the fee is computed by the domain's rule [R9-1, R5-3], the
 * request and its items are written, the ticket is used and the fee is taken from the ledger — all
 * or nothing, so the fee is charged exactly when the prizes move [R10-4]. The client's request_id
 * makes a resend answer the first request; a unique index keeps a prize in one request at most.
 */
export class DeliveryService {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly prizes: PrizesRepository,
    private readonly addresses: AddressesRepository,
    private readonly tickets: DeliveryTickets,
    private readonly events: () => DeliveryEvents | null,
    /** Told each delivery request's fee once it is charged (the metrics). */
    private readonly onFee: (feeTc: number) => void = () => undefined,
  ) {}

  /** What shipping these prizes costs now [R9-1, R5-3]; refuses prizes that cannot ship. */
  async quote(userId: number, ids: readonly number[]): Promise<DeliveryQuote> {
    return this.db.transaction(async (q) => {
      await lockPlayer(q, userId);
      const rows = await this.prizes.lockOwn(q, userId, ids);
      checkDeliverable(rows);
      const ticket = await this.tickets.held(q, userId, this.clock.now());
      const charge = chargeOfPrizes(rows, ticket !== null);
      const { tc_all } = await this.ledger.balance(userId, q);
      return {
        base_fee_tc: charge.baseFeeTc,
        fee_tc: charge.feeTc,
        waived: charge.waived ? 1 : 0,
        ticket_held: ticket ? 1 : 0,
        tc_all,
        enough: tc_all >= charge.feeTc ? 1 : 0,
      };
    });
  }

  /** Requests delivery; too little TC is 402 and nothing changes [R10-4]. */
  async request(
    userId: number,
    r: { request_id: string; play_history_ids: readonly number[]; address_id: number; lead_times: string },
  ): Promise<{ delivery: DeliveryView; tc_info: TcBalance; replayed: 0 | 1 }> {
    const done = await this.db.transaction(async (q) => {
      await lockPlayer(q, userId);
      const [again] = await q.query<{ delivery_id: number; ids: number[] }>(
        `SELECT r.delivery_id, array_agg(i.play_history_id ORDER BY i.play_history_id) AS ids
           FROM delivery_requests r JOIN delivery_request_items i ON i.delivery_id = r.delivery_id
          WHERE r.user_id = $1 AND r.request_key = $2 GROUP BY r.delivery_id`,
        [userId, r.request_id],
      );
      if (again) {
        const asked = [...new Set(r.play_history_ids)].sort((a, b) => a - b);
        if (asked.join() !== again.ids.join()) throw new AccountRefusal(409, SERVER_MESSAGES.deliveryRequestIdReused);
        return {
          delivery: await this.prizes.delivery(userId, again.delivery_id, q),
          tc_info: await this.ledger.balance(userId, q),
          replayed: 1 as const,
        };
      }
      const [address] = await q.query<AddressRecord>('SELECT * FROM addresses WHERE user_id = $1 AND id = $2', [
        userId,
        r.address_id,
      ]);
      if (!address) throw new AccountRefusal(404, SERVER_MESSAGES.addressNotFound);
      const rows = await this.prizes.lockOwn(q, userId, r.play_history_ids);
      checkDeliverable(rows);
      const deliveryId = await this.createRequest(q, userId, rows, address, {
        requestKey: r.request_id,
        leadTimes: r.lead_times,
        auto: false,
      });
      return {
        delivery: await this.prizes.delivery(userId, deliveryId, q),
        tc_info: await this.ledger.balance(userId, q),
        replayed: 0 as const,
      };
    });
    if (done.replayed === 0) this.onFee(done.delivery.fee_tc);
    return done;
  }

  /**
   * Writes a request for locked, deliverable prizes and charges it (the ticket first, then TC).
   * Throws InsufficientFundsError (402) when the balance does not cover the fee: the caller's
   * transaction then writes nothing. Also used by the storage deadline's automatic request.
   */
  async createRequest(
    q: SqlExecutor,
    userId: number,
    rows: readonly PrizeRow[],
    address: AddressRecord | Omit<AddressRecord, 'id' | 'is_main'>,
    o: { requestKey: string; leadTimes: string; auto: boolean },
  ): Promise<number> {
    if (!isAddressPresent(address)) throw new AccountRefusal(409, SERVER_MESSAGES.deliveryAddressIncomplete);
    const now = this.clock.now();
    const ticket = await this.tickets.held(q, userId, now);
    const charge = chargeOfPrizes(rows, ticket !== null);
    const [req] = await q.query<{ delivery_id: number }>(
      `INSERT INTO delivery_requests (user_id, delivery_status, first_name, last_name, zip, address1, address2, address3, tel, email,
                                      requested_at, updated_at, request_key, fee_tc, ticket_used, auto_requested, lead_times)
       VALUES ($1, 'requested', $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14, $15) RETURNING delivery_id`,
      [
        userId,
        address.first_name,
        address.last_name,
        address.zip,
        address.address1,
        address.address2,
        address.address3,
        address.tel,
        address.email === '' ? null : address.email,
        now.toISOString(),
        o.requestKey,
        charge.feeTc,
        charge.waived,
        o.auto,
        o.leadTimes,
      ],
    );
    const deliveryId = req!.delivery_id;
    await q.query('INSERT INTO delivery_request_items (delivery_id, play_history_id) SELECT $1, unnest($2::int[])', [
      deliveryId,
      rows.map((p) => p.play_history_id),
    ]);
    if (charge.waived && ticket) await this.tickets.use(q, ticket.ticket_id, deliveryId, now);
    if (charge.feeTc > 0)
      await this.ledger.debit(
        userId,
        {
          amount: charge.feeTc,
          reason: 'delivery_fee',
          reference: `delivery:${deliveryId}`,
          idempotencyKey: feeKey(deliveryId),
        },
        q,
      );
    return deliveryId;
  }

  /** The player's delivery requests, newest first (history). */
  async list(userId: number): Promise<DeliveryView[]> {
    return (await this.prizes.deliveries(userId)).map(({ user_id: _owner, ...view }) => view);
  }

  /** Changes the address or the time slot of a request not yet shipped. */
  async change(
    userId: number,
    c: { delivery_id: number; address_id?: number | undefined; lead_times?: string | undefined },
  ): Promise<DeliveryView> {
    return this.db.transaction(async (q) => {
      const status = await lockRequest(q, c.delivery_id, userId);
      if (!OPEN.includes(status))
        throw new AccountRefusal(
          409,
          status === 'shipped' || status === 'delivered'
            ? SERVER_MESSAGES.deliveryAlreadyShipped
            : SERVER_MESSAGES.deliveryNotOpen,
        );
      const now = this.clock.now().toISOString();
      if (c.address_id !== undefined) {
        const [a] = await q.query<AddressRecord>('SELECT * FROM addresses WHERE user_id = $1 AND id = $2', [
          userId,
          c.address_id,
        ]);
        if (!a) throw new AccountRefusal(404, SERVER_MESSAGES.addressNotFound);
        if (!isAddressPresent(a)) throw new AccountRefusal(409, SERVER_MESSAGES.deliveryAddressIncomplete);
        await q.query(
          `UPDATE delivery_requests SET first_name = $2, last_name = $3, zip = $4, address1 = $5, address2 = $6, address3 = $7,
                  tel = $8, email = $9, updated_at = $10 WHERE delivery_id = $1`,
          [
            c.delivery_id,
            a.first_name,
            a.last_name,
            a.zip,
            a.address1,
            a.address2,
            a.address3,
            a.tel,
            a.email || null,
            now,
          ],
        );
      }
      if (c.lead_times !== undefined)
        await q.query('UPDATE delivery_requests SET lead_times = $2, updated_at = $3 WHERE delivery_id = $1', [
          c.delivery_id,
          c.lead_times,
          now,
        ]);
      return this.prizes.delivery(userId, c.delivery_id, q);
    });
  }

  /** The player's free-delivery ticket [R10-6]. */
  async ticket(userId: number): Promise<{ held: 0 | 1; next_grant_at: string }> {
    return this.db.transaction(async (q) => {
      await lockPlayer(q, userId);
      return this.tickets.info(q, userId, this.clock.now());
    });
  }

  // ---- the operator's fulfilment ------------------------------------------------------------

  /** Requests for the warehouse: oldest first, with the address (only here and to the player). */
  async fulfilmentList(filter: { delivery_status?: DeliveryStatus | undefined; limit: number }) {
    return this.prizes.deliveries(null, {
      ...(filter.delivery_status ? { status: filter.delivery_status } : {}),
      limit: filter.limit,
    });
  }

  /** Marks a request shipped with its tracking number; the player gets a push and the unread mark. */
  async ship(deliveryId: number, trackingNumber: string) {
    const done = await this.db.transaction(async (q) => {
      const [row] = await q.query<{
        user_id: number;
        delivery_status: DeliveryStatus;
        prize_contact_number: string | null;
      }>(
        'SELECT user_id, delivery_status, prize_contact_number FROM delivery_requests WHERE delivery_id = $1 FOR UPDATE',
        [deliveryId],
      );
      if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.deliveryNotFound);
      // The same shipment told twice (a retried call) answers the first; anything else not open is refused.
      if (row.delivery_status === 'shipped' && row.prize_contact_number === trackingNumber)
        return { userId: row.user_id, fresh: false };
      if (!OPEN.includes(row.delivery_status)) throw new AccountRefusal(409, SERVER_MESSAGES.deliveryNotOpen);
      const now = this.clock.now().toISOString();
      await q.query(
        `UPDATE delivery_requests SET delivery_status = 'shipped', prize_contact_number = $2, prize_shipmented_at = $3, updated_at = $3
          WHERE delivery_id = $1`,
        [deliveryId, trackingNumber, now],
      );
      await markUnread(q, row.user_id, now);
      return { userId: row.user_id, fresh: true };
    });
    if (done.fresh)
      this.events()?.push(done.userId, {
        kind: 'notice',
        title: SERVER_MESSAGES.prizeShippedTitle,
        message: SERVER_MESSAGES.prizeShippedBody(trackingNumber),
      });
    const [view] = await this.prizes.deliveries(null, { deliveryId });
    return view!;
  }

  /**
   * Cancels a request not yet shipped with a reason: its prizes become invalid, the fee goes back
   * in the halves it was taken from and the ticket it used is given back (unless one is held) —
   * exactly once: a second cancel finds the request cancelled and changes nothing [R10-4].
   */
  async cancel(deliveryId: number, reason: string) {
    const done = await this.db.transaction(async (q) => {
      const [row] = await q.query<{
        user_id: number;
        delivery_status: DeliveryStatus;
        fee_tc: number;
        ticket_used: boolean;
      }>(
        'SELECT user_id, delivery_status, fee_tc, ticket_used FROM delivery_requests WHERE delivery_id = $1 FOR UPDATE',
        [deliveryId],
      );
      if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.deliveryNotFound);
      if (row.delivery_status === 'cancelled') return { userId: row.user_id, fresh: false, refunded: 0 };
      if (!OPEN.includes(row.delivery_status)) throw new AccountRefusal(409, SERVER_MESSAGES.deliveryNotOpen);
      await lockPlayer(q, row.user_id);
      const now = this.clock.now().toISOString();
      await q.query(
        `UPDATE delivery_requests SET delivery_status = 'cancelled', cancel_reason = $2, cancelled_at = $3, updated_at = $3
          WHERE delivery_id = $1`,
        [deliveryId, reason, now],
      );
      // The fee back as it was paid: its free TC into the lots it came from [R11-7].
      const back = await this.ledger.refund(
        row.user_id,
        feeKey(deliveryId),
        { reason: 'refund', reference: `delivery:${deliveryId}`, idempotencyKey: refundKey(deliveryId) },
        q,
      );
      const refunded = back.free + back.toll;
      if (row.ticket_used) await this.tickets.restore(q, row.user_id, deliveryId);
      await markUnread(q, row.user_id, now);
      return { userId: row.user_id, fresh: true, refunded };
    });
    if (done.fresh)
      this.events()?.push(done.userId, {
        kind: 'notice',
        title: SERVER_MESSAGES.deliveryCancelledTitle,
        message: SERVER_MESSAGES.deliveryCancelledBody(reason, done.refunded),
      });
    const [view] = await this.prizes.deliveries(null, { deliveryId });
    return { delivery: view!, refunded_tc: done.refunded };
  }

  /** Tells a player about a new prize at once (a play's win, a kuji draw, an operator's grant). */
  prizeWon(userId: number, productName: string): void {
    this.events()?.push(userId, {
      kind: 'notice',
      title: SERVER_MESSAGES.prizeWonTitle,
      message: SERVER_MESSAGES.prizeWonBody(productName),
    });
  }
}

/** The player's row lock (before the wallet's); 404 for a user that does not exist. */
export async function lockPlayer(q: SqlExecutor, userId: number): Promise<void> {
  if (!(await lockUser(q, userId))) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
}

async function lockRequest(q: SqlExecutor, deliveryId: number, userId: number): Promise<DeliveryStatus> {
  const [row] = await q.query<{ delivery_status: DeliveryStatus }>(
    'SELECT delivery_status FROM delivery_requests WHERE delivery_id = $1 AND user_id = $2 FOR UPDATE',
    [deliveryId, userId],
  );
  if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.deliveryNotFound);
  return row.delivery_status;
}

async function markUnread(q: SqlExecutor, userId: number, now: string): Promise<void> {
  await q.query('INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    userId,
    'prize',
    now,
  ]);
}

function checkDeliverable(rows: readonly PrizeRow[]): void {
  if (rows.some((r) => r.delivery_id !== null)) throw new AccountRefusal(409, SERVER_MESSAGES.prizeAlreadyRequested);
  if (rows.some((r) => !isDeliverable({ delivery_status: prizeStatusOf(r), prize_type: r.prize_type })))
    throw new AccountRefusal(409, SERVER_MESSAGES.prizeNotDeliverable);
}
