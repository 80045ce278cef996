import { expect } from 'vitest';
import { getReserveResponseSchema, playStateResponseSchema, type PlayState } from '../../src/contract';
import { CRANE } from '../../src/domain/play/crane-machine';

/** A player's POST calls (`path`, body without the identity) answering the JSON envelope. */
export type PlayerCall = (path: string, body?: object) => Promise<Record<string, unknown> & { error_code: number }>;

/** A player's calls over HTTP to a listening server (`apiBase`), each answer with its HTTP status. */
export const playerCaller =
  (apiBase: string, who: { readonly user_id: number; readonly access_token: string }): PlayerCall =>
  async (path, body = {}) => {
    const res = await fetch(`${apiBase}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: who.user_id, access_token: who.access_token, ...body }),
    });
    const json = (await res.json()) as Record<string, unknown> & { error_code: number };
    return { ...json, status: res.status };
  };

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

/**
 * A whole play on the system clock, first in line: the player confirms, `whileStarting` runs (the
 * clip tests look at the recording then), the play runs, both buttons at once drop the claw where it
 * is, and the player finishes once the result shows. Answers the play and when it was confirmed and
 * when its result was seen (Date.now()).
 */
export async function playToResult(
  call: PlayerCall,
  stationId: number,
  whileStarting: () => Promise<void> = async () => undefined,
): Promise<{ readonly playId: number; readonly confirmedAt: number; readonly resultAt: number }> {
  const confirmed = playStateResponseSchema.parse(await call('v2/play/confirm', { station_id: stationId })).play!;
  const confirmedAt = Date.now();
  await whileStarting();
  await expect
    .poll(async () => playStateResponseSchema.parse(await call('v2/play/current')).play?.phase, {
      timeout: 10_000,
      interval: 50,
    })
    .toBe('playing');
  // Both buttons at once: the claw drops where it is.
  for (const button of ['right', 'back'])
    for (const command of ['press', 'release'])
      expect((await call('v2/play/control', { play_id: confirmed.play_id, button, command })).error_code).toBe(200);
  let resultAt = 0;
  await expect
    .poll(
      async () => {
        const phase = playStateResponseSchema.parse(await call('v2/play/current')).play?.phase;
        if (phase === 'result' && resultAt === 0) resultAt = Date.now();
        return phase;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe('result');
  expect((await call('v2/play/finish', { play_id: confirmed.play_id })).error_code).toBe(200);
  return { playId: confirmed.play_id, confirmedAt, resultAt };
}
