import { catchError, map, of, throwError, type Observable } from 'rxjs';
import type {
  CurrentPlay,
  ReservationCancelled,
  ReservationPort,
  ReserveFetch,
  ReserveOutcome,
  StationMaintenance,
  VipRefused,
  VisitCancelled,
  VisitOutcome,
} from '../../application';
import { STATION_MAINTENANCE_ERROR_CODE, vipOutcome } from '../../domain';
import {
  ENDPOINTS,
  getReserveResponseSchema,
  PLAY_ENDPOINTS,
  playingResponseSchema,
  reserveCancelResponseSchema,
  reserveResponseSchema,
  visitCancelResponseSchema,
  visitResponseSchema,
  type PlayInfo,
  type ReserveStatusRecord,
} from '../../contract';
import { toCurrentPlay, toStationReserveInfo } from '../wire/play-wire';
import { InvalidResponseError, isPostResponseError } from './errors';
import type { KyHttpClient } from './ky-http-client';

/**
 * The outcomes of a play call the player must see, as values: 531 marks the station as maintenance
 * [R4.3-6]; 569, 570 and 571 carry the domain's VIP popup [R8-2, R8-3, R8-4] (these calls need a
 * signed-in user, so the 569 button is 'VIP対象になる'). Anything else stays an error.
 */
export function playRefusalOutcome(
  error: unknown,
  stationId: number | null,
  vip: boolean,
): StationMaintenance | VipRefused | null {
  if (!isPostResponseError(error)) return null;
  if (error.code === STATION_MAINTENANCE_ERROR_CODE) {
    // The answer names the station, so a fetch that named none still learns which one [R4.3-6].
    const named = (error.detail.response as { station_id?: unknown }).station_id;
    return {
      kind: 'stationMaintenance',
      stationId: stationId ?? (typeof named === 'number' && named > 0 ? named : null),
      message: error.info,
    };
  }
  const outcome = vip ? vipOutcome(error.code, true) : null;
  return outcome ? { kind: 'vipRefused', outcome } : null;
}

function outcomeOr<T>(stationId: number) {
  return catchError<T, Observable<T | StationMaintenance | VipRefused>>((error: unknown) => {
    const outcome = playRefusalOutcome(error, stationId, true);
    return outcome ? of(outcome) : throwError(() => error);
  });
}

/**
 * The get_reserve answer as the port's ReserveFetch (a record naming no station is 'none'); a 531
 * becomes the stationMaintenance value.
 */
export function toReserveFetch(stationId: number | null) {
  return (answer$: Observable<{ readonly reserve_info: ReserveStatusRecord }>): Observable<ReserveFetch> =>
    answer$.pipe(
      map((a): ReserveFetch => {
        const info = toStationReserveInfo(a.reserve_info);
        return info ? { kind: 'reservation', info } : { kind: 'none' };
      }),
      catchError((error: unknown) => {
        const outcome = playRefusalOutcome(error, stationId, false);
        return outcome?.kind === 'stationMaintenance' ? of(outcome) : throwError(() => error);
      }),
    );
}

/** The visit answer as the port's VisitOutcome; 531 and the VIP refusals become values. */
export function toVisitOutcome(stationId: number) {
  return (answer$: Observable<{ readonly reserve_info: ReserveStatusRecord }>): Observable<VisitOutcome> =>
    answer$.pipe(
      map((a): VisitOutcome => ({ kind: 'watching', info: requireRecord(a.reserve_info, 'visit') })),
      outcomeOr<VisitOutcome>(stationId),
    );
}

/** The reserve answer as the port's ReserveOutcome; 531 and the VIP refusals become values. */
export function toReserveOutcome(stationId: number) {
  return (
    answer$: Observable<{ readonly reserve_info: ReserveStatusRecord; readonly play_info: PlayInfo }>,
  ): Observable<ReserveOutcome> =>
    answer$.pipe(
      map((a): ReserveOutcome => ({
        kind: 'reserved',
        info: requireRecord(a.reserve_info, 'reserve'),
        play: toCurrentPlay(a.play_info),
      })),
      outcomeOr<ReserveOutcome>(stationId),
    );
}

/** Station reservation calls over HTTP: /v2/play/* (§7 and the designed visit and reserve) and /contents/playing. */
export class KyReservation implements ReservationPort {
  constructor(private readonly http: KyHttpClient) {}

  currentReservation(query: { readonly stationId?: number } = {}): Observable<ReserveFetch> {
    const body = query.stationId !== undefined ? { station_id: query.stationId } : {};
    return this.http
      .post(ENDPOINTS.getReserve, body, getReserveResponseSchema, 'get_reserve', { identity: 'required' })
      .pipe(toReserveFetch(query.stationId ?? null));
  }

  visit(stationId: number): Observable<VisitOutcome> {
    return this.http
      .post(PLAY_ENDPOINTS.visit, { station_id: stationId }, visitResponseSchema, 'visit', { identity: 'required' })
      .pipe(toVisitOutcome(stationId));
  }

  reserve(stationId: number, options: { readonly shopId?: number } = {}): Observable<ReserveOutcome> {
    const body = { station_id: stationId, ...(options.shopId !== undefined ? { shop_id: options.shopId } : {}) };
    return this.http
      .post(PLAY_ENDPOINTS.reserve, body, reserveResponseSchema, 'reserve', { identity: 'required' })
      .pipe(toReserveOutcome(stationId));
  }

  cancelReservation(query: {
    readonly stationSettingId: number;
    readonly shopId: number;
  }): Observable<ReservationCancelled> {
    const body = { shop_id: query.shopId, reserve_cancel: { station_setting_id: query.stationSettingId } };
    return this.http
      .post(ENDPOINTS.reserveCancel, body, reserveCancelResponseSchema, 'reserve_cancel', { identity: 'required' })
      .pipe(map((a) => a.reserve_cancel));
  }

  cancelVisit(stationSettingId: number): Observable<VisitCancelled> {
    return this.http
      .post(
        ENDPOINTS.visitCancel,
        { station_setting_id: stationSettingId },
        visitCancelResponseSchema,
        'visit_cancel',
        { identity: 'required' },
      )
      .pipe(map((a) => a.visit_cancel));
  }

  currentPlays(): Observable<readonly CurrentPlay[]> {
    return this.http
      .post(ENDPOINTS.playing, {}, playingResponseSchema, 'playing', { identity: 'required' })
      .pipe(map((a) => a.list.map(toCurrentPlay)));
  }
}

/** visit and reserve always answer the named station's record; an empty one breaks the contract. */
function requireRecord(record: ReserveStatusRecord, context: string) {
  const info = toStationReserveInfo(record);
  if (!info) throw new InvalidResponseError(context, 'reserve_info: names no station');
  return info;
}
