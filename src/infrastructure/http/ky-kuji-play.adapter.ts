import { map, type Observable } from 'rxjs';
import type { KujiBoxRef, KujiDrawCount, KujiPlayPort, KujiReservationRef } from '../../application';
import type { KujiDrawResult, KujiFairnessRecord, KujiPlayInfo } from '../../domain';
import {
  ENDPOINTS,
  kujiDrawResponseSchema,
  kujiFairnessResponseSchema,
  kujiPollingResponseSchema,
  kujiReserveCancelResponseSchema,
  kujiReserveResponseSchema,
  kujiStatusCheckResponseSchema,
  PLAY_ENDPOINTS,
} from '../../contract';
import type { KyHttpClient } from './ky-http-client';

/** The body that names one kuji reservation (kuji_polling, kuji_reserve_cancel). */
export function kujiReservationBody(ref: KujiReservationRef): {
  reserve_token: string;
  kuji_id: number;
  box_id: number;
} {
  return { reserve_token: ref.reserveToken, kuji_id: ref.kujiId, box_id: ref.boxId };
}

/** Kuji play calls over HTTP: /play/kuji_* (§7) and the designed /play/kuji_reserve. */
export class KyKujiPlay implements KujiPlayPort {
  constructor(private readonly http: KyHttpClient) {}

  currentKujiReservation(): Observable<KujiPlayInfo | null> {
    return this.http
      .post(ENDPOINTS.kujiStatusCheck, {}, kujiStatusCheckResponseSchema, 'kuji_status_check', { identity: 'required' })
      .pipe(map((a) => a.play_info));
  }

  reserveKuji(box: KujiBoxRef): Observable<KujiPlayInfo> {
    return this.http
      .post(
        PLAY_ENDPOINTS.kujiReserve,
        { kuji_id: box.kujiId, box_id: box.boxId },
        kujiReserveResponseSchema,
        'kuji_reserve',
        { identity: 'required' },
      )
      .pipe(map((a) => a.play_info));
  }

  pollKuji(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return this.http
      .post(ENDPOINTS.kujiPolling, kujiReservationBody(ref), kujiPollingResponseSchema, 'kuji_polling', {
        identity: 'required',
      })
      .pipe(map((a) => a.polling.play_info));
  }

  cancelKujiReservation(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return this.http
      .post(
        ENDPOINTS.kujiReserveCancel,
        kujiReservationBody(ref),
        kujiReserveCancelResponseSchema,
        'kuji_reserve_cancel',
        { identity: 'required' },
      )
      .pipe(map((a) => a.play_info));
  }

  drawKuji(
    ref: KujiReservationRef,
    count: KujiDrawCount,
    requestId: string,
  ): Observable<{ readonly draw: KujiDrawResult; readonly playInfo: KujiPlayInfo }> {
    return this.http
      .post(
        PLAY_ENDPOINTS.kujiDraw,
        { ...kujiReservationBody(ref), count, request_id: requestId },
        kujiDrawResponseSchema,
        'kuji_draw',
        { identity: 'required' },
      )
      .pipe(map((a) => ({ draw: a.draw, playInfo: a.play_info })));
  }

  kujiFairness(boxId: number): Observable<KujiFairnessRecord> {
    return this.http
      .post(PLAY_ENDPOINTS.kujiFairness, { box_id: boxId }, kujiFairnessResponseSchema, 'kuji_fairness', {
        identity: 'none',
      })
      .pipe(map((a) => a.fairness));
  }
}
