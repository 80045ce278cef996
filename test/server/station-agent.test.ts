import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_LOOP_ENDPOINTS as P } from '../../src/contract';
import { crane } from '../../src/domain';
import { AgentRig } from '../support/agent-process';

/*
 * A station driven by the reference agent as its own process over the real protocol
 * (docs/agent-protocol.md): the real server on its own clock, the agent's sim driver playing the
 * cabinet. Time is real here (two processes), so each wait is on a condition the server answers,
 * never a fixed sleep.
 */

let rig: AgentRig;
let stationId: number;
let price: number;

async function playOf(playId: number) {
  const [row] = await rig.t.server.store().query<{
    result: string | null;
    seed: number;
    layout: never;
    arm_strength: number;
    inputs: never;
    drop_at_tick: number | null;
  }>('SELECT result, seed, layout, arm_strength, inputs, drop_at_tick FROM plays WHERE play_id = $1', [playId]);
  return row!;
}

beforeAll(async () => {
  rig = await AgentRig.start();
  ({ stationId, price } = rig);
});

afterEach(() => rig.stopAgents());

afterAll(() => rig?.close());

describe('a station driven by the reference agent process', () => {
  it('[R11-1] [R11-3] plays through the agent: commands reach the sim cabinet, its chute sensor decides, the log replays', async () => {
    const player = rig.playerOf(await rig.user());
    await rig.spawnAgent();
    await expect.poll(() => rig.connected(), { timeout: 15_000 }).toBe(true);
    await player.reserve(stationId);
    // The turn is offered once the machine reports itself idle with the chute clear [R11-2].
    await expect
      .poll(async () => (await player.poll().then(() => player.record))?.reserve_status, { timeout: 10_000 })
      .toBe('playTransition');
    await player.confirm();
    const playId = player.play!.play_id;
    await expect.poll(async () => (await player.current())?.phase, { timeout: 10_000 }).toBe('playing');
    for (const [button, command] of [
      ['right', 'press'],
      ['right', 'release'],
      ['back', 'press'],
      ['back', 'release'],
    ] as const) {
      const answer = await player.post(P.control, { station_id: stationId, play_id: playId, button, command });
      expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
    }
    await expect.poll(async () => (await player.current())?.phase, { timeout: 30_000 }).toBe('result');
    const logged = await playOf(playId);
    expect(['win', 'miss']).toContain(logged.result);
    // The sim cabinet's result is what its physics gives for the logged settings and inputs (ticks from its acks).
    const replayed = crane.replayPlay(
      logged.layout,
      logged.arm_strength,
      logged.seed,
      logged.inputs,
      logged.drop_at_tick,
      true,
    );
    expect(replayed.outcome?.result).toBe(logged.result);
    expect(await rig.tcOf(player.user)).toBe(9 * price);
    await player.post(P.finish, { station_id: stationId, play_id: playId });
  });

  it('[R11-1] a player gone mid-play and back within the grace window finishes the same play on the machine', async () => {
    const player = rig.playerOf(await rig.user());
    await rig.spawnAgent();
    await expect.poll(() => rig.connected(), { timeout: 15_000 }).toBe(true);
    await player.reserve(stationId);
    await expect
      .poll(async () => (await player.poll().then(() => player.record))?.reserve_status, { timeout: 10_000 })
      .toBe('playTransition');
    await player.confirm();
    const playId = player.play!.play_id;
    const userId = player.user.user_id;
    const rooms = rig.t.server.services().rooms;
    // The page's socket is open: the holder is present (as the realtime hub says it on connect).
    await rooms.send('station', stationId, { type: 'back', userId });
    await expect.poll(async () => (await player.current())?.phase, { timeout: 10_000 }).toBe('playing');
    await player.post(P.control, { station_id: stationId, play_id: playId, button: 'right', command: 'press' });
    await expect.poll(() => rig.machine()?.report?.phase, { timeout: 5_000 }).toBe('movingRight');
    await player.post(P.control, { station_id: stationId, play_id: playId, button: 'right', command: 'release' });
    // The page closes right after the release: the claw waits for ↑ in the grace window, its button limit stopped.
    await rooms.send('station', stationId, { type: 'away', userId });
    expect(rig.turnPhase()).toBe('away');
    await expect.poll(() => rig.machine()?.report?.phase, { timeout: 5_000 }).toBe('waitBack');
    // Back: the same play waits for ↑ with a whole button limit, shown at once.
    await rooms.send('station', stationId, { type: 'back', userId });
    const back = await player.current();
    expect(back).toMatchObject({ play_id: playId, phase: 'playing', machine: { phase: 'waitBack' } });
    expect(back!.machine!.button_ms_left).toBeGreaterThan(10_000);
    for (const command of ['press', 'release'] as const) {
      const answer = await player.post(P.control, { station_id: stationId, play_id: playId, button: 'back', command });
      expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
    }
    await expect.poll(async () => (await player.current())?.phase, { timeout: 30_000 }).toBe('result');
    const logged = await playOf(playId);
    expect((logged.inputs as { button: string; command: string }[]).map((i) => `${i.button}:${i.command}`)).toEqual([
      'right:press',
      'right:release',
      'back:press',
      'back:release',
    ]);
    expect(await rig.tcOf(player.user)).toBe(9 * price);
    await player.post(P.finish, { station_id: stationId, play_id: playId });
  });

  it('[R11-2] an agent killed mid-play: the play is refunded once within the bound; back and ready, the next turn is offered', async () => {
    const player = rig.playerOf(await rig.user());
    const agent = await rig.spawnAgent();
    await expect.poll(() => rig.connected(), { timeout: 15_000 }).toBe(true);
    await player.reserve(stationId);
    await expect
      .poll(async () => (await player.poll().then(() => player.record))?.reserve_status, { timeout: 10_000 })
      .toBe('playTransition');
    await player.confirm();
    const playId = player.play!.play_id;
    await expect.poll(async () => (await player.current())?.phase, { timeout: 10_000 }).toBe('playing');
    await player.post(P.control, { station_id: stationId, play_id: playId, button: 'right', command: 'press' });
    const killedAt = Date.now();
    await agent.kill();
    await expect.poll(async () => (await playOf(playId)).result, { timeout: 10_000 }).toBe('refunded');
    // Silent for 3 s, found at the next heartbeat: refunded within 4 s of the kill.
    expect(Date.now() - killedAt).toBeLessThan(4_500);
    expect(await rig.tcOf(player.user)).toBe(10 * price);
    // A second player waits; the agent comes back, reports idle and clear, and the turn is theirs.
    const next = rig.playerOf(await rig.user());
    await next.reserve(stationId);
    await rig.spawnAgent();
    await expect
      .poll(async () => (await next.poll().then(() => next.record))?.reserve_status, { timeout: 15_000 })
      .toBe('playTransition');
    expect(await rig.tcOf(player.user)).toBe(10 * price);
  });
});
