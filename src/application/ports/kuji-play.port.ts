import type { Observable } from 'rxjs';
import type { KujiDrawCount, KujiDrawResult, KujiFairnessRecord, KujiPlayInfo } from '../../domain';

/** How many tickets one draw takes (the domain's). */
export type { KujiDrawCount };

/** A box of a kuji to join. */
export interface KujiBoxRef {
  readonly kujiId: number;
  readonly boxId: number;
}

/** The caller's kuji reservation, named as the server knows it. */
export interface KujiReservationRef extends KujiBoxRef {
  readonly reserveToken: string;
}

/**
 * Kuji draws for the signed-in user: join a box's line, follow it, give it up. Every answer is the
 * kuji play info of spec §3 [R3-8]; reserve_remaintime is computed by the server from play_at
 * [R4.4-5]. Cold observables that emit once and complete; refusals error with their error_code and
 * Japanese error_info (404 not found, 409 box not on sale / a kuji already reserved / ended).
 */
export interface KujiPlayPort {
  /** The caller's active kuji reservation, or null (POST /play/kuji_status_check). */
  currentKujiReservation(): Observable<KujiPlayInfo | null>;
  /** Joins a box's line: the holder (firstReserved) at once on an idle box, else reserve (POST /play/kuji_reserve). */
  reserveKuji(box: KujiBoxRef): Observable<KujiPlayInfo>;
  /** The reservation's state now, ended ones included so the client stops (POST /play/kuji_polling). */
  pollKuji(ref: KujiReservationRef): Observable<KujiPlayInfo>;
  /** Gives the place up; a holder's turn passes to the next in line (POST /play/kuji_reserve_cancel). */
  cancelKujiReservation(ref: KujiReservationRef): Observable<KujiPlayInfo>;
  /**
   * The holder draws `count` tickets, or every one left (POST /play/kuji_draw). `requestId` makes a
   * resend safe: the same id never draws twice and answers the first draw. 402 when TC is short.
   */
  drawKuji(
    ref: KujiReservationRef,
    count: KujiDrawCount,
    requestId: string,
  ): Observable<{ readonly draw: KujiDrawResult; readonly playInfo: KujiPlayInfo }>;
  /** A box's fairness record: commitment, draws, and the seed once the box ended (POST /contents/kuji_fairness). */
  kujiFairness(boxId: number): Observable<KujiFairnessRecord>;
}
