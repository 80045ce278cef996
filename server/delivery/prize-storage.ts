import { chargeOfPrizes, isAddressPresent, lapseOutcome, storageStep, STORAGE_NOTICE_DAYS } from '../../src/domain';
import type { AddressesRepository } from '../account/addresses.repository';
import type { Clock } from '../clock';
import { DuePlayers } from '../due-players';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger } from '../wallet/ledger';
import type { DeliveryTickets } from './delivery-tickets';
import { lockPlayer, type DeliveryEvents, type DeliveryService } from './delivery.service';
import { SELECT_PRIZES, type PrizeRow } from './prizes.repository';

/** Prizes still waiting in storage: not requested, not expired, not digital. */
const WAITING = `p.keep_until IS NOT NULL AND p.expired_at IS NULL AND i.play_history_id IS NULL`;

/**
 * The instant a waiting prize next needs something: the 7-day notice, the 1-day notice, or the end
 * of its storage period (the domain's nextStorageEventAt in SQL, so the store finds the earliest).
 */
const NEXT_EVENT = `CASE
    WHEN p.storage_notice_days IS NULL THEN p.keep_until - make_interval(days => ${STORAGE_NOTICE_DAYS[0]})
    WHEN p.storage_notice_days > ${STORAGE_NOTICE_DAYS[1]} THEN p.keep_until - make_interval(days => ${STORAGE_NOTICE_DAYS[1]})
    ELSE p.keep_until END`;

/**
 * The storage period [R10-5] (docs/delivery.md): one timer at the earliest next event of any
 * waiting prize. Each player's due prizes are handled in one transaction under their row lock —
 * notices recorded, lapsed prizes requested to the main address (the free-delivery ticket or the
 * TC balance paying) or expired — so a crash or a restart in the middle handles each prize once:
 * what committed is done and what did not is found again by the next start.
 */
export class PrizeStorage {
  private readonly due: DuePlayers;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly addresses: AddressesRepository,
    private readonly tickets: DeliveryTickets,
    private readonly deliveries: DeliveryService,
    private readonly events: () => DeliveryEvents | null,
    log: (message: string, error?: unknown) => void,
  ) {
    const from = `FROM won_prizes p LEFT JOIN delivery_request_items i ON i.play_history_id = p.play_history_id WHERE ${WAITING}`;
    this.due = new DuePlayers(db, clock, {
      what: 'prize storage',
      nextDueSql: `SELECT min(${NEXT_EVENT}) AS at ${from}`,
      dueUsersSql: `SELECT DISTINCT p.user_id ${from} AND ${NEXT_EVENT} <= $1`,
      handle: (userId) => this.handleUser(userId),
      log,
    });
  }

  start(): void {
    this.due.start();
  }

  stop(): void {
    this.due.stop();
  }

  /** After a win: the new prize's first notice may be the earliest event. */
  poke(): void {
    this.due.poke();
  }

  /** Resolves when no run or timer read is going (tests step a manual clock with it). */
  settled(): Promise<void> {
    return this.due.settled();
  }

  /** Handles every player with a due event; answers how many players were handled. */
  runDue(): Promise<number> {
    return this.due.runDue();
  }

  /** One player's due prizes, in one transaction. */
  async handleUser(userId: number): Promise<void> {
    const told = await this.db.transaction(async (q) => {
      await lockPlayer(q, userId);
      const now = this.clock.now();
      const rows = await q.query<PrizeRow>(
        `${SELECT_PRIZES} WHERE p.user_id = $1 AND ${WAITING} ORDER BY p.keep_until, p.play_history_id FOR UPDATE OF p`,
        [userId],
      );
      const notices = new Map<number, PrizeRow[]>();
      const lapsed: PrizeRow[] = [];
      for (const r of rows) {
        const step = storageStep(
          new Date(r.keep_until!).getTime(),
          now.getTime(),
          r.storage_notice_days === null ? [] : [r.storage_notice_days],
        );
        if (step.kind === 'lapse') lapsed.push(r);
        else if (step.kind === 'notice') notices.set(step.daysBefore, [...(notices.get(step.daysBefore) ?? []), r]);
      }
      const pushes: { title: string; message: string }[] = [];
      for (const [days, prizes] of notices) {
        await q.query('UPDATE won_prizes SET storage_notice_days = $2 WHERE play_history_id = ANY($1::int[])', [
          prizes.map((p) => p.play_history_id),
          days,
        ]);
        pushes.push({
          title: SERVER_MESSAGES.storageNoticeTitle,
          message: SERVER_MESSAGES.storageNoticeBody(prizes[0]!.product_name, days, prizes.length - 1),
        });
      }
      if (lapsed.length > 0) pushes.push(await this.lapse(q, userId, lapsed, now));
      if (pushes.length > 0)
        await q.query(
          "INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, 'prize', $2) ON CONFLICT DO NOTHING",
          [userId, now.toISOString()],
        );
      return pushes;
    });
    for (const p of told) this.events()?.push(userId, { kind: 'notice', ...p });
  }

  /** Lapsed prizes: requested to the main address when it is complete and the charge can be met, else invalid. */
  private async lapse(q: SqlExecutor, userId: number, lapsed: PrizeRow[], now: Date) {
    const main = await this.addresses.main(userId, q);
    const ticket = await this.tickets.held(q, userId, now);
    const charge = chargeOfPrizes(lapsed, ticket !== null);
    const { tc_all } = await this.ledger.balance(userId, q);
    const outcome = lapseOutcome({ mainAddressComplete: isAddressPresent(main), charge, tcBalance: tc_all });
    if (outcome === 'request' && main) {
      await this.deliveries.createRequest(q, userId, lapsed, main, {
        requestKey: `storage-${lapsed[0]!.play_history_id}`,
        leadTimes: main.lead_times,
        auto: true,
      });
      return {
        title: SERVER_MESSAGES.storageAutoRequestedTitle,
        message: SERVER_MESSAGES.storageAutoRequestedBody(lapsed.length, charge.feeTc),
      };
    }
    await q.query('UPDATE won_prizes SET expired_at = $2 WHERE play_history_id = ANY($1::int[])', [
      lapsed.map((p) => p.play_history_id),
      now.toISOString(),
    ]);
    return { title: SERVER_MESSAGES.storageExpiredTitle, message: SERVER_MESSAGES.storageExpiredBody(lapsed.length) };
  }
}
