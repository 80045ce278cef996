import { RESERVE_POLLING_TIME, SECOND_MS } from '../constants';
import { DOMAIN_MESSAGES } from '../messages';
import { isMaintenanceStatus, POLLED_RESERVE_STATUSES, type ReserveStatusRecord } from './reservation.entity';

/** One step a use-case runs for a reservation decision, in the order given. */
export type ReservationEffect =
  | { readonly type: 'stopPolling' }
  | { readonly type: 'showPopup'; readonly alert: 'reservedStationCancelled'; readonly message: string }
  | {
      readonly type: 'showAlert';
      readonly alert: 'reservedStationMaintenance' | 'reloadError';
      readonly message: string;
    }
  /** POST /v2/play/reserve_cancel for this station setting. */
  | { readonly type: 'cancelReservation'; readonly station_setting_id: number }
  /** POST /v2/play/visit_cancel for this station setting. */
  | { readonly type: 'visitCancel'; readonly station_setting_id: number }
  | { readonly type: 'resetPlayInfo' };

/** The reservation being polled and what the user is looking at. */
export interface ReservationContext {
  readonly station_id: number;
  readonly station_setting_id: number;
  /** station_setting_id of the station page the user is on; null when on no station page. */
  readonly viewingStationSettingId: number | null;
}

export type ReservationDecision =
  | { readonly kind: 'continue'; readonly record: ReserveStatusRecord }
  | { readonly kind: 'cancelled' | 'maintenance' | 'lost'; readonly effects: readonly ReservationEffect[] };

/**
 * On status cancel or change [R4.3-3]: stop polling, the "reservation cancelled" popup, cancel the
 * reservation, and — when the user is on another station's page — a visit cancel for the reserved
 * station, whose visit would otherwise linger (on its own page the user is still watching it).
 */
export function cancelledReaction(ctx: ReservationContext): readonly ReservationEffect[] {
  const effects: ReservationEffect[] = [
    { type: 'stopPolling' },
    { type: 'showPopup', alert: 'reservedStationCancelled', message: DOMAIN_MESSAGES.reservedStationCancelled },
    { type: 'cancelReservation', station_setting_id: ctx.station_setting_id },
  ];
  if (ctx.viewingStationSettingId !== null && ctx.viewingStationSettingId !== ctx.station_setting_id) {
    effects.push({ type: 'visitCancel', station_setting_id: ctx.station_setting_id });
  }
  return effects;
}

/** Maintenance on the reserved station [R4.3-5]: stop polling, alert, cancel the reservation. */
export function maintenanceReaction(ctx: ReservationContext): readonly ReservationEffect[] {
  return [
    { type: 'stopPolling' },
    { type: 'showAlert', alert: 'reservedStationMaintenance', message: DOMAIN_MESSAGES.reservedStationMaintenance },
    { type: 'cancelReservation', station_setting_id: ctx.station_setting_id },
  ];
}

/**
 * Decides what one reserve-poll answer means. Checked in this order:
 * 1. the station status counts as maintenance → maintenance reaction [R4.3-4, R4.3-5]
 *    (checked first: when a station goes down the server also cancels, and the maintenance
 *    alert tells the player why);
 * 2. reserve_status cancel or change → cancelled reaction [R4.3-3];
 * 3. any status other than reserve or playTransition → stop polling, reset play info, reload-error
 *    alert [R4.3-7];
 * 4. otherwise keep polling with the new record.
 */
export function decideReservePoll(record: ReserveStatusRecord, ctx: ReservationContext): ReservationDecision {
  if (isMaintenanceStatus(record.station_status)) return { kind: 'maintenance', effects: maintenanceReaction(ctx) };
  if (record.reserve_status === 'cancel' || record.reserve_status === 'change') {
    return { kind: 'cancelled', effects: cancelledReaction(ctx) };
  }
  if (record.reserve_status === null || !POLLED_RESERVE_STATUSES.includes(record.reserve_status)) {
    return {
      kind: 'lost',
      effects: [
        { type: 'stopPolling' },
        { type: 'resetPlayInfo' },
        { type: 'showAlert', alert: 'reloadError', message: DOMAIN_MESSAGES.reloadError },
      ],
    };
  }
  return { kind: 'continue', record };
}

/** A station's card after a 531 on its poll: its status becomes 'maintenance' [R4.3-6]. */
export function markedMaintenance<S extends { readonly station_id: number; readonly station_status: string }>(
  station: S,
  stationId: number,
): S {
  return station.station_id === stationId ? { ...station, station_status: 'maintenance' } : station;
}

/** The reserve polling interval in ms, from RESERVE_POLLING_TIME seconds unless configured [R9-3]. */
export function reservePollingIntervalMs(seconds: number = RESERVE_POLLING_TIME): number {
  return seconds * SECOND_MS;
}
