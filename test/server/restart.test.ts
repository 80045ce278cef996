import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  historyResponseSchema,
  playStateResponseSchema,
  reserveResponseSchema,
  getReserveResponseSchema,
} from '../../src/contract';
import { CRANE } from '../../src/domain/play/crane-machine';
import { PLAY_TIMINGS } from '../../src/domain';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { spawnAgent, waitFor, type AgentProcess } from '../support/agent-process';
import { freePort, ServerProcess } from '../support/server-process';
import { startTestServer } from '../support/test-server';
import { confirmAndMoveClaw } from '../support/moving-play';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Kills the real server process (SIGKILL: no shutdown code runs) in the middle of a line and of a
 * play, starts it again on the same data directory, and checks nothing was lost. The stations are
 * driven by the reference agent as a process of its own, which outlives the kill: the play goes on.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-restart-'));
const processes: ServerProcess[] = [];
let agent: AgentProcess | null = null;
afterAll(async () => {
  await agent?.kill();
  for (const p of processes) await p.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Waits (bounded) until the server says every agent-driven station has its agent connected and reporting. */
async function agentsReady(port: number, stationIds: readonly number[]): Promise<void> {
  await waitFor(
    'the stations’ agent connected and reporting',
    () => fetch(`http://127.0.0.1:${port}/healthz/agents?stations=${stationIds.join(',')}`).then((r) => r.status),
    (status) => status === 200,
    20_000,
    100,
  );
}

async function startProcess(port: number): Promise<ServerProcess> {
  const server = new ServerProcess(port, dataDir, { ONKURE_DEV_CALLS: undefined });
  processes.push(server);
  await server.start();
  return server;
}

function caller(port: number, user: TestUser) {
  return async (path: string, body: object = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.user_id, access_token: user.access_token, ...body }),
    });
    return res.json() as Promise<Record<string, unknown> & { error_code: number }>;
  };
}

describe('a server killed mid-queue and mid-play loses nothing', () => {
  it('the line, the turn, the running play and its charge all survive SIGKILL; the player finishes the same play', async () => {
    // Players with TC, made in-process on the data directory, which is then closed.
    const setup = await startTestServer({ env: { DATA_DIR: dataDir }, agent: false });
    const [alice, bob, carol] = [
      await createTestUser(setup, {}, { freeTc: 10_000 }),
      await createTestUser(setup, {}, { freeTc: 10_000 }),
      await createTestUser(setup, {}, { freeTc: 10_000 }),
    ];
    const stations = await setup.server
      .store()
      .query<{ station_id: number; play_price: number }>(
        `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id LIMIT 2`,
      );
    const [one, two] = stations as [
      { station_id: number; play_price: number },
      { station_id: number; play_price: number },
    ];
    // Both stations on their machine's agent, with a key for them, as an operator sets a cabinet up.
    const services = setup.server.services();
    const { key } = await services.stationKeys.issue({
      name: 'restart cabinets',
      stationIds: stations.map((s) => s.station_id),
      by: 'test',
    });
    await setup.server.close();

    const port = await freePort();
    let server = await startProcess(port);
    // The agent is its own process: it outlives the server's kill and dials the new one on its own.
    const machineFile = join(dataDir, 'machines.json');
    writeFileSync(
      machineFile,
      JSON.stringify({
        server: `ws://127.0.0.1:${port}${AGENT_PATH}`,
        driver: 'sim',
        stations: stations.map((s) => ({ station_id: s.station_id })),
      }),
    );
    agent = spawnAgent({ configPath: machineFile, key });
    await agentsReady(port, [one.station_id, two.station_id]);
    const a = caller(port, alice);
    const b = caller(port, bob);
    const c = caller(port, carol);
    expect(
      reserveResponseSchema.parse(await a('v2/play/reserve', { station_id: one.station_id })).reserve_info
        .reserve_status,
    ).toBe('playTransition');
    expect(
      reserveResponseSchema.parse(await b('v2/play/reserve', { station_id: one.station_id })).reserve_info.reserve_num,
    ).toBe(2);
    // Let the claw move and be saved; C takes the turn at the other station; then the process is killed outright.
    const confirmed = await confirmAndMoveClaw(a, one.station_id);
    expect(
      reserveResponseSchema.parse(await c('v2/play/reserve', { station_id: two.station_id })).reserve_info
        .reserve_status,
    ).toBe('playTransition');
    const offeredAt = Date.now();
    await server.kill('SIGKILL');

    server = await startProcess(port);
    // The line: B is still second, C still has the turn at the other station with its window running.
    const bRecord = getReserveResponseSchema.parse(
      await b('v2/play/get_reserve', { station_id: one.station_id }),
    ).reserve_info;
    expect(bRecord).toMatchObject({ reserve_status: 'reserve', reserve_num: 2 });
    // C's confirm window kept its deadline across the restart (it is not a fresh 15 s). The window
    // runs in real time while the process restarts: on a loaded machine it may have run out, and
    // then the turn ended as a timeout, which is the same deadline kept.
    const cRecord = getReserveResponseSchema.parse(
      await c('v2/play/get_reserve', { station_id: two.station_id }),
    ).reserve_info;
    const left = PLAY_TIMINGS.confirmMs / 1000 - (Date.now() - offeredAt) / 1000;
    if (left > 2) {
      expect(cRecord.reserve_status).toBe('playTransition');
      expect(cRecord.reserve_time).toBeGreaterThan(0);
      expect(cRecord.reserve_time).toBeLessThanOrEqual(Math.ceil(left) + 1);
    } else if (left < -2) {
      expect(cRecord.reserve_status).not.toBe('playTransition');
    }
    // The play: the same one, taken back from the machine once its agent dialed the new process and
    // named it; → was let go where the claw was (the agent's watchdog, when the pings stopped).
    await agentsReady(port, [one.station_id, two.station_id]);
    const back = playStateResponseSchema.parse(await a('v2/play/current')).play!;
    expect(back).toMatchObject({
      play_id: confirmed.play_id,
      phase: 'playing',
      machine: { phase: 'waitBack', button: 'back' },
    });
    expect(back.machine.x).toBeGreaterThan(CRANE.home.x + 50);
    expect((await a('v2/play/control', { play_id: back.play_id, button: 'back', command: 'press' })).error_code).toBe(
      200,
    );
    expect((await a('v2/play/control', { play_id: back.play_id, button: 'back', command: 'release' })).error_code).toBe(
      200,
    );
    await expect
      .poll(async () => playStateResponseSchema.parse(await a('v2/play/current')).play?.phase, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe('result');
    const history = historyResponseSchema.parse(await a('v2/play/history')).history.list;
    expect(history).toHaveLength(1);
    expect(history[0]!.inputs.map((i) => `${i.button}:${i.command}`)).toEqual([
      'right:press',
      'right:release',
      'back:press',
      'back:release',
    ]);
    const tc = await a('user/tc');
    expect(tc).toMatchObject({ data: { tc_all: 10_000 - one.play_price } }); // charged once
    await server.kill('SIGTERM');
  }, 90_000);
});
