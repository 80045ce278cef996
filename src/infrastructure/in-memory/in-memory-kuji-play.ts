import { map, type Observable } from 'rxjs';
import type { KujiBoxRef, KujiPlayPort, KujiReservationRef } from '../../application';
import { kujiRemainingSeconds, type KujiPlayInfo } from '../../domain';
import {
  ENDPOINTS, KUJI_REMAIN_MAX_SECONDS, kujiPollingRequestSchema, kujiPollingResponseSchema, kujiReserveCancelRequestSchema,
  kujiReserveCancelResponseSchema, kujiReserveRequestSchema, kujiReserveResponseSchema, kujiStatusCheckRequestSchema,
  kujiStatusCheckResponseSchema, PLAY_ENDPOINTS, type KujiPlayInfo as WireKujiPlayInfo,
} from '../../contract';
import { kujiReservationBody } from '../http/ky-kuji-play.adapter';
import { answerInMemory } from './in-memory-answer';
import type { InMemoryCaller } from './in-memory-call';
import { InMemoryRefusal, type InMemoryBackend } from './in-memory-backend';
import { playStateOf, type InMemoryCatalogueData, type InMemoryPlayState, type KujiReservationRow } from './in-memory-play-state';

const ACTIVE = new Set(['reserve', 'firstReserved', 'confirm']);
const HOLDING = new Set(['firstReserved', 'confirm']);
const NOT_FOUND = 'くじの予約が見つかりませんでした。';
const ALREADY_HELD = 'すでに予約中のくじがあります。';

/**
 * Kuji reservations in memory with the reference server's rules: one active kuji reservation per
 * user, one holder per box (firstReserved at once on an idle box, the others wait as reserve),
 * places as ranks, the holder's turn passing on when the holder cancels, box statuses from the
 * play state, and the remaining time computed from play_at by the domain rule [R4.4-5].
 */
export class InMemoryKujiPlay implements KujiPlayPort {
  constructor(
    private readonly caller: InMemoryCaller,
    private readonly data?: InMemoryCatalogueData,
  ) {}

  private get backend(): InMemoryBackend {
    return this.caller.backend;
  }

  private get state(): InMemoryPlayState {
    return playStateOf(this.backend, this.data);
  }

  private info(row: KujiReservationRow): WireKujiPlayInfo {
    const nowMs = this.backend.now().getTime();
    const line = this.state.kujiReservations.filter((o) => o.box_id === row.box_id && ACTIVE.has(o.reserve_status));
    const reserveNum = !ACTIVE.has(row.reserve_status) ? 0
      : line.filter((o) => HOLDING.has(o.reserve_status) || (o.reserve_status === 'reserve' && row.reserve_status === 'reserve' && o.queued_seq <= row.queued_seq)).length;
    const remaining = row.play_at_ms === null ? null
      : kujiRemainingSeconds({ status: row.reserve_status, playAtMs: row.play_at_ms, nowMs, limits: KUJI_REMAIN_MAX_SECONDS, polling: true });
    return {
      reserve_polling_id: row.kuji_play_reserve_id,
      kuji_play_reserve_id: row.kuji_play_reserve_id,
      reserve_token: row.reserve_token,
      reserve_num: reserveNum,
      reserve_status: row.reserve_status,
      kuji_id: row.kuji_id,
      box_id: row.box_id,
      box_status: this.state.boxStatus.get(row.box_id) ?? 'deleted',
      reserve_remaintime: remaining ?? 0,
      play_at: row.play_at_ms === null ? null : new Date(row.play_at_ms).toISOString(),
    };
  }

  private named(userId: number, ref: { reserve_token: string; kuji_id: number; box_id: number }): KujiReservationRow {
    const row = this.state.kujiReservations.find((r) => r.user_id === userId && r.reserve_token === ref.reserve_token && r.kuji_id === ref.kuji_id && r.box_id === ref.box_id);
    if (!row) throw new InMemoryRefusal(404, NOT_FOUND);
    return row;
  }

