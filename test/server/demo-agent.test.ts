import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config';
import { DEMO_KEY_NAME, provisionDemoAgent } from '../../server/agent/demo-agent';
import { spawnAgent, type AgentProcess } from '../support/agent-process';
import { startTestServer, type TestServer } from '../support/test-server';

/*
 * The demo's machines (`npm start`, the e2e run): the server puts every station on its agent,
 * issues the demo's key and writes a machine file the reference agent starts from; a restart
 * revokes the last key. Real server, real agent process, real clock: each wait is on a condition.
 */

let t: TestServer;
let folder: string;
const agents: AgentProcess[] = [];

const agentsHealth = async () => {
  const res = await fetch(`${t.origin}/healthz/agents`);
  return { status: res.status, body: (await res.json()) as { stations?: { connected: boolean }[] } };
};

beforeAll(async () => {
  t = await startTestServer({ listen: true, agent: false });
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-demo-agent-test-'));
});

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.kill();
});

afterAll(async () => {
  await t?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const provision = () => provisionDemoAgent(t.server.services(), { dir: folder, serverUrl: t.origin });

describe("the demo's sim agent (npm start)", () => {
  it("writes a machine file for every station the agent starts from; a restart keeps the folder's key, a new folder revokes it", async () => {
    const services = t.server.services();
    // Before: no agent connected, so no station can be played.
    expect((await agentsHealth()).status).toBe(503);
    const first = await provision();
    const [{ count }] = (await services.store.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM stations',
    )) as [{ count: number }];
    expect(first.stationIds).toHaveLength(count);
    // The key file is the owner's only; the machine file names the server's /agent and every station.
    expect((await stat(path.join(folder, 'agent.key'))).mode & 0o077).toBe(0);
    const config = await loadAgentConfig(first.machineFile, {});
    expect(config.warnings).toEqual([]);
    expect(config.server).toBe(`${t.origin.replace('http', 'ws')}/agent`);
    expect(config.stations.map((s) => s.station_id)).toEqual(first.stationIds);
    // The demo's cameras are the agent's: painted, published over WHIP while watched.
    expect(config.cameras).toBe(true);
    expect((await agentsHealth()).status).toBe(503);

    // No key in the environment: the agent reads the key file the server wrote.
    const agent = spawnAgent({ configPath: first.machineFile, key: '' });
    agents.push(agent);
    // /healthz/agents answers 200 once every station's agent is connected and reporting.
    await expect.poll(async () => (await agentsHealth()).status, { timeout: 20_000 }).toBe(200);
    expect((await agentsHealth()).body.stations?.every((s) => s.connected)).toBe(true);

    // A restart on the same folder keeps its key: the running agent stays connected on it.
    const keyBefore = await readFile(path.join(folder, 'agent.key'), 'utf8');
    await provision();
    expect(await readFile(path.join(folder, 'agent.key'), 'utf8')).toBe(keyBefore);
    expect((await agentsHealth()).status).toBe(200);
    expect((await services.stationKeys.list()).filter((k) => k.name === DEMO_KEY_NAME).map((k) => k.state)).toEqual([
      'active',
    ]);

    // A restart on another folder (the launcher makes a new one for each start) issues a new key and
    // revokes the last one: the agent on the old key is closed for good (exit 3).
    const other = await mkdtemp(path.join(tmpdir(), 'onkure-demo-agent-test-'));
    try {
      await provisionDemoAgent(services, { dir: other, serverUrl: t.origin });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    await agent.exited;
    expect(agent.child.exitCode, agent.output()).toBe(3);
    const demoKeys = (await services.stationKeys.list()).filter((k) => k.name === DEMO_KEY_NAME);
    expect(demoKeys.map((k) => k.state).sort()).toEqual(['active', 'revoked']);
    expect((await agentsHealth()).status).toBe(503);
  });
});

describe('/healthz/agents?stations=', () => {
  it('answers for the stations named only; a malformed list is 400, never read as "all" and never a 5xx', async () => {
    const ask = async (query: string) => {
      const res = await fetch(`${t.origin}/healthz/agents${query}`);
      return { status: res.status, body: (await res.json()) as { stations?: { station_id: number }[] } };
    };
    const two = await ask('?stations=2,1');
    expect(two.body.stations?.map((s) => s.station_id)).toEqual([1, 2]);
    for (const bad of ['?stations=abc', '?stations=1,,2', '?stations=%00%ff', '?stations=0', '?stations=1&stations=2'])
      expect((await ask(bad)).status, bad).toBe(400);
    expect((await ask(`?stations=${Array.from({ length: 1001 }, () => '1').join(',')}`)).status).toBe(400);
  });
});
