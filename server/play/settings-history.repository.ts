import type { SettingsHistoryAnswer } from '../../src/contract';
import type { SettingChange, SettingsChangeReason, StaffAssistOutcome } from '../../src/domain';
import type { SqlExecutor } from '../store/store';

/** Versions per page of a station's settings history. */
export const SETTINGS_HISTORY_PAGE_SIZE = 20;

/**
 * A station's published settings history [R11-6] (docs/fair-play.md): every change in force, with
 * when, what (before → after) and why, newest first. Who changed it (the operator's login) stays in
 * the operators' audit log: players are told what and why, not which staff member.
 */
export class SettingsHistoryRepository {
  constructor(private readonly db: SqlExecutor) {}

  /** null: no such station. */
  async ofStation(stationId: number, page = 1): Promise<SettingsHistoryAnswer | null> {
    const [station] = await this.db.query<{ settings_version: number }>(
      'SELECT settings_version FROM stations WHERE station_id = $1',
      [stationId],
    );
    if (!station) return null;
    const rows = await this.db.query<{
      version: number;
      applied_at: Date;
      reason: SettingsChangeReason;
      changes: SettingChange[];
    }>(
      `SELECT version, applied_at, reason, changes FROM station_settings_changes
        WHERE station_id = $1 ORDER BY version DESC LIMIT $2 OFFSET $3`,
      [stationId, SETTINGS_HISTORY_PAGE_SIZE + 1, (page - 1) * SETTINGS_HISTORY_PAGE_SIZE],
    );
    // The staff assists answered at the station [R11-9]: when, after how many misses, and how it
    // ended (a done assist moved the prize by hand). No player is named. The latest, on the first page.
    const assists =
      page === 1
        ? await this.db.query<{
            outcome: Exclude<StaffAssistOutcome, 'cancelled'>;
            misses: number;
            asked_at: Date;
            ended_at: Date;
          }>(
            `SELECT status AS outcome, misses, asked_at, ended_at FROM staff_assists
              WHERE station_id = $1 AND status IN ('done', 'declined', 'lapsed') ORDER BY ended_at DESC LIMIT $2`,
            [stationId, SETTINGS_HISTORY_PAGE_SIZE],
          )
        : [];
    return {
      station_id: stationId,
      current_version: station.settings_version,
      list: rows.slice(0, SETTINGS_HISTORY_PAGE_SIZE).map((r) => ({
        version: r.version,
        applied_at: new Date(r.applied_at).toISOString(),
        reason: r.reason,
        changes: r.changes.map(({ field, before, after }) => ({ field, before, after })),
      })),
      page,
      has_more: rows.length > SETTINGS_HISTORY_PAGE_SIZE ? 1 : 0,
      assists: assists.map((a) => ({
        outcome: a.outcome,
        misses: a.misses,
        asked_at: new Date(a.asked_at).toISOString(),
        ended_at: new Date(a.ended_at).toISOString(),
      })),
    };
  }
}
