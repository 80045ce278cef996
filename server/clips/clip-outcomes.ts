import type { StationFeedWire } from '../../src/contract/operator.schema';
import type { SqlExecutor } from '../store/store';

/** How many of each station's last plays the console's recording health looks at. */
export const CLIP_OUTCOME_WINDOW = 10;

export type ClipOutcomes = StationFeedWire['clips'];

/**
 * The clips of each station's last CLIP_OUTCOME_WINDOW plays (docs/clips.md "Console health"): how
 * many are ready, failed, still recording, removed since, or were never made, and the newest
 * failure with its reason. Read from the store, so any instance answers for every station.
 */
export async function clipOutcomes(db: SqlExecutor, window = CLIP_OUTCOME_WINDOW): Promise<Map<number, ClipOutcomes>> {
  const rows = await db.query<{
    station_id: number;
    play_id: number;
    status: 'recording' | 'ready' | 'failed' | 'removed' | null;
    reason: string | null;
    at: Date | string | null;
  }>(
    `SELECT s.station_id, x.play_id, x.status, x.reason, x.at
       FROM stations s
       CROSS JOIN LATERAL (
         SELECT p.play_id, c.status, c.reason, COALESCE(c.ready_at, c.created_at) AS at
           FROM plays p LEFT JOIN play_clips c ON c.play_id = p.play_id
          WHERE p.station_id = s.station_id
          ORDER BY p.play_id DESC
          LIMIT $1
       ) x
      ORDER BY s.station_id, x.play_id DESC`,
    [window],
  );
  const out = new Map<number, ClipOutcomes>();
  for (const row of rows) {
    const o = out.get(row.station_id) ?? noClipOutcomes(window);
    o.plays += 1;
    if (row.status === null) o.none += 1;
    else o[row.status] += 1;
    // Newest first: the first failure met is the latest.
    if (row.status === 'failed' && o.last_failure === null)
      o.last_failure = {
        play_id: row.play_id,
        reason: row.reason,
        at: new Date(row.at ?? 0).toISOString(),
      };
    out.set(row.station_id, o);
  }
  return out;
}

/** A station none of whose plays is recorded yet. */
export const noClipOutcomes = (window = CLIP_OUTCOME_WINDOW): ClipOutcomes => ({
  window,
  plays: 0,
  ready: 0,
  failed: 0,
  recording: 0,
  removed: 0,
  none: 0,
  last_failure: null,
});
