import { expect } from 'vitest';
import { getReserveResponseSchema, playStateResponseSchema, type PlayState } from '../../src/contract';
import { CRANE } from '../../src/domain/play/crane-machine';

/** A player's POST calls (`path`, body without the identity) answering the JSON envelope. */
export type PlayerCall = (path: string, body?: object) => Promise<Record<string, unknown> & { error_code: number }>;

/**
 * Waits until the player, first in line, has the turn: a station offers it once its machine's agent
 * has reported the claw home and the chute clear to the station's room (wherever that runs).
 */
export async function untilTurn(call: PlayerCall, stationId: number): Promise<void> {
  await expect
    .poll(
      async () =>
        getReserveResponseSchema.parse(await call('v2/play/get_reserve', { station_id: stationId })).reserve_info
          .reserve_status,
      { timeout: 15_000, interval: 100 },
    )
    .toBe('playTransition');
}

/**
 * The player confirms their turn, the play starts, they hold the right button and the claw moves
 * well away from home (and is saved, at least every 10 ticks): the moment the crash tests kill a
 * server. Answers the confirmed play.
 */
export async function confirmAndMoveClaw(call: PlayerCall, stationId: number): Promise<PlayState> {
  const confirmed = playStateResponseSchema.parse(await call('v2/play/confirm', { station_id: stationId })).play!;
  await expect
    .poll(async () => playStateResponseSchema.parse(await call('v2/play/current')).play?.phase, {
      timeout: 10_000,
      interval: 100,
    })
    .toBe('playing');
  expect(
    (await call('v2/play/control', { play_id: confirmed.play_id, button: 'right', command: 'press' })).error_code,
  ).toBe(200);
  await expect
    .poll(async () => playStateResponseSchema.parse(await call('v2/play/current')).play?.machine.x ?? 0, {
      timeout: 10_000,
      interval: 100,
    })
    .toBeGreaterThan(CRANE.home.x + 100);
  return confirmed;
}
