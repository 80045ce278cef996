import type { DesignatedType, StationStatus } from '../catalogue/prize.entity';

/** Reserve statuses of a station reservation [R4.3-1]. */
export const RESERVE_STATUSES = ['reserve', 'playTransition', 'playWaiting', 'cancel', 'change'] as const;
export type ReserveStatus = (typeof RESERVE_STATUSES)[number];

/** Statuses in which the user is reserving [R4.3-2]. */
export const RESERVING_STATUSES: readonly ReserveStatus[] = ['reserve', 'playTransition', 'playWaiting'];

/** Statuses that keep the reserve polling alive [R4.3-7]. */
export const POLLED_RESERVE_STATUSES: readonly ReserveStatus[] = ['reserve', 'playTransition'];

/** Station statuses that count as maintenance [R4.3-4]. 'change' (prize change) and 'open' do not. */
export const MAINTENANCE_STATION_STATUSES: readonly StationStatus[] = [
  'stop',
  'maintenance',
  'force_maintenance',
  'adjusting',
  'malfunction',
];

export function isReserveStatus(value: unknown): value is ReserveStatus {
  return typeof value === 'string' && (RESERVE_STATUSES as readonly string[]).includes(value);
}

/** Whether a station status counts as maintenance [R4.3-4]. */
export function isMaintenanceStatus(status: StationStatus | string): boolean {
  return (MAINTENANCE_STATION_STATUSES as readonly string[]).includes(status);
}

/** Reserve status record (answer of POST /v2/play/get_reserve, spec §3) [R3-5]. */
export interface ReserveStatusRecord {
  readonly station_status: StationStatus;
  readonly visit_count: number;
  readonly reserve_count: number;
  readonly reserve_status: ReserveStatus | null;
  readonly reserve_token: string;
  /** Place in line; 1 = next. */
  readonly reserve_num: number;
  /** Seconds the current step has left. */
  readonly reserve_time: number;
  readonly play_reserve_id: number;
  readonly playing: 0 | 1;
  readonly viewable: 0 | 1;
  readonly request_flag: 0 | 1;
  readonly request_type: number;
}

/** Play info: the user's current station reservation (spec §3) [R3-7]. */
export interface PlayInfo {
  readonly reserve_polling_id: number | null;
  readonly station_id: number | null;
  readonly station_setting_id: number | null;
  readonly reserve_status: ReserveStatus | null;
  readonly is_reserve: boolean;
  readonly reserve_num: number;
  readonly reserve_token: string;
  readonly reserve_remaintime: number;
  readonly station_status: StationStatus | null;
  readonly designated_type: DesignatedType | null;
  /** The station as the catalogue shows it; shape owned by the catalogue. */
  readonly station_data: unknown;
}

/** The play info of a user with no reservation. */
export const EMPTY_PLAY_INFO: PlayInfo = {
  reserve_polling_id: null,
  station_id: null,
  station_setting_id: null,
  reserve_status: null,
  is_reserve: false,
  reserve_num: 0,
  reserve_token: '',
  reserve_remaintime: 0,
  station_status: null,
  designated_type: null,
  station_data: null,
};

/** The user is reserving when is_reserve is set or the status is reserve, playTransition or playWaiting [R4.3-2]. */
export function isReserving(info: Pick<PlayInfo, 'is_reserve' | 'reserve_status'>): boolean {
  return info.is_reserve || (info.reserve_status !== null && RESERVING_STATUSES.includes(info.reserve_status));
}

/** Resume is possible when play info has a station and the status is not reserve or playTransition [R4.3-8]. */
export function canResume(info: Pick<PlayInfo, 'station_id' | 'reserve_status'>): boolean {
  return (
    info.station_id !== null && (info.reserve_status === null || !POLLED_RESERVE_STATUSES.includes(info.reserve_status))
  );
}
