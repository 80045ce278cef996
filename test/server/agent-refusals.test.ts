import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_LOOP_ENDPOINTS as P } from '../../src/contract';
import { AGENT_CLOSE } from '../../src/contract/agent.schema';
import { AgentRig, waitFor } from '../support/agent-process';
import type { PlayDriver } from '../support/play-driver';
import { helloFrame, ScriptedAgent } from '../support/scripted-agent';

/*
 * What the real server refuses from agents (issue 42), with the store and the station's room as
 * the witnesses that nothing changed. The gateway's own test (agent-gateway.test.ts) checks each
 * close code against scripted keys; here the keys are the server's own (hashed, issued for real
 * stations), the station is driven by the real agent process or by a scripted agent playing real
 * plays, and each refusal is checked to leave money, places and the driving connection alone.
 */

let rig: AgentRig;
const scripted: ScriptedAgent[] = [];

/** What a refusal must not change: money, plays, places, keys, the station row. */
async function fingerprint(): Promise<unknown> {
  const [counts] = await rig.t.server.store().query(
    `SELECT (SELECT count(*)::int FROM tc_ledger) AS ledger, (SELECT count(*)::int FROM plays) AS plays,
            (SELECT count(*)::int FROM station_reservations) AS reservations,
            (SELECT count(*)::int FROM station_keys WHERE revoked_at IS NULL) AS keys`,
  );
  const [station] = await rig.t.server
    .store()
    .query('SELECT station_status, stock, emergency_stopped FROM stations WHERE station_id = $1', [rig.stationId]);
  return { counts, station };
}

async function openScripted(): Promise<ScriptedAgent> {
  const agent = await ScriptedAgent.open(rig.serverUrl);
  scripted.push(agent);
  return agent;
}

async function offered(player: PlayDriver): Promise<void> {
  await waitFor(
    'turn offered',
    () => rig.reserveStatus(player),
    (s) => s === 'playTransition',
    15_000,
  );
}

/** A play through the scripted cabinet up to the claw home again after the drop. */
async function playToHome(agent: ScriptedAgent, player: PlayDriver): Promise<number> {
  await player.reserve(rig.stationId);
  await offered(player);
  await player.confirm();
  const playId = player.play!.play_id;
  await waitFor(
    'playing',
    () => player.current(),
    (p) => p?.phase === 'playing',
    10_000,
  );
  for (const [button, command] of [
    ['right', 'press'],
    ['right', 'release'],
    ['back', 'press'],
    ['back', 'release'],
  ] as const) {
    const answer = await player.post(P.control, { station_id: rig.stationId, play_id: playId, button, command });
    expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
  }
  await waitFor(
    'claw dropping',
    () => rig.machine()?.report?.phase,
    (p) => p === 'dropping',
    5_000,
  );
  agent.state(rig.stationId, 'idle');
  return playId;
}

async function result(player: PlayDriver, playId: number): Promise<string | null> {
  await waitFor(
    'result',
    () => player.current(),
    (p) => p?.phase === 'result',
    10_000,
  );
  await player.post(P.finish, { station_id: rig.stationId, play_id: playId });
  return (await rig.money(playId)).result;
}

beforeAll(async () => {
  rig = await AgentRig.start();
});

afterEach(() => {
  for (const agent of scripted.splice(0)) agent.close();
});

afterAll(async () => {
  await rig?.close();
});

