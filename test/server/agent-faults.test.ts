import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAY_LOOP_ENDPOINTS as P } from '../../src/contract';
import { AGENT_TIMINGS } from '../../src/contract/agent.schema';
import { AgentRig, waitFor, type AgentProcess } from '../support/agent-process';
import type { PlayDriver } from '../support/play-driver';

/*
 * The SIGKILL campaign against the real server and a real agent process (issue 42): the agent is
 * killed with -9 in each phase of a play — turn offered and not confirmed, confirmed and resetting,
 * playing with a button held, after the drop before the result, and with the result shown — and
 * the store must show each play completed or refunded exactly once, the station in fault with no
 * turn offered while its agent is away, and ready again (the next turn offered) once the agent is
 * back. Time is real (two processes): every wait polls the server's answers with a bound.
 */

/** The bound R11-2 gives: silence past 3 s, found at the next heartbeat (a killed process's socket closes at once). */
const FAULT_BOUND_MS = AGENT_TIMINGS.silenceMs + AGENT_TIMINGS.heartbeatMs + 1_000;

let rig: AgentRig;
let agent: AgentProcess | null = null;

/** Waits until the station's agent is connected and its machine reported home, clear and free of faults. */
async function stationReady(): Promise<void> {
  await waitFor(
    'station ready',
    () => rig.machine(),
    (m) => !!m && m.connected && m.fault === null && m.report?.phase === 'idle' && m.report.sensor === 'clear',
    20_000,
  );
}

async function startAgent(): Promise<void> {
  agent = await rig.spawnAgent();
}

/** kill -9; the station must be in fault within the bound. */
async function killAgent(): Promise<void> {
  const killed = agent!;
  agent = null;
  await killed.kill();
  const { value, elapsedMs } = await waitFor(
    'station in fault',
    () => rig.machine(),
    (m) => !!m && !m.connected && m.fault !== null,
    FAULT_BOUND_MS,
  );
  expect(value!.fault).toMatch(/^agent_/);
  expect(elapsedMs).toBeLessThan(FAULT_BOUND_MS);
}

async function offered(player: PlayDriver): Promise<void> {
  await waitFor(
    'turn offered',
    () => rig.reserveStatus(player),
    (s) => s === 'playTransition',
    20_000,
  );
}

/**
 * The agent comes back: until it is connected nobody is offered the turn (each poll checks it), and
 * once it reports ready the waiting player is.
 */
async function agentBack(waiting: PlayDriver): Promise<void> {
  await startAgent();
  await waitFor(
    'agent connected again',
    async () => {
      const status = await rig.reserveStatus(waiting);
      // While the agent is away: no turn offered [R11-2].
      if (!rig.connected()) {
        expect(status).toBe('reserve');
        expect(rig.turnPhase()).toBe('idle');
      }
      return rig.connected();
    },
    (connected) => connected,
    20_000,
  );
  await stationReady();
  await offered(waiting);
}

/** The waiting player gives the offered turn up, so the next case starts with an empty line. */
async function giveUp(player: PlayDriver): Promise<void> {
  const settingId = player.record!.station_setting_id;
  const answer = await player.post('v2/play/reserve_cancel', {
    shop_id: 1,
    reserve_cancel: { station_setting_id: settingId },
  });
  expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
}

async function reserveAndOffer(player: PlayDriver): Promise<void> {
  await player.reserve(rig.stationId);
  await offered(player);
}

async function confirmToPlaying(player: PlayDriver): Promise<number> {
  await player.confirm();
  await waitFor(
    'playing',
    () => player.current(),
    (p) => p?.phase === 'playing',
    10_000,
  );
  return player.play!.play_id;
}

async function control(player: PlayDriver, button: 'right' | 'back', command: 'press' | 'release') {
  const answer = await player.post(P.control, {
    station_id: rig.stationId,
    play_id: player.play!.play_id,
    button,
    command,
  });
  expect(answer.json.error_code, JSON.stringify(answer.json)).toBe(200);
}

/** → and ↑ tapped: the claw drops where it is. */
async function playToDrop(player: PlayDriver): Promise<void> {
  await control(player, 'right', 'press');
  await control(player, 'right', 'release');
  await control(player, 'back', 'press');
  await control(player, 'back', 'release');
}

async function refundedOnce(playId: number, player: PlayDriver): Promise<void> {
  const price = rig.price;
  expect(await rig.money(playId)).toEqual({
    result: 'refunded',
    phase: 'ended',
    charges: 1,
    refunds: 1,
    charged: price,
    refunded: price,
  });
  expect(await rig.tcOf(player.user)).toBe(10 * price);
}

async function completedOnce(playId: number, player: PlayDriver): Promise<void> {
  const money = await rig.money(playId);
  expect(['win', 'miss']).toContain(money.result);
  expect(money).toMatchObject({ charges: 1, refunds: 0, charged: rig.price, refunded: 0 });
  expect(await rig.tcOf(player.user)).toBe(9 * rig.price);
}

