import { PLAY_ERROR, type PlayInfo, type ReserveStatusRecord } from '../../src/contract';
import { isMaintenanceStatus, type ReserveStatus, type StationStatus, type StationType } from '../../src/domain';
import { toPrizeItem, type CatalogueRepository } from '../catalogue/catalogue.repository';
import type { SqlExecutor, Store } from '../store/store';
import { Refusal } from './refusal';
import { RESERVING_SQL } from './reservation-sql';
import { activeSetting } from './rooms/sql-play-store';
import type { VipGate } from './vip-gate';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';

const ACTIVE = RESERVING_SQL;

const NOT_FOUND_STATION = SERVER_MESSAGES.stationNotFound;
const NOT_FOUND_VISIT = SERVER_MESSAGES.visitNotFound;

interface StationFacts {
  station_id: number;
  station_status: StationStatus;
  type: StationType;
  station_setting_id: number | null;
}

interface ReservationRow {
  play_reserve_id: number;
  user_id: number;
  station_id: number;
  station_setting_id: number;
  reserve_status: ReserveStatus;
  reserve_token: string;
  deadline_at: Date | null;
  request_flag: 0 | 1;
  request_type: number;
  reserve_num: number;
}

const secondsLeft = (deadline: Date | null, now: Date): number =>
  deadline ? Math.max(0, Math.ceil((new Date(deadline).getTime() - now.getTime()) / 1000)) : 0;

/**
 * Station reservations and visits as players ask for them: who watches a station, who waits in its
 * line and in which place. A place is taken and given up through the station's room (which owns
 * the line and is the only writer of its statuses: the routes send it the event); the answers are
 * read from the store, where
 * places are ranks over the active rows, so a cancellation ahead moves everyone behind up.
 */
export class StationReservations {
  constructor(
    private readonly db: Store,
    private readonly catalogue: CatalogueRepository,
    private readonly gate: VipGate,
    private readonly clock: Clock,
    /** Stations whose viewers changed (a visit began or ended): the lobby's numbers (issue 45). */
    private readonly viewersChanged: (stationIds: readonly number[]) => void = () => undefined,
  ) {}

  private async station(db: SqlExecutor, stationId: number): Promise<StationFacts | null> {
    const [row] = await db.query<StationFacts>(
      `SELECT s.station_id, s.station_status, s.station_type AS type, ss.station_setting_id
         FROM stations s LEFT JOIN station_settings ss ON ss.station_id = s.station_id AND ss.active
        WHERE s.station_id = $1`,
      [stationId],
    );
    return row ?? null;
  }

  /** The caller's active reservation (at one station, or anywhere), with its place in line. */
  private async activeReservation(db: SqlExecutor, userId: number, stationId?: number): Promise<ReservationRow | null> {
    const [row] = await db.query<ReservationRow>(
      `SELECT r.play_reserve_id, r.user_id, r.station_id, r.station_setting_id, r.reserve_status, r.reserve_token, r.deadline_at,
              r.request_flag, r.request_type,
              (SELECT count(*)::int FROM station_reservations o
                WHERE o.station_id = r.station_id AND o.reserve_status IN ${ACTIVE}
                  AND (o.queued_at, o.play_reserve_id) <= (r.queued_at, r.play_reserve_id)) AS reserve_num
         FROM station_reservations r
        WHERE r.user_id = $1 AND r.reserve_status IN ${ACTIVE} AND ($2::int IS NULL OR r.station_id = $2)`,
      [userId, stationId ?? null],
    );
    return row ?? null;
  }

  /** The reserve status record of a station as one caller sees it [R3-5]. */
  private async record(
    db: SqlExecutor,
    station: StationFacts,
    userId: number,
    now: Date,
  ): Promise<ReserveStatusRecord> {
    const [counts] = await db.query<{ visit_count: number; reserve_count: number; playing: number }>(
      `SELECT (SELECT count(*)::int FROM station_visits WHERE station_id = $1 AND ended_at IS NULL) AS visit_count,
              (SELECT count(*)::int FROM station_reservations WHERE station_id = $1 AND reserve_status IN ${ACTIVE}) AS reserve_count,
              (SELECT count(*)::int FROM station_reservations WHERE station_id = $1 AND reserve_status = 'playWaiting') AS playing`,
      [station.station_id],
    );
    const mine = await this.activeReservation(db, userId, station.station_id);
    const viewable =
      !isMaintenanceStatus(station.station_status) &&
      (station.type === 'normal' || (await this.gate.qualifies(db, userId, now)));
    return {
      station_id: station.station_id,
      station_setting_id: station.station_setting_id ?? 0,
      station_status: station.station_status,
      visit_count: counts?.visit_count ?? 0,
      reserve_count: counts?.reserve_count ?? 0,
      reserve_status: mine?.reserve_status ?? null,
      reserve_token: mine?.reserve_token ?? '',
      reserve_num: mine?.reserve_num ?? 0,
      reserve_time: mine ? secondsLeft(mine.deadline_at, now) : 0,
      play_reserve_id: mine?.play_reserve_id ?? 0,
      playing: (counts?.playing ?? 0) > 0 ? 1 : 0,
      viewable: viewable ? 1 : 0,
      request_flag: mine?.request_flag ?? 0,
      request_type: mine?.request_type ?? 0,
    };
  }

