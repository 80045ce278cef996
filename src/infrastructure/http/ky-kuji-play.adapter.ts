import { map, type Observable } from 'rxjs';
import type { KujiBoxRef, KujiPlayPort, KujiReservationRef } from '../../application';
import type { KujiPlayInfo } from '../../domain';
import {
  ENDPOINTS, kujiPollingResponseSchema, kujiReserveCancelResponseSchema, kujiReserveResponseSchema, kujiStatusCheckResponseSchema,
  PLAY_ENDPOINTS,
} from '../../contract';
import type { KyHttpClient } from './ky-http-client';

/** The body that names one kuji reservation (kuji_polling, kuji_reserve_cancel). */
export function kujiReservationBody(ref: KujiReservationRef): { reserve_token: string; kuji_id: number; box_id: number } {
  return { reserve_token: ref.reserveToken, kuji_id: ref.kujiId, box_id: ref.boxId };
}

/** Kuji play calls over HTTP: /play/kuji_* (§7) and the designed /play/kuji_reserve. */
export class KyKujiPlay implements KujiPlayPort {
  constructor(private readonly http: KyHttpClient) {}

  currentKujiReservation(): Observable<KujiPlayInfo | null> {
    return this.http.post(ENDPOINTS.kujiStatusCheck, {}, kujiStatusCheckResponseSchema, 'kuji_status_check', { identity: 'required' }).pipe(map((a) => a.play_info));
  }

  reserveKuji(box: KujiBoxRef): Observable<KujiPlayInfo> {
    return this.http.post(PLAY_ENDPOINTS.kujiReserve, { kuji_id: box.kujiId, box_id: box.boxId }, kujiReserveResponseSchema, 'kuji_reserve', { identity: 'required' })
      .pipe(map((a) => a.play_info));
  }

  pollKuji(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return this.http.post(ENDPOINTS.kujiPolling, kujiReservationBody(ref), kujiPollingResponseSchema, 'kuji_polling', { identity: 'required' })
      .pipe(map((a) => a.polling.play_info));
  }

  cancelKujiReservation(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return this.http.post(ENDPOINTS.kujiReserveCancel, kujiReservationBody(ref), kujiReserveCancelResponseSchema, 'kuji_reserve_cancel', { identity: 'required' })
      .pipe(map((a) => a.play_info));
  }
}