  currentKujiReservation(): Observable<KujiPlayInfo | null> {
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.kujiStatusCheck, context: 'kuji_status_check', identity: 'required', body: {},
      request: kujiStatusCheckRequestSchema, response: kujiStatusCheckResponseSchema,
      handle: (_b, caller) => {
        const row = this.state.kujiReservations.find((r) => r.user_id === caller!.user_id && ACTIVE.has(r.reserve_status));
        return { play_info: row ? this.info(row) : null };
      },
    }).pipe(map((a) => a.play_info));
  }

  reserveKuji(box: KujiBoxRef): Observable<KujiPlayInfo> {
    return answerInMemory(this.caller, {
      method: 'POST', path: PLAY_ENDPOINTS.kujiReserve, context: 'kuji_reserve', identity: 'required', body: { kuji_id: box.kujiId, box_id: box.boxId },
      request: kujiReserveRequestSchema, response: kujiReserveResponseSchema,
      handle: (b, caller) => {
        const userId = caller!.user_id;
        const kuji = this.state.kuji.find((k) => k.kuji_id === b.kuji_id);
        const found = kuji?.boxes.find((x) => x.box_id === b.box_id);
        const status = this.state.boxStatus.get(b.box_id);
        if (!kuji || !found || status === undefined || status === 'deleted') throw new InMemoryRefusal(404, 'くじが見つかりません。');
        const nowMs = this.backend.now().getTime();
        if (!(Date.parse(kuji.starts_at) <= nowMs && Date.parse(kuji.ends_at) > nowMs)) throw new InMemoryRefusal(409, 'このくじは販売期間外です。');
        if (status !== 'onSale') throw new InMemoryRefusal(409, 'このBOXは現在販売していません。');
        if (found.remaining_count <= 0) throw new InMemoryRefusal(409, 'このBOXの景品はすべてなくなりました。');
        if (this.state.kujiReservations.some((r) => r.user_id === userId && ACTIVE.has(r.reserve_status))) throw new InMemoryRefusal(409, ALREADY_HELD);
        const held = this.state.kujiReservations.some((r) => r.box_id === b.box_id && HOLDING.has(r.reserve_status));
        const row: KujiReservationRow = {
          kuji_play_reserve_id: this.state.next(), user_id: userId, kuji_id: b.kuji_id, box_id: b.box_id,
          reserve_status: held ? 'reserve' : 'firstReserved', reserve_token: this.state.token('kuji'), queued_seq: this.state.next(),
          play_at_ms: held ? null : nowMs,
        };
        this.state.kujiReservations.push(row);
        return { play_info: this.info(row) };
      },
    }).pipe(map((a) => a.play_info));
  }

  pollKuji(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.kujiPolling, context: 'kuji_polling', identity: 'required', body: kujiReservationBody(ref),
      request: kujiPollingRequestSchema, response: kujiPollingResponseSchema,
      handle: (b, caller) => ({ polling: { play_info: this.info(this.named(caller!.user_id, b)) } }),
    }).pipe(map((a) => a.polling.play_info));
  }

  cancelKujiReservation(ref: KujiReservationRef): Observable<KujiPlayInfo> {
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.kujiReserveCancel, context: 'kuji_reserve_cancel', identity: 'required', body: kujiReservationBody(ref),
      request: kujiReserveCancelRequestSchema, response: kujiReserveCancelResponseSchema,
      handle: (b, caller) => {
        const row = this.named(caller!.user_id, b);
        if (!ACTIVE.has(row.reserve_status)) throw new InMemoryRefusal(409, 'このくじの予約はすでに終了しています。');
        const wasHolder = HOLDING.has(row.reserve_status);
        row.reserve_status = 'cancel';
        if (wasHolder) {
          const next = this.state.kujiReservations
            .filter((r) => r.box_id === row.box_id && r.reserve_status === 'reserve')
            .sort((x, y) => x.queued_seq - y.queued_seq)[0];
          if (next) {
            next.reserve_status = 'firstReserved';
            next.play_at_ms = this.backend.now().getTime();
          }
        }
        return { play_info: this.info(row) };
      },
    }).pipe(map((a) => a.play_info));
  }
}