  private async playInfo(reservation: ReservationRow, now: Date): Promise<PlayInfo> {
    const [station] = await this.catalogue.stations(null, now, [reservation.station_id]);
    if (!station)
      throw new Error(`station ${reservation.station_id} of reservation ${reservation.play_reserve_id} is gone`);
    return {
      reserve_polling_id: reservation.play_reserve_id,
      station_id: reservation.station_id,
      station_setting_id: reservation.station_setting_id,
      reserve_status: reservation.reserve_status,
      is_reserve: 1,
      reserve_num: reservation.reserve_num,
      reserve_token: reservation.reserve_token,
      reserve_remaintime: secondsLeft(reservation.deadline_at, now),
      station_status: station.station_status,
      designated_type: station.designated_type,
      station_data: toPrizeItem(station),
    };
  }

  private static readonly EMPTY_RECORD: ReserveStatusRecord = {
    station_id: 0,
    station_setting_id: 0,
    station_status: null,
    visit_count: 0,
    reserve_count: 0,
    reserve_status: null,
    reserve_token: '',
    reserve_num: 0,
    reserve_time: 0,
    play_reserve_id: 0,
    playing: 0,
    viewable: 0,
    request_flag: 0,
    request_type: 0,
  };

  /**
   * The record of the station the caller names, else of the station the caller has reserved, else
   * the empty record. A station in maintenance is refused with 531 [R4.3-6].
   */
  async getReserve(userId: number, stationId?: number): Promise<ReserveStatusRecord> {
    const now = this.clock.now();
    let station: StationFacts | null;
    if (stationId !== undefined) {
      station = await this.station(this.db, stationId);
      if (!station) throw new Refusal(404, 404, NOT_FOUND_STATION);
    } else {
      const mine = await this.activeReservation(this.db, userId);
      if (!mine) return StationReservations.EMPTY_RECORD;
      station = await this.station(this.db, mine.station_id);
      if (!station) return StationReservations.EMPTY_RECORD;
    }
    if (isMaintenanceStatus(station.station_status))
      throw new Refusal(200, PLAY_ERROR.maintenance.code, PLAY_ERROR.maintenance.info, {
        station_id: station.station_id,
      });
    return this.record(this.db, station, userId, now);
  }

  /** Starts watching a station (ends the caller's visit elsewhere). 531 in maintenance, 569 VIP-only. */
  async visit(userId: number, stationId: number): Promise<ReserveStatusRecord> {
    const now = this.clock.now();
    return this.db
      .transaction(async (tx) => {
        const station = await this.station(tx, stationId);
        if (!station) throw new Refusal(404, 404, NOT_FOUND_STATION);
        if (isMaintenanceStatus(station.station_status))
          throw new Refusal(200, PLAY_ERROR.maintenance.code, PLAY_ERROR.maintenance.info, {
            station_id: station.station_id,
          });
        await this.gate.check(tx, userId, { station_id: station.station_id, type: station.type }, 'view', now);
        const settingId = await activeSetting(tx, station.station_id);
        const left = await tx.query<{ station_id: number }>(
          'UPDATE station_visits SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL AND station_setting_id <> $3 RETURNING station_id',
          [userId, now.toISOString(), settingId],
        );
        const [open] = await tx.query(
          'UPDATE station_visits SET last_seen_at = $2 WHERE user_id = $1 AND ended_at IS NULL RETURNING visit_id',
          [userId, now.toISOString()],
        );
        if (!open) {
          await tx.query(
            'INSERT INTO station_visits (user_id, station_id, station_setting_id, started_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)',
            [userId, station.station_id, settingId, now.toISOString()],
          );
        }
        const changed = [...new Set([...left.map((l) => l.station_id), ...(open ? [] : [station.station_id])])];
        return { record: await this.record(tx, { ...station, station_setting_id: settingId }, userId, now), changed };
      })
      .then(({ record, changed }) => {
        if (changed.length > 0) this.viewersChanged(changed);
        return record;
      });
  }

  /**
   * The caller's place and play info once the station's room took their place [R3-5] (it may
   * already hold the turn, with its window from now).
   */
  async reserved(
    userId: number,
    stationId: number,
  ): Promise<{ reserve_info: ReserveStatusRecord; play_info: PlayInfo }> {
    const answeredAt = this.clock.now();
    const mine = await this.activeReservation(this.db, userId, stationId);
    const station = await this.station(this.db, stationId);
    if (!mine || !station) throw new Error(`the reservation of user ${userId} at station ${stationId} vanished`);
    return {
      reserve_info: await this.record(this.db, station, userId, answeredAt),
      play_info: await this.playInfo(mine, answeredAt),
    };
  }

  /** Stops watching a station setting; 404 when the caller is not watching it. */
  async cancelVisit(
    userId: number,
    stationSettingId: number,
  ): Promise<{ station_setting_id: number; visit_count: number }> {
    const now = this.clock.now();
    const [row] = await this.db.query<{ station_id: number }>(
      'UPDATE station_visits SET ended_at = $3 WHERE user_id = $1 AND station_setting_id = $2 AND ended_at IS NULL RETURNING station_id',
      [userId, stationSettingId, now.toISOString()],
    );
    if (!row) throw new Refusal(404, 404, NOT_FOUND_VISIT);
    this.viewersChanged([row.station_id]);
    const [count] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM station_visits WHERE station_id = $1 AND ended_at IS NULL',
      [row.station_id],
    );
    return { station_setting_id: stationSettingId, visit_count: count?.n ?? 0 };
  }

  /** The stations the caller is playing or reserving, as play info [R3-7]. */
  async playing(userId: number): Promise<PlayInfo[]> {
    const mine = await this.activeReservation(this.db, userId);
    return mine ? [await this.playInfo(mine, this.clock.now())] : [];
  }
}
