import { DueTimer, type Clock } from './clock';
import type { Store } from './store/store';

/** How many players one run handles before looking again (a run never holds the loop for long). */
const PLAYERS_PER_RUN = 200;

/**
 * A job over the players with something due, kept in the store (a prize's storage deadline, a free
 * TC lot's end): one timer at the earliest due instant any player has (`nextDueSql`, a single `at`
 * column), and each run handles every player due now (`dueUsersSql`, `user_id` rows, `$1` = now)
 * in batches, one `handle` each — which does its player's work in one transaction under their
 * lock, so a crash or restart in the middle leaves each player done or found again.
 */
export class DuePlayers {
  private readonly timer: DueTimer;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly job: {
      /** The job's name in the log. */
      readonly what: string;
      /** SELECT … AS at: the earliest instant any player has something due (NULL: none). */
      readonly nextDueSql: string;
      /** SELECT DISTINCT … user_id … WHERE due at or before $1 (the LIMIT is added). */
      readonly dueUsersSql: string;
      readonly handle: (userId: number) => Promise<void>;
      readonly log: (message: string, error?: unknown) => void;
      /** Look again at least this often (ms): work made on another instance is found by looking. */
      readonly maxWaitMs?: number;
    },
  ) {
    this.timer = new DueTimer(
      clock,
      async () => {
        const [row] = await this.db.query<{ at: Date | string | null }>(job.nextDueSql);
        return row?.at ? new Date(row.at) : null;
      },
      async () => void (await this.runDue()),
      job.log,
      job.what,
      job.maxWaitMs ?? null,
    );
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** After a write that may have brought the earliest due instant forward. */
  poke(): void {
    void this.timer.poke();
  }

  /** Resolves when no run or timer read is going (tests step a manual clock with it). */
  settled(): Promise<void> {
    return this.timer.settled();
  }

  /** Handles every player with something due now; answers how many players were handled. */
  async runDue(): Promise<number> {
    let handled = 0;
    for (;;) {
      const users = await this.db.query<{ user_id: number }>(`${this.job.dueUsersSql} LIMIT ${PLAYERS_PER_RUN}`, [
        this.clock.now().toISOString(),
      ]);
      for (const u of users) await this.job.handle(u.user_id);
      handled += users.length;
      if (users.length < PLAYERS_PER_RUN) return handled;
    }
  }
}
