import { dailyFreePlayDay, dailyFreePlayEndsAt } from '../../src/domain';
import type { Clock } from '../clock';
import type { SqlExecutor, Store } from '../store/store';

/** The day's free play as the player reads it [R11-8]. */
export interface DailyFreePlayView {
  /** 1 while today's free play is there to use. */
  readonly available: 0 | 1;
  /** 'YYYY-MM-DD' (JST) of today. */
  readonly day: string;
  /** ISO time it ends: 24:00 JST today. */
  readonly expires_at: string;
  /** The play it paid for today, or null. */
  readonly used_play_id: number | null;
}

/**
 * The daily free play [R11-8] (docs/fair-play.md): granted at the first visit of each Japanese day
 * (the client's first `user/user_data` of the day, which every sign-in and app start reads), used
 * by the day's first play at a ticket station before any ticket, gone at 24:00 JST. The row's key
 * (user, day) makes it one a day whatever the concurrency; using it is one conditional UPDATE in the
 * play's own transaction, so two plays cannot both take it.
 */
export class DailyFreePlays {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
  ) {}

  /** Grants today's free play if not granted yet (idempotent), and answers it. */
  async grant(userId: number, tx?: SqlExecutor): Promise<DailyFreePlayView> {
    const q = tx ?? this.db;
    const now = this.clock.now();
    await q.query(
      'INSERT INTO daily_free_plays (user_id, jst_day, granted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [userId, dailyFreePlayDay(now.getTime()), now.toISOString()],
    );
    return this.view(userId, q);
  }

  /** Today's free play as it stands (not granted: not available). */
  async view(userId: number, tx?: SqlExecutor): Promise<DailyFreePlayView> {
    const now = this.clock.now().getTime();
    const day = dailyFreePlayDay(now);
    const [row] = await (tx ?? this.db).query<{ play_id: number | null; used_at: Date | string | null }>(
      'SELECT play_id, used_at FROM daily_free_plays WHERE user_id = $1 AND jst_day = $2',
      [userId, day],
    );
    return {
      available: row && row.used_at === null ? 1 : 0,
      day,
      expires_at: new Date(dailyFreePlayEndsAt(now)).toISOString(),
      used_play_id: row?.play_id ?? null,
    };
  }

  /** Whether today's free play is there to use (a ticket station's line counts it as one ticket). */
  async available(q: SqlExecutor, userId: number): Promise<boolean> {
    return (await this.view(userId, q)).available === 1;
  }

  /** Pays for `playId` with today's free play when there is one; answers whether it did. */
  async use(q: SqlExecutor, userId: number, playId: number): Promise<boolean> {
    const now = this.clock.now();
    const used = await q.query(
      `UPDATE daily_free_plays SET play_id = $3, used_at = $4
        WHERE user_id = $1 AND jst_day = $2 AND used_at IS NULL RETURNING jst_day`,
      [userId, dailyFreePlayDay(now.getTime()), playId, now.toISOString()],
    );
    return used.length > 0;
  }

  /**
   * Gives the free play a refunded play used back: usable again while its day lasts ('restored');
   * after its day the caller returns it as a ticket instead ('lapsed'). 'none': the play did not use one.
   */
  async restore(q: SqlExecutor, playId: number): Promise<'restored' | 'lapsed' | 'none'> {
    // The day as text: a DATE read as a Date would depend on the driver's time zone.
    const [row] = await q.query<{ day: string }>(
      'SELECT jst_day::text AS day FROM daily_free_plays WHERE play_id = $1 FOR UPDATE',
      [playId],
    );
    if (!row) return 'none';
    if (row.day !== dailyFreePlayDay(this.clock.now().getTime())) return 'lapsed';
    await q.query('UPDATE daily_free_plays SET play_id = NULL, used_at = NULL WHERE play_id = $1', [playId]);
    return 'restored';
  }
}
