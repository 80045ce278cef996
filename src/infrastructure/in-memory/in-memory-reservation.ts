import { map, type Observable } from 'rxjs';
import type {
  CurrentPlay, ReservationCancelled, ReservationPort, ReserveFetch, ReserveOutcome,
  VisitCancelled, VisitOutcome,
} from '../../application';
import { isMaintenanceStatus, vipGate, type TcPurchase } from '../../domain';
import {
  ENDPOINTS, getReserveRequestSchema, getReserveResponseSchema, PLAY_ENDPOINTS, PLAY_ERROR, playingRequestSchema, playingResponseSchema,
  reserveCancelRequestSchema, reserveCancelResponseSchema, reserveRequestSchema, reserveResponseSchema, visitCancelRequestSchema,
  visitCancelResponseSchema, visitRequestSchema, visitResponseSchema, type PlayInfo, type ReserveStatusRecord,
} from '../../contract';
import { toReserveFetch, toReserveOutcome, toVisitOutcome } from '../http/ky-reservation.adapter';
import { toCurrentPlay } from '../wire/play-wire';
import { answerInMemory } from './in-memory-answer';
import type { InMemoryCaller } from './in-memory-call';
import { InMemoryRefusal, type InMemoryBackend } from './in-memory-backend';
import {
  playStateOf, type InMemoryCatalogueData, type InMemoryPlayState, type InMemoryStation, type StationReservationRow,
} from './in-memory-play-state';

const ACTIVE = new Set(['reserve', 'playTransition', 'playWaiting']);
const NOT_FOUND_STATION = 'ステーションが見つかりません。';
const NOT_FOUND_RESERVATION = '予約が見つかりません。';
const NOT_FOUND_VISIT = '視聴中のステーションが見つかりません。';
const HELD_HERE = 'すでにこのステーションを予約しています。';
const HELD_ELSEWHERE = 'ほかのステーションを予約中です。予約を取り消してからお試しください。';

const EMPTY_RECORD: ReserveStatusRecord = {
  station_id: 0, station_setting_id: 0, station_status: null, visit_count: 0, reserve_count: 0, reserve_status: null,
  reserve_token: '', reserve_num: 0, reserve_time: 0, play_reserve_id: 0, playing: 0, viewable: 0, request_flag: 0, request_type: 0,
};

function strip(s: InMemoryStation) {
  const { shop_id: _shop, character_id: _c, sub_character_id: _s, gift_type: _g, stock: _st, recommend: _r, ...item } = s;
  return item;
}

/**
 * Station reservations in memory with the reference server's rules: identity checked by the backend,
 * each user sees only their own reservation, one active reservation per user, places in line as
 * ranks (a cancellation ahead moves everyone up), 531 for a station in maintenance, the VIP gate of
 * the domain (569/570/571) reading TC purchases from the backend's ledger and wins from the state.
 */
export class InMemoryReservation implements ReservationPort {
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

  private station(stationId: number): InMemoryStation {
    const station = this.state.stations.get(stationId);
    if (!station) throw new InMemoryRefusal(404, NOT_FOUND_STATION);
    return station;
  }

  private active(userId: number, stationId?: number): StationReservationRow | undefined {
    return this.state.reservations.find((r) => r.user_id === userId && ACTIVE.has(r.reserve_status) && (stationId === undefined || r.station_id === stationId));
  }

  private placeInLine(row: StationReservationRow): number {
    return this.state.reservations.filter((o) => o.station_id === row.station_id && ACTIVE.has(o.reserve_status) && o.queued_seq <= row.queued_seq).length;
  }

  private qualifiesForVip(userId: number): boolean {
    return vipGate({ station: { type: 'vip' }, action: 'view', userId, purchases: this.purchases(userId), vipWinsAtMs: [], occupiedByUserId: null, nowMs: this.backend.now().getTime() }) === 200;
  }

  private purchases(userId: number): TcPurchase[] {
    return this.backend.ledger
      .filter((r) => r.user_id === userId && r.kind === 'toll' && r.reason === 'purchase' && r.amount > 0)
      .map((r) => ({ toll_tc: r.amount, purchasedAtMs: Date.parse(r.created_at) }));
  }

