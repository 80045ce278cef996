import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { PLAY_LOOP_ENDPOINTS as P } from '../../src/contract';
import { crane } from '../../src/domain';
import { PlayDriver } from '../support/play-driver';
import { ManualServerClock } from '../support/manual-server-clock';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/*
 * A station driven by the reference agent as its own process over the real protocol
 * (docs/agent-protocol.md): the real server on its own clock, the agent's sim driver playing the
 * cabinet. Time is real here (two processes), so each wait is on a condition the server answers,
 * never a fixed sleep.
 */

let t: TestServer;
let stationId: number;
let price: number;
let key: string;
let folder: string;
const agents: ChildProcess[] = [];
let output = '';

function startAgent(): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'agent/main.ts', '--config', path.join(folder, 'machines.json')],
    { env: { ...process.env, ONKURE_AGENT_KEY: key }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  agents.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

/** A player's calls, as the app makes them (the driver's clock is not moved: time is real here). */
const playerOf = (user: TestUser) => new PlayDriver(t, new ManualServerClock(), user);

async function tcOf(user: TestUser): Promise<number> {
  const [row] = await t.server
    .store()
    .query<{ tc: number }>('SELECT tc_free + tc_toll AS tc FROM wallets WHERE user_id = $1', [user.user_id]);
  return row!.tc;
}

async function playOf(playId: number) {
  const [row] = await t.server.store().query<{
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
  t = await startTestServer({ listen: true });
  ({ station_id: stationId, play_price: price } = await playableStation(t));
  const services = t.server.services();
  await services.rooms.send('station', stationId, { type: 'setDriver', driver: 'agent' });
  ({ key } = await services.stationKeys.issue({ name: 'test cabinet', stationIds: [stationId], by: 'test' }));
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-'));
  await writeFile(
    path.join(folder, 'machines.json'),
    JSON.stringify({
      server: `${t.origin.replace('http', 'ws')}${AGENT_PATH}`,
      driver: 'sim',
      stations: [{ station_id: stationId }],
    }),
  );
});

afterEach(async () => {
  for (const child of agents.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
});

afterAll(async () => {
  await t?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('a station driven by the reference agent process', () => {
  it('[R11-1] [R11-3] plays through the agent: commands reach the sim cabinet, its chute sensor decides, the log replays', async () => {
    const player = playerOf(await createTestUser(t, {}, { freeTc: 10 * price }));
    startAgent();
    await expect.poll(() => t.server.services().agents.connected(stationId), { timeout: 15_000 }).toBe(true);
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
    expect(await tcOf(player.user)).toBe(9 * price);
    await player.post(P.finish, { station_id: stationId, play_id: playId });
  });

  it('[R11-2] an agent killed mid-play: the play is refunded once within the bound; back and ready, the next turn is offered', async () => {
    const player = playerOf(await createTestUser(t, {}, { freeTc: 10 * price }));
    const agent = startAgent();
    await expect.poll(() => t.server.services().agents.connected(stationId), { timeout: 15_000 }).toBe(true);
    await player.reserve(stationId);
    await expect
      .poll(async () => (await player.poll().then(() => player.record))?.reserve_status, { timeout: 10_000 })
      .toBe('playTransition');
    await player.confirm();
    const playId = player.play!.play_id;
    await expect.poll(async () => (await player.current())?.phase, { timeout: 10_000 }).toBe('playing');
    await player.post(P.control, { station_id: stationId, play_id: playId, button: 'right', command: 'press' });
    const killedAt = Date.now();
    agent.kill('SIGKILL');
    await exited(agent);
    await expect.poll(async () => (await playOf(playId)).result, { timeout: 10_000 }).toBe('refunded');
    // Silent for 3 s, found at the next heartbeat: refunded within 4 s of the kill.
    expect(Date.now() - killedAt).toBeLessThan(4_500);
    expect(await tcOf(player.user)).toBe(10 * price);
    // A second player waits; the agent comes back, reports idle and clear, and the turn is theirs.
    const next = playerOf(await createTestUser(t, {}, { freeTc: 10 * price }));
    await next.reserve(stationId);
    startAgent();
    await expect
      .poll(async () => (await next.poll().then(() => next.record))?.reserve_status, { timeout: 15_000 })
      .toBe('playTransition');
    expect(await tcOf(player.user)).toBe(10 * price);
  });
});