beforeAll(async () => {
  rig = await AgentRig.start();
});

beforeEach(async () => {
  if (!agent) await startAgent();
  await stationReady();
});

afterAll(async () => {
  await rig?.close();
});

describe('[R11-2] the agent killed with -9 in each phase of a play', { timeout: 45_000 }, () => {
  it('[R11-2] turn offered, not confirmed: nothing charged, no turn offered while down; back → the turn is offered again and a new play completes once', async () => {
    const a = rig.playerOf(await rig.user());
    const b = rig.playerOf(await rig.user());
    await reserveAndOffer(a);
    await b.reserve(rig.stationId);
    expect(rig.turnPhase()).toBe('turnOffered');
    await killAgent();
    // The offered turn went back to the head of the line: nobody holds it, no play exists, nothing is charged.
    expect(rig.turnPhase()).toBe('idle');
    const refused = await a.post(P.confirm, { station_id: rig.stationId });
    expect(refused.json.error_code).toBe(409);
    expect(await rig.playsOf(a.user)).toEqual([]);
    expect(await rig.tcOf(a.user)).toBe(10 * rig.price);
    expect(await rig.reserveStatus(b)).toBe('reserve');
    await agentBack(a);
    // A new play through the returned agent: charged once, its result recorded.
    const playId = await confirmToPlaying(a);
    await playToDrop(a);
    await waitFor(
      'result',
      () => a.current(),
      (p) => p?.phase === 'result',
      30_000,
    );
    await completedOnce(playId, a);
    await a.post(P.finish, { station_id: rig.stationId, play_id: playId });
    await offered(b);
    await giveUp(b);
    expect(await rig.playsOf(a.user)).toEqual([playId]);
  });

  it('[R11-2] confirmed and resetting: the play is refunded exactly once; back → the next turn is offered', async () => {
    const a = rig.playerOf(await rig.user());
    const b = rig.playerOf(await rig.user());
    await reserveAndOffer(a);
    await b.reserve(rig.stationId);
    await a.confirm();
    const playId = a.play!.play_id;
    expect(rig.turnPhase()).toBe('resetting');
    await killAgent();
    await waitFor(
      'refunded',
      () => rig.money(playId),
      (m) => m.result === 'refunded',
      FAULT_BOUND_MS,
    );
    await refundedOnce(playId, a);
    await agentBack(b);
    await giveUp(b);
    await refundedOnce(playId, a);
  });

  it('[R11-2] playing with → held on the machine: refunded exactly once; back → the next turn is offered', async () => {
    const a = rig.playerOf(await rig.user());
    const b = rig.playerOf(await rig.user());
    await reserveAndOffer(a);
    await b.reserve(rig.stationId);
    const playId = await confirmToPlaying(a);
    await control(a, 'right', 'press');
    // The machine itself reports the claw moving: the button is held there when the agent dies.
    await waitFor(
      '→ held on the machine',
      () => rig.machine()?.report?.phase,
      (p) => p === 'movingRight',
      5_000,
    );
    await killAgent();
    await waitFor(
      'refunded',
      () => rig.money(playId),
      (m) => m.result === 'refunded',
      FAULT_BOUND_MS,
    );
    await refundedOnce(playId, a);
    await agentBack(b);
    await giveUp(b);
    await refundedOnce(playId, a);
  });

  it('[R11-2] after the drop, before the result: refunded exactly once (no result is invented); back → the next turn is offered', async () => {
    const a = rig.playerOf(await rig.user());
    const b = rig.playerOf(await rig.user());
    await reserveAndOffer(a);
    await b.reserve(rig.stationId);
    const playId = await confirmToPlaying(a);
    await playToDrop(a);
    await waitFor(
      'claw on its way down',
      () => rig.machine()?.report?.phase,
      (p) => p === 'dropping' || p === 'closing',
      5_000,
    );
    expect(rig.turnPhase()).toBe('playing');
    await killAgent();
    await waitFor(
      'refunded',
      () => rig.money(playId),
      (m) => m.result === 'refunded',
      FAULT_BOUND_MS,
    );
    await refundedOnce(playId, a);
    await agentBack(b);
    await giveUp(b);
    await refundedOnce(playId, a);
  });

  it('[R11-2] with the result shown: the play stays completed, charged once and never refunded; back → the next turn is offered', async () => {
    const a = rig.playerOf(await rig.user());
    const b = rig.playerOf(await rig.user());
    await reserveAndOffer(a);
    await b.reserve(rig.stationId);
    const playId = await confirmToPlaying(a);
    await playToDrop(a);
    await waitFor(
      'result',
      () => a.current(),
      (p) => p?.phase === 'result',
      30_000,
    );
    expect(rig.turnPhase()).toBe('result');
    await killAgent();
    await waitFor(
      'play closed',
      () => rig.money(playId),
      (m) => m.phase === 'ended',
      FAULT_BOUND_MS,
    );
    await completedOnce(playId, a);
    await agentBack(b);
    await giveUp(b);
    await completedOnce(playId, a);
  });
});
