import { catchError, map, of, throwError, type Observable } from 'rxjs';
import type {
  PlayHistoryPage,
  PlayPort,
  SessionPort,
  SettingsHistoryPage,
  StationInfoOutcome,
} from '../../application';
import { vipOutcome, type AssistGaugeView, type PlayView } from '../../domain';
import {
  errorResponseSchema,
  gaugeResponseSchema,
  historyResponseSchema,
  PLAY_LOOP_ENDPOINTS as P,
  playStateResponseSchema,
  settingsHistoryResponseSchema,
  stationInfoResponseSchema,
} from '../../contract';
import { InvalidResponseError, isPostResponseError } from './errors';
import type { KyHttpClient } from './ky-http-client';
import { playRefusalOutcome } from './ky-reservation.adapter';

/** The play loop's calls over HTTP (docs/play.md). */
export class KyPlay implements PlayPort {
  constructor(
    private readonly http: KyHttpClient,
    private readonly session: SessionPort,
  ) {}

  stationInfo(stationId: number): Observable<StationInfoOutcome> {
    return this.http.post(P.stationInfo, { station_id: stationId }, stationInfoResponseSchema, 'station_info').pipe(
      map((a): StationInfoOutcome => ({ kind: 'info', info: a.station_info })),
      catchError((error: unknown) => {
        // 569 on a VIP station: the popup, whose button is 'VIP対象になる' signed in and 'とじる' for a guest [R8-2].
        const vip = isPostResponseError(error) ? vipOutcome(error.code, this.session.current() !== null) : null;
        if (vip) return of<StationInfoOutcome>({ kind: 'vipRefused', outcome: vip });
        const outcome = playRefusalOutcome(error, stationId, false);
        return outcome ? of<StationInfoOutcome>(outcome) : throwError(() => error);
      }),
    );
  }

  confirm(stationId: number): Observable<PlayView> {
    return this.http
      .post(P.confirm, { station_id: stationId }, playStateResponseSchema, 'confirm', { identity: 'required' })
      .pipe(map((a) => requirePlay(a.play, 'confirm')));
  }

  current(): Observable<PlayView | null> {
    return this.http
      .post(P.current, {}, playStateResponseSchema, 'current', { identity: 'required' })
      .pipe(map((a) => a.play));
  }

  continuePlay(playId: number): Observable<PlayView> {
    return this.http
      .post(P.continue, { play_id: playId }, playStateResponseSchema, 'continue', { identity: 'required' })
      .pipe(map((a) => requirePlay(a.play, 'continue')));
  }

  finish(playId: number): Observable<void> {
    return this.http
      .post(P.finish, { play_id: playId }, errorResponseSchema, 'finish', { identity: 'required' })
      .pipe(map(() => undefined));
  }

  askAssist(playId: number): Observable<PlayView> {
    return this.http
      .post(P.assist, { play_id: playId }, playStateResponseSchema, 'assist', { identity: 'required' })
      .pipe(map((a) => requirePlay(a.play, 'assist')));
  }

  gauge(stationId: number): Observable<AssistGaugeView> {
    return this.http
      .post(P.gauge, { station_id: stationId }, gaugeResponseSchema, 'gauge', { identity: 'required' })
      .pipe(map((a) => a.gauge));
  }

  settingsHistory(stationId: number, page = 1): Observable<SettingsHistoryPage> {
    return this.http
      .post(P.settingsHistory, { station_id: stationId, page }, settingsHistoryResponseSchema, 'settings_history')
      .pipe(
        map(({ settings_history: h }) => ({
          stationId: h.station_id,
          currentVersion: h.current_version,
          list: h.list,
          page: h.page,
          hasMore: h.has_more === 1,
          assists: h.assists ?? [],
        })),
      );
  }

  history(page = 1): Observable<PlayHistoryPage> {
    return this.http
      .post(P.history, { page }, historyResponseSchema, 'history', { identity: 'required' })
      .pipe(map((a) => ({ list: a.history.list, page: a.history.page, hasMore: a.history.has_more === 1 })));
  }
}

function requirePlay(play: PlayView | null, context: string): PlayView {
  if (!play) throw new InvalidResponseError(context, 'play: missing');
  return play;
}
