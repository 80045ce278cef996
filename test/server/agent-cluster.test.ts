import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_LOOP_ENDPOINTS as P } from '../../src/contract';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { spawnAgent, waitFor, type AgentProcess } from '../support/agent-process';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { usePostgresCluster } from '../support/postgres-cluster';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/*
 * Two instances on one PostgreSQL database: A runs the station rooms, B is its standby. The real
 * agent process dials B, the instance that does not run its station's room (as behind a load
 * balancer it may): the room's commands on A reach the agent's connection on B, and the agent's
 * reports and the chute sensor's prize reach the room on A (docs/agent-protocol.md, "Several
 * instances"). Real clock, real processes: each wait is on a condition, never a fixed sleep.
 */

const postgres = usePostgresCluster();
const OPERATOR_TOKEN = 'agent-cluster-operator-token-0123456789';
let a: TestServer;
let b: TestServer;
let folder: string;
let stationId: number;
let price: number;
let key: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  a = await startTestServer({ listen: true, databaseUrl: url, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  b = await startTestServer({ listen: true, databaseUrl: url, standby: true });
  // Both instances know each other (the adapter's heartbeat) before a command must cross.
  b.server.io.on('ping' as never, ((ack: (v: number) => void) => ack(1)) as never);
  await waitFor(
    'B answering A across the adapter',
    () => a.server.io.serverSideEmitWithAck('ping' as never).then((r: unknown[]) => r.length),
    (n) => n === 1,
    15_000,
    100,
  );
  ({ station_id: stationId, play_price: price } = await playableStation(a));
  const services = a.server.services();
  ({ key } = await services.stationKeys.issue({ name: 'cluster cabinet', stationIds: [stationId], by: 'test' }));
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-cluster-'));
  await writeFile(
    path.join(folder, 'machines.json'),
    JSON.stringify({
      server: `${b.origin.replace('http', 'ws')}${AGENT_PATH}`,
      driver: 'sim',
      stations: [{ station_id: stationId }],
    }),
  );
});

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.kill();
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('a station whose agent is connected to the other instance', () => {
  it('[R11-1] [R11-3] plays through the agent on B while A runs the room: commands cross to B, the reports and the prize sensor reach A; the console on A sees the agent', async () => {
    const user = await createTestUser(a, {}, { freeTc: 10 * price });
    const player = new PlayDriver(a, new ManualServerClock(), user);
    agents.push(spawnAgent({ configPath: path.join(folder, 'machines.json'), key }));
    // The agent is B's; the room on A learns the machine from the reports B relays.
    await waitFor('the agent on B', () => b.server.services().agents.connected(stationId), Boolean, 20_000);
    expect(a.server.services().agents.connected(stationId)).toBe(false);
    expect(a.server.services().rooms.running('station')).toContain(stationId);
    await waitFor(
      'the room on A seeing the machine ready',
      () => a.server.services().rooms.peek('station', stationId)?.machine?.report?.phase ?? null,
      (phase) => phase === 'idle',
      15_000,
    );

    // The console asks A: the agent connected to B is in its view, with the sensor view of its last state.
    const view = await a.server.app.inject({
      method: 'POST',
      url: '/api/operator/station_agents',
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
      payload: {},
    });
    expect(view.statusCode, view.body).toBe(200);
    expect((view.json() as { agents: { station_id: number }[] }).agents).toEqual([
      expect.objectContaining({ station_id: stationId, driver: 'sim', claw: 'idle', sensor: 'clear', stopped: false }),
    ]);

    await player.reserve(stationId);
    await waitFor(
      'the turn offered',
      async () => (await player.poll().then(() => player.record))?.reserve_status,
      (s) => s === 'playTransition',
      10_000,
    );
    await player.confirm();
    const playId = player.play!.play_id;
    await waitFor(
      'the play running',
      async () => (await player.current())?.phase,
      (p) => p === 'playing',
      15_000,
    );
    for (const [button, command] of [
      ['right', 'press'],
      ['right', 'release'],
      ['back', 'press'],
      ['back', 'release'],
    ] as const) {
      const answer = await player.post(P.control, { station_id: stationId, play_id: playId, button, command });
      expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
    }
    await waitFor(
      'the result',
      async () => (await player.current())?.phase,
      (p) => p === 'result',
      30_000,
    );
    const [row] = await a.server
      .store()
      .query<{ result: string; inputs: { button: string; command: string }[] }>(
        'SELECT result, inputs FROM plays WHERE play_id = $1',
        [playId],
      );
    expect(['win', 'miss']).toContain(row!.result);
    // Every button reached the machine on B: the log holds each with the tick its ack named.
    expect(row!.inputs.map((i) => `${i.button}:${i.command}`)).toEqual([
      'right:press',
      'right:release',
      'back:press',
      'back:release',
    ]);
    const [wallet] = await a.server
      .store()
      .query<{ tc: number }>('SELECT tc_free + tc_toll AS tc FROM wallets WHERE user_id = $1', [user.user_id]);
    expect(wallet!.tc).toBe(9 * price);
    await player.post(P.finish, { station_id: stationId, play_id: playId });
  });
});