  /** The VIP gate [R6-3, R6-4, R6-5]; throws the server's refusal. */
  private gate(userId: number, station: InMemoryStation, action: 'view' | 'play'): void {
    const occupant = this.state.reservations.find((r) => r.station_id === station.station_id && r.user_id !== userId && ACTIVE.has(r.reserve_status));
    const code = vipGate({
      station, action, userId, purchases: this.purchases(userId),
      vipWinsAtMs: this.state.vipWins.filter((w) => w.user_id === userId).map((w) => w.won_at_ms),
      occupiedByUserId: occupant?.user_id ?? null, nowMs: this.backend.now().getTime(),
    });
    if (code === PLAY_ERROR.vipOnly.code) throw new InMemoryRefusal(code, PLAY_ERROR.vipOnly.info);
    if (code === PLAY_ERROR.vipWeeklyWon.code) throw new InMemoryRefusal(code, PLAY_ERROR.vipWeeklyWon.info);
    if (code === PLAY_ERROR.exclusiveInUse.code) throw new InMemoryRefusal(code, PLAY_ERROR.exclusiveInUse.info);
  }

  private refuseMaintenance(station: InMemoryStation): void {
    if (isMaintenanceStatus(station.station_status)) throw new InMemoryRefusal(PLAY_ERROR.maintenance.code, PLAY_ERROR.maintenance.info, { station_id: station.station_id });
  }

  private record(station: InMemoryStation, userId: number): ReserveStatusRecord {
    const lines = this.state.reservations.filter((r) => r.station_id === station.station_id && ACTIVE.has(r.reserve_status));
    const mine = this.active(userId, station.station_id);
    const viewable = !isMaintenanceStatus(station.station_status) && (station.type === 'normal' || this.qualifiesForVip(userId));
    return {
      station_id: station.station_id,
      station_setting_id: this.state.settings.get(station.station_id) ?? 0,
      station_status: station.station_status,
      visit_count: this.state.visits.filter((v) => v.station_id === station.station_id && !v.ended).length,
      reserve_count: lines.length,
      reserve_status: mine?.reserve_status ?? null,
      reserve_token: mine?.reserve_token ?? '',
      reserve_num: mine ? this.placeInLine(mine) : 0,
      reserve_time: 0,
      play_reserve_id: mine?.play_reserve_id ?? 0,
      playing: lines.some((r) => r.reserve_status === 'playWaiting') ? 1 : 0,
      viewable: viewable ? 1 : 0,
      request_flag: 0,
      request_type: 0,
    };
  }

  private playInfo(row: StationReservationRow): PlayInfo {
    const station = this.station(row.station_id);
    return {
      reserve_polling_id: row.play_reserve_id,
      station_id: row.station_id,
      station_setting_id: row.station_setting_id,
      reserve_status: row.reserve_status,
      is_reserve: 1,
      reserve_num: this.placeInLine(row),
      reserve_token: row.reserve_token,
      reserve_remaintime: 0,
      station_status: station.station_status,
      designated_type: station.designated_type,
      station_data: strip(station),
    };
  }

