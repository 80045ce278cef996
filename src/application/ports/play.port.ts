import type { Observable } from 'rxjs';
import type { AssistGaugeView, PlayLogEntry, PlayView, SettingsVersion, StationInfo } from '../../domain';
import type { StationMaintenance, VipRefused } from './reservation.port';

/** Station info, or the outcome a player must see instead (VIP-only station: 569). */
export type StationInfoOutcome =
  { readonly kind: 'info'; readonly info: StationInfo } | StationMaintenance | VipRefused;

/** A page of a station's published settings history [R11-6]. */
export interface SettingsHistoryPage {
  readonly stationId: number;
  /** The version in force now (0: none published yet). */
  readonly currentVersion: number;
  readonly list: readonly SettingsVersion[];
  readonly page: number;
  readonly hasMore: boolean;
  /** The staff assists answered at the station, newest first (the first page) [R11-9]. */
  readonly assists: readonly StationAssistRecord[];
}

/** A staff assist as a station's public history shows it (no player named) [R11-9]. */
export interface StationAssistRecord {
  readonly outcome: 'done' | 'declined' | 'lapsed';
  readonly misses: number;
  readonly asked_at: string;
  readonly ended_at: string;
}

export interface PlayHistoryPage {
  readonly list: readonly PlayLogEntry[];
  readonly page: number;
  readonly hasMore: boolean;
}

/**
 * The play loop's calls (docs/play.md). Cold observables that emit once and complete; refusals
 * error with their error_code and Japanese error_info (402 too little TC, 409 not now, 403 not
 * yours). `stationInfo` works for guests too (normal stations).
 */
export interface PlayPort {
  /** Where a station's feeds are and each camera's luminance [R3-2]. */
  stationInfo(stationId: number): Observable<StationInfoOutcome>;
  /** Takes the turn: the play is charged and the claw resets. */
  confirm(stationId: number): Observable<PlayView>;
  /** The caller's play on any machine, or null. */
  current(): Observable<PlayView | null>;
  /** Plays again within the continue window (charged again). */
  continuePlay(playId: number): Observable<PlayView>;
  /** Ends the turn after a result. */
  finish(playId: number): Observable<void>;
  /** Asks for a staff assist after a miss: the play, its turn held for the staff [R11-9]. */
  askAssist(playId: number): Observable<PlayView>;
  /** The caller's assist gauge at a station. */
  gauge(stationId: number): Observable<AssistGaugeView>;
  /** The caller's play log, newest first. */
  history(page?: number): Observable<PlayHistoryPage>;
  /** A station's settings history, for anyone (signed in or not) [R11-6]. */
  settingsHistory(stationId: number, page?: number): Observable<SettingsHistoryPage>;
}