describe('[R11-1] what the server refuses from agents, with nothing changed', { timeout: 45_000 }, () => {
  it('[R11-1] a forged key 4401, another station’s key 4403, a malformed frame 4400: the station’s own agent keeps driving it', async () => {
    await rig.spawnAgent();
    await waitFor(
      'station ready',
      () => rig.machine(),
      (m) => !!m?.connected && m.fault === null,
      20_000,
    );
    const driving = rig.t.server.services().agents.agents();
    const before = await fingerprint();

    const forged = await openScripted();
    forged.sendJson(helloFrame(rig.key.slice(0, -4) + (rig.key.endsWith('AAAA') ? 'BBBB' : 'AAAA'), [rig.stationId]));
    expect((await forged.closed).code).toBe(AGENT_CLOSE.badKey);

    const [other] = await rig.t.server
      .store()
      .query<{ station_id: number }>(
        'SELECT station_id FROM stations WHERE station_id <> $1 ORDER BY station_id LIMIT 1',
        [rig.stationId],
      );
    const { key: otherKey } = await rig.t.server
      .services()
      .stationKeys.issue({ name: 'the next cabinet', stationIds: [other!.station_id], by: 'test' });
    const elsewhere = await openScripted();
    elsewhere.sendJson(helloFrame(otherKey, [rig.stationId]));
    expect((await elsewhere.closed).code).toBe(AGENT_CLOSE.forbiddenStation);
    const wider = await openScripted();
    wider.sendJson(helloFrame(otherKey, [other!.station_id, rig.stationId]));
    expect((await wider.closed).code).toBe(AGENT_CLOSE.forbiddenStation);

    const garbage = await openScripted();
    garbage.ws.send('{"v":1,"type":"hello","key":');
    expect((await garbage.closed).code).toBe(AGENT_CLOSE.badMessage);
    const binary = await openScripted();
    binary.ws.send(Buffer.from([0xff, 0x00, 0xfe]));
    expect((await binary.closed).code).toBe(AGENT_CLOSE.badMessage);

    // The real agent was never replaced nor interrupted; nothing in the store moved (the other key aside).
    expect(rig.t.server.services().agents.agents()).toEqual([
      expect.objectContaining({ keyId: driving[0]!.keyId, connectedAt: driving[0]!.connectedAt }),
    ]);
    expect(rig.machine()).toMatchObject({ connected: true, fault: null });
    const after = (await fingerprint()) as { counts: { keys: number } };
    expect({ ...after, counts: { ...after.counts, keys: after.counts.keys - 1 } }).toEqual(before);
    await rig.stopAgents();
    await waitFor(
      'agent gone',
      () => rig.connected(),
      (c) => !c,
      5_000,
    );
  });

  it('[R11-1] replayed and out-of-order sequence numbers are ignored: a replayed prize wins nothing, charged once', async () => {
    const agent = await openScripted();
    agent.sendJson(helloFrame(rig.key, [rig.stationId]));
    await waitFor(
      'welcome',
      () => agent.received.some((m) => m.type === 'welcome'),
      (w) => w,
      5_000,
    );
    agent.cabinet(rig.stationId);
    agent.state(rig.stationId, 'idle');
    const player = rig.playerOf(await rig.user());

    // A prize the chute sensor saw, sent once with a fresh number: the play is won.
    const won = await playToHome(agent, player);
    agent.report({ type: 'prize', station_id: rig.stationId, play_id: won, at: 0, prize_id: 1 });
    const prizeFrame = agent.sent.at(-1)!;
    expect(await result(player, won)).toBe('win');

    // The next play: that frame again, and a prize for this play under an old number — both ignored.
    const missed = await playToHome(agent, player);
    agent.sendJson(prizeFrame);
    agent.sendJson({ ...prizeFrame, play_id: missed, seq: 2 });
    expect(await result(player, missed)).toBe('miss');
    for (const playId of [won, missed]) {
      expect(await rig.money(playId)).toMatchObject({ charges: 1, refunds: 0, charged: rig.price });
    }
    expect(await rig.tcOf(player.user)).toBe(8 * rig.price);
    expect(rig.connected()).toBe(true);
  });

  it('a frame flood is closed 4429: the station is in fault and offers no turn, nothing charged', async () => {
    const agent = await openScripted();
    agent.sendJson(helloFrame(rig.key, [rig.stationId]));
    await waitFor(
      'welcome',
      () => agent.received.some((m) => m.type === 'welcome'),
      (w) => w,
      5_000,
    );
    agent.state(rig.stationId, 'idle');
    await waitFor(
      'station ready',
      () => rig.machine(),
      (m) => !!m?.connected && m.fault === null,
      5_000,
    );
    const player = rig.playerOf(await rig.user());
    const before = await fingerprint();
    for (let i = 0; i < 300; i += 1) agent.state(rig.stationId, 'idle');
    expect((await agent.closed).code).toBe(AGENT_CLOSE.flood);
    await waitFor(
      'station in fault',
      () => rig.machine(),
      (m) => !!m && !m.connected && m.fault !== null,
      5_000,
    );
    await player.reserve(rig.stationId);
    expect(await rig.reserveStatus(player)).toBe('reserve');
    expect(rig.turnPhase()).toBe('idle');
    const after = (await fingerprint()) as { counts: { reservations: number } };
    expect({ ...after, counts: { ...after.counts, reservations: after.counts.reservations - 1 } }).toEqual(before);
  });
});