  currentReservation(query: { readonly stationId?: number } = {}): Observable<ReserveFetch> {
    const body = query.stationId !== undefined ? { station_id: query.stationId } : {};
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.getReserve, context: 'get_reserve', identity: 'required', body,
      request: getReserveRequestSchema, response: getReserveResponseSchema,
      handle: (b, caller) => {
        const userId = caller!.user_id;
        let station: InMemoryStation;
        if (b.station_id !== undefined) station = this.station(b.station_id);
        else {
          const mine = this.active(userId);
          const reserved = mine ? this.state.stations.get(mine.station_id) : undefined;
          if (!reserved) return { reserve_info: EMPTY_RECORD };
          station = reserved;
        }
        this.refuseMaintenance(station);
        return { reserve_info: this.record(station, userId) };
      },
    }).pipe(toReserveFetch(query.stationId ?? null));
  }

  visit(stationId: number): Observable<VisitOutcome> {
    return answerInMemory(this.caller, {
      method: 'POST', path: PLAY_ENDPOINTS.visit, context: 'visit', identity: 'required', body: { station_id: stationId },
      request: visitRequestSchema, response: visitResponseSchema,
      handle: (b, caller) => {
        const userId = caller!.user_id;
        const station = this.station(b.station_id);
        this.refuseMaintenance(station);
        this.gate(userId, station, 'view');
        const settingId = this.state.settings.get(station.station_id)!;
        for (const v of this.state.visits) if (v.user_id === userId && !v.ended && v.station_setting_id !== settingId) v.ended = true;
        if (!this.state.visits.some((v) => v.user_id === userId && !v.ended)) {
          this.state.visits.push({ user_id: userId, station_id: station.station_id, station_setting_id: settingId, ended: false });
        }
        return { reserve_info: this.record(station, userId) };
      },
    }).pipe(toVisitOutcome(stationId));
  }

  reserve(stationId: number, options: { readonly shopId?: number } = {}): Observable<ReserveOutcome> {
    const body = { station_id: stationId, ...(options.shopId !== undefined ? { shop_id: options.shopId } : {}) };
    return answerInMemory(this.caller, {
      method: 'POST', path: PLAY_ENDPOINTS.reserve, context: 'reserve', identity: 'required', body,
      request: reserveRequestSchema, response: reserveResponseSchema,
      handle: (b, caller) => {
        const userId = caller!.user_id;
        const station = this.station(b.station_id);
        if (b.shop_id !== undefined && station.shop_id !== b.shop_id) throw new InMemoryRefusal(404, NOT_FOUND_STATION);
        this.refuseMaintenance(station);
        if (station.station_status === 'change') throw new InMemoryRefusal(409, '景品の入れ替え中のため、ただいま予約できません。');
        if (station.stock <= 0) throw new InMemoryRefusal(409, '景品が品切れのため予約できません。');
        this.gate(userId, station, 'play');
        const held = this.active(userId);
        if (held) throw new InMemoryRefusal(409, held.station_id === station.station_id ? HELD_HERE : HELD_ELSEWHERE);
        const row: StationReservationRow = {
          play_reserve_id: this.state.next(), user_id: userId, station_id: station.station_id,
          station_setting_id: this.state.settings.get(station.station_id)!, reserve_status: 'reserve',
          reserve_token: this.state.token('rsv'), queued_seq: this.state.next(),
        };
        this.state.reservations.push(row);
        return { reserve_info: this.record(station, userId), play_info: this.playInfo(row) };
      },
    }).pipe(toReserveOutcome(stationId));
  }

  cancelReservation(query: { readonly stationSettingId: number; readonly shopId: number }): Observable<ReservationCancelled> {
    const body = { shop_id: query.shopId, reserve_cancel: { station_setting_id: query.stationSettingId } };
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.reserveCancel, context: 'reserve_cancel', identity: 'required', body,
      request: reserveCancelRequestSchema, response: reserveCancelResponseSchema,
      handle: (b, caller) => {
        const row = this.state.reservations.find((r) => r.user_id === caller!.user_id && r.station_setting_id === b.reserve_cancel.station_setting_id
          && ACTIVE.has(r.reserve_status) && this.state.stations.get(r.station_id)?.shop_id === b.shop_id);
        if (!row) throw new InMemoryRefusal(404, NOT_FOUND_RESERVATION);
        row.reserve_status = 'cancel';
        return { reserve_cancel: { play_reserve_id: row.play_reserve_id, station_setting_id: row.station_setting_id, reserve_status: 'cancel' as const } };
      },
    }).pipe(map((a) => a.reserve_cancel));
  }

  cancelVisit(stationSettingId: number): Observable<VisitCancelled> {
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.visitCancel, context: 'visit_cancel', identity: 'required', body: { station_setting_id: stationSettingId },
      request: visitCancelRequestSchema, response: visitCancelResponseSchema,
      handle: (b, caller) => {
        const visit = this.state.visits.find((v) => v.user_id === caller!.user_id && v.station_setting_id === b.station_setting_id && !v.ended);
        if (!visit) throw new InMemoryRefusal(404, NOT_FOUND_VISIT);
        visit.ended = true;
        const left = this.state.visits.filter((v) => v.station_id === visit.station_id && !v.ended).length;
        return { visit_cancel: { station_setting_id: b.station_setting_id, visit_count: left } };
      },
    }).pipe(map((a) => a.visit_cancel));
  }

  currentPlays(): Observable<readonly CurrentPlay[]> {
    return answerInMemory(this.caller, {
      method: 'POST', path: ENDPOINTS.playing, context: 'playing', identity: 'required', body: {},
      request: playingRequestSchema, response: playingResponseSchema,
      handle: (_b, caller) => {
        const mine = this.active(caller!.user_id);
        return { list: mine ? [this.playInfo(mine)] : [] };
      },
    }).pipe(map((a) => a.list.map(toCurrentPlay)));
  }
}
