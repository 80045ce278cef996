import type { PushMessage } from '../../src/contract';
import { DAY_MS, freeLotStep, freeTcLastDayLabel, FREE_TC_NOTICE_DAYS } from '../../src/domain';
import type { Clock } from '../clock';
import { DuePlayers } from '../due-players';
import { SERVER_MESSAGES } from '../messages';
import type { Store } from '../store/store';
import type { Ledger } from './ledger';

export interface FreeTcEvents {
  push(userId: number, push: PushMessage): void;
}

/** Lots that still need something: not expired, with an end. */
const OPEN = 'l.expired_at IS NULL AND l.expires_at IS NOT NULL';

/** The instant a lot next needs something: its 7-day notice, its 1-day notice, or its end (the domain's nextFreeLotEventAt in SQL). */
const NEXT_EVENT = `CASE
    WHEN l.remaining = 0 THEN l.expires_at
    WHEN l.notice_days IS NULL THEN l.expires_at - make_interval(days => ${FREE_TC_NOTICE_DAYS[0]})
    WHEN l.notice_days > ${FREE_TC_NOTICE_DAYS[1]} THEN l.expires_at - make_interval(days => ${FREE_TC_NOTICE_DAYS[1]})
    ELSE l.expires_at END`;

/**
 * The timer looks again at least this often: free TC is credited on every instance (a purchase, a
 * present code, a refund), and the leader finds new lots' events by looking.
 */
export const FREE_TC_LOOK_MS = 60 * 60 * 1000;

/**
 * The ends of free TC lots [R11-7] (docs/fair-play.md): one timer at the earliest next event of any
 * open lot — a notice 7 days and 1 day before (one per player and end), or the expiry. Each
 * player's due lots are handled in one transaction under their wallet lock, so a lot expires once
 * and a notice is given once, whichever instance runs it and however often it restarts: what
 * committed is done, and what did not is found again. Run by the leader; a spend expires the
 * spender's due lots itself, so lapsed TC is never spent while the timer waits.
 */
export class FreeTcExpiry {
  private readonly due: DuePlayers;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly events: () => FreeTcEvents | null,
    log: (message: string, error?: unknown) => void,
  ) {
    this.due = new DuePlayers(db, clock, {
      what: 'free TC expiry',
      nextDueSql: `SELECT min(${NEXT_EVENT}) AS at FROM tc_free_lots l WHERE ${OPEN}`,
      dueUsersSql: `SELECT DISTINCT l.user_id FROM tc_free_lots l WHERE ${OPEN} AND ${NEXT_EVENT} <= $1`,
      handle: (userId) => this.handleUser(userId),
      log,
      maxWaitMs: FREE_TC_LOOK_MS,
    });
  }

  start(): void {
    this.due.start();
  }

  stop(): void {
    this.due.stop();
  }

  /** Resolves when no run or timer read is going (tests step a manual clock with it). */
  settled(): Promise<void> {
    return this.due.settled();
  }

  /** Handles every player with a due notice or expiry; answers how many players were handled. */
  runDue(): Promise<number> {
    return this.due.runDue();
  }

  /** One player's due lots, in one transaction: the expiries, then the notices of what is left. */
  async handleUser(userId: number): Promise<void> {
    const told = await this.db.transaction(async (q) => {
      await this.ledger.expireDue(userId, q);
      const now = this.clock.now();
      const lots = await q.query<{
        lot_id: string;
        remaining: number;
        expires_at: Date | string;
        notice_days: number | null;
      }>(
        `SELECT l.lot_id, l.remaining, l.expires_at, l.notice_days FROM tc_free_lots l
          WHERE l.user_id = $1 AND ${OPEN} AND l.remaining > 0 ORDER BY l.expires_at, l.lot_id FOR UPDATE`,
        [userId],
      );
      // One notice per end and step: lots credited the same day share their end.
      const notices = new Map<string, { days: number; amount: number; ends: number; lots: string[] }>();
      for (const lot of lots) {
        const ends = new Date(lot.expires_at).getTime();
        const step = freeLotStep(ends, now.getTime(), lot.notice_days === null ? [] : [lot.notice_days]);
        if (step.kind !== 'notice') continue;
        const key = `${ends}:${step.daysBefore}`;
        const notice = notices.get(key) ?? { days: step.daysBefore, amount: 0, ends, lots: [] };
        notice.amount += lot.remaining;
        notice.lots.push(lot.lot_id);
        notices.set(key, notice);
      }
      const pushes: PushMessage[] = [];
      for (const n of notices.values()) {
        await q.query('UPDATE tc_free_lots SET notice_days = $2 WHERE lot_id = ANY($1::bigint[])', [n.lots, n.days]);
        pushes.push({
          kind: 'notice',
          title: SERVER_MESSAGES.freeTcNoticeTitle,
          message: SERVER_MESSAGES.freeTcNoticeBody(
            n.amount,
            `${freeTcLastDayLabel(n.ends)} 24:00`,
            Math.max(1, Math.ceil((n.ends - now.getTime()) / DAY_MS)),
          ),
        });
      }
      return pushes;
    });
    for (const p of told) this.events()?.push(userId, p);
  }
}
