import { firstValueFrom, NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ScriptedReservation, UnscriptedCallError, aStationReserveInfo } from '../../src/testing';

describe('scripted port doubles', () => {
  it('answer queued answers first, then the fixed one, and record every call with its arguments', async () => {
    const reservation = new ScriptedReservation();
    const info = aStationReserveInfo({ reserve_num: 1 });
    reservation
      .answer('visit', {
        value: { kind: 'stationMaintenance', stationId: 7, message: 'このステーションは現在メンテナンス中です。' },
      })
      .always('visit', { kind: 'watching', info });
    expect(await firstValueFrom(reservation.port.visit(7))).toMatchObject({ kind: 'stationMaintenance', stationId: 7 });
    expect(await firstValueFrom(reservation.port.visit(8))).toEqual({ kind: 'watching', info });
    expect(reservation.callsOf('visit')).toEqual([[7], [8]]);
    expect(reservation.calls.map((c) => c.method)).toEqual(['visit', 'visit']);
  });

  it('fail with the scripted error, pass a scripted observable through, and refuse an unscripted call', async () => {
    const reservation = new ScriptedReservation();
    const offline = new Error('offline');
    reservation.answer('currentPlays', { error: offline }, { observable: NEVER });
    await expect(firstValueFrom(reservation.port.currentPlays())).rejects.toBe(offline);
    expect(reservation.port.currentPlays()).toBe(NEVER);
    await expect(firstValueFrom(reservation.port.currentPlays())).rejects.toBeInstanceOf(UnscriptedCallError);
    await expect(firstValueFrom(reservation.port.cancelVisit(3))).rejects.toThrow(
      'ReservationPort.cancelVisit was called with no answer scripted',
    );
  });
});
