import { DueTimer, type Clock } from '../clock';
import type { Store } from '../store/store';

/** A visit not seen for this long is checked: is its player still connected anywhere? */
export const VISIT_STALE_MS = 2 * 60 * 1000;

/** At most this many visits are checked in one run (the next run comes at once for the rest). */
const VISITS_PER_RUN = 500;

export interface VisitPresence {
  /** Of these users, the ones with a live connection on any instance. */
  connectedUsers(userIds: readonly number[]): Promise<Set<number>>;
  /** A station's viewer count changed (the lobby's numbers). */
  stationListChanged(stationId: number): void;
}

/**
 * Ends the visits whose players left without a word (docs/fair-play.md "Live lobby numbers"). A
 * player's last connection closing ends their visit at once (the realtime hub); this sweep, run by
 * the leader, catches what that cannot: an instance killed with its connections, or a client that
 * visits over HTTP and never connects. A visit not seen for two minutes is checked against every
 * instance's connections: a connected player's visit is seen now, another's ends.
 */
export class VisitSweep {
  private readonly timer: DueTimer;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly presence: () => VisitPresence | null,
    log: (message: string, error?: unknown) => void,
  ) {
    this.timer = new DueTimer(
      clock,
      async () => {
        const [row] = await db.query<{ at: string | Date | null }>(
          'SELECT min(last_seen_at) AS at FROM station_visits WHERE ended_at IS NULL',
        );
        return row?.at ? new Date(new Date(row.at).getTime() + VISIT_STALE_MS) : null;
      },
      async () => {
        await this.runDue();
      },
      log,
      'visit sweep',
      VISIT_STALE_MS,
    );
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** Resolves when no run or timer read is going (tests step a manual clock with it). */
  settled(): Promise<void> {
    return this.timer.settled();
  }

  /** Checks the visits not seen for two minutes; answers how many it ended. */
  async runDue(): Promise<number> {
    const presence = this.presence();
    if (!presence) return 0;
    const now = this.clock.now();
    const stale = await this.db.query<{ visit_id: number; user_id: number }>(
      'SELECT visit_id, user_id FROM station_visits WHERE ended_at IS NULL AND last_seen_at <= $1 ORDER BY last_seen_at LIMIT $2',
      [new Date(now.getTime() - VISIT_STALE_MS).toISOString(), VISITS_PER_RUN],
    );
    if (stale.length === 0) return 0;
    const connected = await presence.connectedUsers([...new Set(stale.map((v) => v.user_id))]);
    const seen = stale.filter((v) => connected.has(v.user_id)).map((v) => v.visit_id);
    const gone = stale.filter((v) => !connected.has(v.user_id)).map((v) => v.visit_id);
    if (seen.length > 0)
      await this.db.query(
        'UPDATE station_visits SET last_seen_at = $2 WHERE visit_id = ANY($1::int[]) AND ended_at IS NULL',
        [seen, now.toISOString()],
      );
    if (gone.length === 0) return 0;
    // Only visits still as they were read: one renewed meanwhile (a page visiting again) stays.
    const ended = await this.db.query<{ station_id: number }>(
      'UPDATE station_visits SET ended_at = $2 WHERE visit_id = ANY($1::int[]) AND ended_at IS NULL AND last_seen_at <= $3 RETURNING station_id',
      [gone, now.toISOString(), new Date(now.getTime() - VISIT_STALE_MS).toISOString()],
    );
    for (const station of new Set(ended.map((e) => e.station_id))) presence.stationListChanged(station);
    return ended.length;
  }
}
