import type { AssistGaugeAnswer, PlayLogEntry } from '../../src/contract';
import { assistGauge, type StaffAssistStatus } from '../../src/domain';
import type { SqlExecutor } from '../store/store';
import { CLIP_REF_COLUMNS, clipRef } from '../clips/play-clips';

/** Plays per page of a player's play history. */
export const PLAY_LOG_PAGE_SIZE = 20;

interface PlayRow {
  play_id: number;
  station_id: number;
  prize_name: string;
  currency: PlayLogEntry['currency'];
  price: number;
  base_arm_strength: number;
  assist_level: number;
  arm_strength: number;
  seed: number;
  layout: PlayLogEntry['layout'];
  inputs: PlayLogEntry['inputs'];
  drop_at_tick: number | null;
  result: PlayLogEntry['result'];
  started_at: Date;
  ended_at: Date | null;
  clip_id: string | null;
  clip_status: 'recording' | 'ready' | 'failed' | 'removed' | null;
  clip_shared: boolean | null;
  clip_kept: boolean | null;
  clip_expires_at: Date | null;
  settings_version: number | null;
  daily_free: boolean;
  assist_status: StaffAssistStatus | null;
  assist_misses: number | null;
  assist_asked_at: Date | null;
  assist_ended_at: Date | null;
}

const SELECT = `SELECT p.play_id, p.station_id, s.prize_name, p.currency, p.price, p.base_arm_strength, p.assist_level, p.arm_strength,
                       p.seed, p.layout, p.inputs, p.drop_at_tick, p.result, p.started_at, p.ended_at, p.settings_version,
                       (d.play_id IS NOT NULL) AS daily_free, a.status AS assist_status, a.misses AS assist_misses, a.asked_at AS assist_asked_at, a.ended_at AS assist_ended_at,
                       ${CLIP_REF_COLUMNS}
                  FROM plays p JOIN stations s ON s.station_id = p.station_id
                  LEFT JOIN play_clips c ON c.play_id = p.play_id
                  LEFT JOIN staff_assists a ON a.play_id = p.play_id
                  LEFT JOIN daily_free_plays d ON d.play_id = p.play_id`;

const toEntry = (r: PlayRow): PlayLogEntry => ({
  play_id: r.play_id,
  station_id: r.station_id,
  prize_name: r.prize_name,
  currency: r.currency,
  price: r.price,
  base_arm_strength: Number(r.base_arm_strength),
  assist_level: r.assist_level,
  arm_strength: Number(r.arm_strength),
  seed: r.seed,
  layout: r.layout,
  inputs: r.inputs,
  drop_at_tick: r.drop_at_tick,
  result: r.result,
  started_at: new Date(r.started_at).toISOString(),
  ended_at: r.ended_at ? new Date(r.ended_at).toISOString() : null,
  // The play's video (docs/clips.md): its id and state; the files' addresses come from v2/clip/get.
  clip: clipRef(r),
  settings_version: r.settings_version,
  daily_free: r.daily_free,
  // The staff assist asked after the play [R11-9].
  staff_assist:
    r.assist_status === null
      ? null
      : {
          status: r.assist_status,
          misses: r.assist_misses ?? 0,
          asked_at: new Date(r.assist_asked_at!).toISOString(),
          ended_at: r.assist_ended_at ? new Date(r.assist_ended_at).toISOString() : null,
        },
});

/**
 * The play log: every play with its price, arm strength, assist level, seed, starting field and
 * inputs, and its clip. A player reads their own finished plays (nothing about a play is hidden afterwards; a
 * play still running shows once it has a result), the operator reads any station's.
 */
export class PlayLogRepository {
  constructor(private readonly db: SqlExecutor) {}

  async history(userId: number, page = 1): Promise<{ list: PlayLogEntry[]; page: number; has_more: 0 | 1 }> {
    const rows = await this.db.query<PlayRow>(
      `${SELECT} WHERE p.user_id = $1 AND p.result IS NOT NULL ORDER BY p.play_id DESC LIMIT $2 OFFSET $3`,
      [userId, PLAY_LOG_PAGE_SIZE + 1, (page - 1) * PLAY_LOG_PAGE_SIZE],
    );
    return {
      list: rows.slice(0, PLAY_LOG_PAGE_SIZE).map(toEntry),
      page,
      has_more: rows.length > PLAY_LOG_PAGE_SIZE ? 1 : 0,
    };
  }

  async ofStation(stationId: number | null, limit: number): Promise<PlayLogEntry[]> {
    const rows = await this.db.query<PlayRow>(
      `${SELECT} WHERE ($1::int IS NULL OR p.station_id = $1) ORDER BY p.play_id DESC LIMIT $2`,
      [stationId, limit],
    );
    return rows.map(toEntry);
  }

  /** A player's assist gauge at a station. */
  async gauge(userId: number, stationId: number): Promise<AssistGaugeAnswer> {
    const [row] = await this.db.query<{ misses: number }>(
      'SELECT misses FROM assist_gauges WHERE user_id = $1 AND station_id = $2',
      [userId, stationId],
    );
    const g = assistGauge(row?.misses ?? 0);
    return {
      misses: g.misses,
      level: g.level,
      strength_bonus: g.strengthBonus,
      misses_to_next_level: g.missesToNextLevel,
      fill: g.fill,
    };
  }
}
