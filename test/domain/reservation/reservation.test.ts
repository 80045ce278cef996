import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canResume,
  decideReservePoll,
  DOMAIN_MESSAGES,
  isMaintenanceStatus,
  isReserveStatus,
  isReserving,
  markedMaintenance,
  RESERVE_STATUSES,
  STATION_STATUSES,
  type ReservationContext,
} from '../../../src/domain';
import { aPlayInfo, aReserveRecord } from '../../../src/testing';

const ctx: ReservationContext = { station_id: 5, station_setting_id: 50, viewingStationSettingId: 50 };
const statusOrNull = fc.constantFrom(...RESERVE_STATUSES, null);

describe('reservation statuses', () => {
  it('[R4.3-1] the reserve statuses are reserve, playTransition, playWaiting, cancel, change', () => {
    expect(RESERVE_STATUSES).toEqual(['reserve', 'playTransition', 'playWaiting', 'cancel', 'change']);
    expect(isReserveStatus('playWaiting')).toBe(true);
    expect(isReserveStatus('playing')).toBe(false);
  });

  it('[R4.3-2] reserving = is_reserve set, or status reserve, playTransition or playWaiting', () => {
    fc.assert(
      fc.property(fc.boolean(), statusOrNull, (is_reserve, reserve_status) => {
        const expected =
          is_reserve ||
          reserve_status === 'reserve' ||
          reserve_status === 'playTransition' ||
          reserve_status === 'playWaiting';
        expect(isReserving({ is_reserve, reserve_status })).toBe(expected);
      }),
    );
  });

  it('[R4.3-4] stop, maintenance, force_maintenance, adjusting and malfunction count as maintenance; change and open do not', () => {
    const maintenance = STATION_STATUSES.filter(isMaintenanceStatus);
    expect(maintenance).toEqual(['stop', 'maintenance', 'force_maintenance', 'adjusting', 'malfunction']);
    expect(STATION_STATUSES).toContain('change');
    expect(isMaintenanceStatus('change')).toBe(false);
  });

  it('[R4.3-8] resume is possible with a station in play info and a status other than reserve/playTransition', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 999 })), statusOrNull, (station_id, reserve_status) => {
        const expected = station_id !== null && reserve_status !== 'reserve' && reserve_status !== 'playTransition';
        expect(canResume(aPlayInfo({ station_id, reserve_status }))).toBe(expected);
      }),
    );
  });
});

describe('reserve polling decisions', () => {
  it('[R4.3-3] cancel or change: stop polling, cancelled popup, cancel the reservation', () => {
    for (const reserve_status of ['cancel', 'change'] as const) {
      const d = decideReservePoll(aReserveRecord({ reserve_status }), ctx);
      expect(d).toEqual({
        kind: 'cancelled',
        effects: [
          { type: 'stopPolling' },
          { type: 'showPopup', alert: 'reservedStationCancelled', message: DOMAIN_MESSAGES.reservedStationCancelled },
          { type: 'cancelReservation', station_setting_id: 50 },
        ],
      });
    }
  });

  it('[R4.3-3] a visit cancel follows when the user is viewing another station', () => {
    const d = decideReservePoll(aReserveRecord({ reserve_status: 'change' }), { ...ctx, viewingStationSettingId: 77 });
    expect(d.kind !== 'continue' && d.effects.at(-1)).toEqual({ type: 'visitCancel', station_setting_id: 50 });
    const away = decideReservePoll(aReserveRecord({ reserve_status: 'cancel' }), {
      ...ctx,
      viewingStationSettingId: null,
    });
    expect(away.kind !== 'continue' && away.effects.some((e) => e.type === 'visitCancel')).toBe(false);
  });

  it('[R4.3-5] maintenance on the reserved station: stop polling, alert, cancel the reservation', () => {
    for (const station_status of ['stop', 'maintenance', 'force_maintenance', 'adjusting', 'malfunction'] as const) {
      expect(decideReservePoll(aReserveRecord({ station_status }), ctx)).toEqual({
        kind: 'maintenance',
        effects: [
          { type: 'stopPolling' },
          {
            type: 'showAlert',
            alert: 'reservedStationMaintenance',
            message: DOMAIN_MESSAGES.reservedStationMaintenance,
          },
          { type: 'cancelReservation', station_setting_id: 50 },
        ],
      });
    }
  });

  it('[R4.3-6] the station a 531 names becomes maintenance on its card; another station and the original stay as they were', () => {
    const station = { station_id: 5, station_status: 'open', prize_name: 'もちもちうさぎ' };
    expect(markedMaintenance(station, 5)).toEqual({
      station_id: 5,
      station_status: 'maintenance',
      prize_name: 'もちもちうさぎ',
    });
    expect(markedMaintenance(station, 6)).toBe(station);
    expect(station.station_status).toBe('open');
  });

  it('[R4.3-7] a status that leaves reserve/playTransition stops polling, resets play info and shows the reload-error alert', () => {
    for (const reserve_status of ['playWaiting', null] as const) {
      expect(decideReservePoll(aReserveRecord({ reserve_status }), ctx)).toEqual({
        kind: 'lost',
        effects: [
          { type: 'stopPolling' },
          { type: 'resetPlayInfo' },
          { type: 'showAlert', alert: 'reloadError', message: DOMAIN_MESSAGES.reloadError },
        ],
      });
    }
  });

  it('[R4.3-7] reserve and playTransition on an open station keep polling with the new record', () => {
    for (const reserve_status of ['reserve', 'playTransition'] as const) {
      const record = aReserveRecord({ reserve_status, reserve_num: 1 });
      expect(decideReservePoll(record, ctx)).toEqual({ kind: 'continue', record });
    }
  });
});
