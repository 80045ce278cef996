import type { Observable } from 'rxjs';
import type {
  DesignatedType,
  PlayInfo,
  PrizeItem,
  ReserveStatus,
  ReserveStatusRecord,
  StationStatus,
  VipOutcome,
} from '../../domain';

/** The reserve status record of one station as the caller sees it [R3-5], with the station it describes. */
export interface StationReserveInfo extends ReserveStatusRecord {
  readonly station_id: number;
  readonly station_setting_id: number;
}

/** The caller's reservation as play info [R3-7]: every field known, the station as the catalogue lists it. */
export type CurrentPlay = PlayInfo & {
  readonly reserve_polling_id: number;
  readonly station_id: number;
  readonly station_setting_id: number;
  readonly reserve_status: ReserveStatus;
  readonly station_status: StationStatus;
  readonly designated_type: DesignatedType;
  readonly station_data: PrizeItem;
};

/**
 * The station is under maintenance: error 531 [R4.3-6]. `stationId` is the station asked about,
 * or null when the fetch named none (then it is the station the caller has reserved).
 */
export interface StationMaintenance {
  readonly kind: 'stationMaintenance';
  readonly stationId: number | null;
  readonly message: string;
}

/** A VIP gate refused (569, 570, 571) [R8-2, R8-3, R8-4]; `outcome` is the domain's popup decision. */
export interface VipRefused {
  readonly kind: 'vipRefused';
  readonly outcome: VipOutcome;
}

/** What POST /v2/play/get_reserve tells. */
export type ReserveFetch =
  | { readonly kind: 'reservation'; readonly info: StationReserveInfo }
  /** No station named and no reservation held. */
  | { readonly kind: 'none' }
  | StationMaintenance;

export type VisitOutcome =
  { readonly kind: 'watching'; readonly info: StationReserveInfo } | StationMaintenance | VipRefused;

export type ReserveOutcome =
  | { readonly kind: 'reserved'; readonly info: StationReserveInfo; readonly play: CurrentPlay }
  | StationMaintenance
  | VipRefused;

export interface ReservationCancelled {
  readonly play_reserve_id: number;
  readonly station_setting_id: number;
  readonly reserve_status: 'cancel';
}

export interface VisitCancelled {
  readonly station_setting_id: number;
  /** Viewers left on the station. */
  readonly visit_count: number;
}

/**
 * Watching, reserving and giving up a station, for the signed-in user (a guest is refused before
 * anything is sent). Cold observables that emit once and complete. The outcomes the player must
 * see (531 maintenance, VIP 569/570/571) are values; other refusals error with their error_code
 * and Japanese error_info (404 no such station or reservation, 409 not possible now, 401 identity).
 */
export interface ReservationPort {
  /** The record of the station named, else of the station the caller has reserved [R3-5, R4.3-6]. */
  currentReservation(query?: { readonly stationId?: number }): Observable<ReserveFetch>;
  /** Starts watching a station (ends watching any other). */
  visit(stationId: number): Observable<VisitOutcome>;
  /** Joins the station's line. */
  reserve(stationId: number, options?: { readonly shopId?: number }): Observable<ReserveOutcome>;
  /** Gives up the caller's place at a station setting. */
  cancelReservation(query: {
    readonly stationSettingId: number;
    readonly shopId: number;
  }): Observable<ReservationCancelled>;
  /** Stops watching a station setting. */
  cancelVisit(stationSettingId: number): Observable<VisitCancelled>;
  /** The stations the caller is playing or waiting for (POST /contents/playing) [R3-7]. */
  currentPlays(): Observable<readonly CurrentPlay[]>;
}
