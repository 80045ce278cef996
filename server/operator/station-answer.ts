import type { StationStatus } from '../../src/domain';
import type { SqlExecutor } from '../store/store';

/** What a station action answers the console: the station's status and stock, and the play it refunded. */
export async function stationAnswer(
  db: SqlExecutor,
  stationId: number,
  refunded: number | null,
  /** The settings change waits for the player's run to end [R11-6]. */
  settingsPending = false,
) {
  const [row] = await db.query<{ station_status: StationStatus; stock: number }>(
    'SELECT station_status, stock FROM stations WHERE station_id = $1',
    [stationId],
  );
  return {
    station: {
      station_id: stationId,
      station_status: row!.station_status,
      stock: row!.stock,
      refunded_play_id: refunded,
      ...(settingsPending ? { settings_pending: 1 as const } : {}),
    },
  };
}
