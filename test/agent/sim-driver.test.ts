import { describe, expect, it } from 'vitest';
import { createSimDriver, SIM_SENSOR_HOLD_MS, type SimDriver } from '../../agent/drivers/sim-driver';
import type { MachineStatus } from '../../agent/machine-driver';
import type { AgentCommand, SimPrize } from '../../src/contract/agent.schema';
import { CRANE, replayPlay, type CraneInput } from '../../src/domain/play/crane-machine';
import { ManualClock } from '../../src/testing';

const TICK = CRANE.tickMs;
const LAYOUT: SimPrize[] = [
  { id: 1, x: 380, z: 380, radius: 60, shape: 'plush', hue: 10 },
  { id: 2, x: 700, z: 600, radius: 60, shape: 'box', hue: 200 },
];
/** With this seed and layout, a claw closed right over prize 1 wins it (checked against the replay below). */
const SEED = 1;

function harness(stations = [{ station_id: 1 }, { station_id: 2 }]) {
  const clock = new ManualClock(1_000);
  const driver = createSimDriver(stations, clock);
  const statuses: { station: number; status: MachineStatus; at: number }[] = [];
  const prizes: { station: number; playId: number | null; prizeId?: number; at: number }[] = [];
  const faults: string[] = [];
  void driver.start({
    status: (station, status) => statuses.push({ station, status, at: clock.now() }),
    prize: (station, playId, prizeId) => prizes.push({ station, playId, prizeId, at: clock.now() }),
    fault: (station, code) => faults.push(`${station}:${code}`),
  });
  const run = (command: AgentCommand, station = 1) => driver.carryOut(station, command);
  const ticks = (n: number) => clock.advance(n * TICK);
  return { clock, driver, statuses, prizes, faults, run, ticks };
}

const start = (playId = 7, sim: { seed: number; layout: SimPrize[] } | undefined = { seed: SEED, layout: LAYOUT }) =>
  ({ type: 'start', play_id: playId, arm_strength: 1, ...(sim ? { sim } : {}) }) as const;

/** Plays right for `right` ticks and back for `back` ticks, recording the inputs as the crane's log would. */
function steer(h: ReturnType<typeof harness>, right: number, back: number, playId = 7): CraneInput[] {
  const inputs: CraneInput[] = [];
  const act = (button: 'right' | 'back', command: 'press' | 'release') => {
    const outcome = h.run({ type: command, play_id: playId, button });
    expect(outcome).toMatchObject({ ok: true });
    inputs.push({ tick: (outcome as { tick: number }).tick, button, command });
  };
  h.ticks(2);
  act('right', 'press');
  h.ticks(right);
  act('right', 'release');
  h.ticks(3);
  act('back', 'press');
  h.ticks(back);
  act('back', 'release');
  return inputs;
}

/** Runs the clock until the station reports idle again (bounded). */
function untilIdle(h: ReturnType<typeof harness>, station = 1): void {
  for (let i = 0; i < 2_000 && h.driver.status(station).claw !== 'idle'; i += 1) h.ticks(1);
}

describe('driver sim', () => {
  it('[R11-3] plays a whole play on the crane physics, and its chute sensor reports the win the replay computes', () => {
    const h = harness();
    expect(h.run(start())).toEqual({ ok: true, tick: 0 });
    expect(h.driver.status(1)).toMatchObject({ playId: 7, claw: 'ready', outputs: [] });
    const inputs = steer(h, 30, 30);
    untilIdle(h);

    const replay = replayPlay(LAYOUT, 1, SEED, inputs, null, true);
    expect(replay.outcome?.result).toBe('win');
    expect(h.prizes).toEqual([{ station: 1, playId: 7, prizeId: replay.outcome!.wonPrizeId!, at: expect.any(Number) }]);
    const last = h.driver.status(1);
    expect(last).toMatchObject({ playId: null, claw: 'idle', outputs: [] });
    expect(last.sim!.prizes).toEqual(replay.prizes);
    // Every phase was reported, in order.
    const phases = h.statuses.map((s) => s.status.claw).filter((p, i, all) => p !== all[i - 1]);
    expect(phases).toEqual([
      'ready',
      'moving_right',
      'wait_back',
      'moving_back',
      'dropping',
      'closing',
      'lifting',
      'returning',
      'opening',
      'idle',
    ]);
  });

  it('reports a miss as a play that ends idle without a prize, like the replay', () => {
    const h = harness();
    h.run(start(8));
    const inputs = steer(h, 5, 5, 8);
    untilIdle(h);
    expect(replayPlay(LAYOUT, 1, SEED, inputs, null, true).outcome?.result).toBe('miss');
    expect(h.prizes).toEqual([]);
    expect(h.driver.status(1)).toMatchObject({ playId: null, claw: 'idle' });
  });

  it('reports the held button as the energised output, and at most one status per tick', () => {
    const h = harness();
    h.run(start());
    h.ticks(1);
    h.run({ type: 'press', play_id: 7, button: 'right' });
    expect(h.driver.status(1).outputs).toEqual(['right']);
    const before = h.statuses.length;
    h.ticks(10);
    expect(h.statuses.length - before).toBe(10);
    expect(h.driver.status(1).clawPosition).toMatchObject({ x: CRANE.home.x + 100, z: CRANE.home.z });
  });

  it('refuses what the machine cannot do, and nothing changes', () => {
    const h = harness();
    const press = { type: 'press', play_id: 7, button: 'right' } as const;
    expect(h.run(press)).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.run(start(), 99)).toEqual({ ok: false, reason: 'unknown_station' });
    h.run(start());
    expect(h.run(start(9))).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.run({ type: 'press', play_id: 7, button: 'back' })).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.run({ type: 'press', play_id: 6, button: 'right' })).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.run({ type: 'release', play_id: 7, button: 'right' })).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.run({ type: 'home' })).toEqual({ ok: false, reason: 'not_ready' });
    expect(h.driver.status(1)).toMatchObject({ playId: 7, claw: 'ready' });
  });

  it('lays a default field and seed 1 when the start carries no sim parameters', () => {
    const h = harness();
    expect(h.run(start(3, undefined))).toEqual({ ok: true, tick: 0 });
    expect(h.driver.status(1).sim!.prizes.length).toBeGreaterThan(0);
  });

  it('[R11-3] stop freezes the claw where it is with every output off; only resume and home are taken', () => {
    const h = harness();
    h.run(start());
    h.ticks(1);
    h.run({ type: 'press', play_id: 7, button: 'right' });
    h.ticks(10);
    expect(h.run({ type: 'stop' })).toMatchObject({ ok: true });
    const frozen = h.driver.status(1);
    expect(frozen).toMatchObject({ stopped: true, outputs: [], claw: 'wait_back', playId: 7 });
    expect(h.clock.pendingTimers).toBe(0);
    h.ticks(40);
    expect(h.driver.status(1)).toEqual(frozen);
    expect(h.run({ type: 'press', play_id: 7, button: 'back' })).toEqual({ ok: false, reason: 'stopped' });
    expect(h.run(start(9))).toEqual({ ok: false, reason: 'stopped' });

    expect(h.run({ type: 'resume' })).toMatchObject({ ok: true });
    expect(h.run({ type: 'press', play_id: 7, button: 'back' })).toMatchObject({ ok: true });
    h.ticks(5);
    expect(h.driver.status(1).clawPosition!.z).toBe(CRANE.home.z + 50);
  });

  it('home while stopped voids the play and brings the claw home', () => {
    const h = harness();
    h.run(start());
    h.ticks(1);
    h.run({ type: 'press', play_id: 7, button: 'right' });
    h.ticks(10);
    h.run({ type: 'stop' });
    expect(h.run({ type: 'home' })).toEqual({ ok: true });
    expect(h.driver.status(1)).toMatchObject({ playId: null, claw: 'idle', stopped: true, outputs: [] });
    expect(h.driver.status(1).clawPosition).toMatchObject({ x: CRANE.home.x, z: CRANE.home.z, h: 0 });
    h.run({ type: 'resume' });
    expect(h.run(start(9))).toEqual({ ok: true, tick: 0 });
  });

  it('releaseAll lets go of a held button synchronously', () => {
    const h = harness();
    h.run(start());
    h.ticks(1);
    h.run({ type: 'press', play_id: 7, button: 'right' });
    h.ticks(3);
    h.driver.releaseAll();
    expect(h.statuses.at(-1)!.status).toMatchObject({ claw: 'wait_back', outputs: [] });
    h.ticks(5);
    expect(h.driver.status(1).clawPosition!.x).toBe(CRANE.home.x + 30);
  });

  it('the chute sensor stays blocked 300 ms after the prize falls; no play starts while it is blocked', () => {
    const h = harness();
    h.run(start());
    steer(h, 30, 30);
    for (let i = 0; i < 2_000 && h.prizes.length === 0; i += 1) h.ticks(1);
    const fellAt = h.prizes[0]!.at;
    expect(h.driver.status(1).sensor).toBe('blocked');
    untilIdle(h);
    expect(h.run(start(9))).toEqual({ ok: false, reason: 'sensor_blocked' });
    h.clock.set(fellAt + SIM_SENSOR_HOLD_MS - 1);
    expect(h.driver.status(1).sensor).toBe('blocked');
    h.clock.advance(1);
    expect(h.statuses.at(-1)!.status).toMatchObject({ sensor: 'clear', claw: 'idle' });
    expect(h.run(start(9))).toEqual({ ok: true, tick: 0 });
  });

  it('a blocked sensor (a hand in the chute) refuses a start with sensor_blocked', () => {
    const h = harness();
    (h.driver as SimDriver).blockSensor(1, true);
    expect(h.statuses.at(-1)).toMatchObject({ station: 1, status: { sensor: 'blocked' } });
    expect(h.run(start())).toEqual({ ok: false, reason: 'sensor_blocked' });
    h.driver.blockSensor(1, false);
    expect(h.run(start())).toEqual({ ok: true, tick: 0 });
  });

  it('costs nothing while idle: a timer only while a play runs, and stations are independent', () => {
    const h = harness();
    expect(h.clock.pendingTimers).toBe(0);
    h.run(start(), 2);
    expect(h.clock.pendingTimers).toBe(1);
    h.ticks(20);
    expect(h.driver.status(1)).toMatchObject({ claw: 'idle', playId: null });
    expect(h.driver.status(2)).toMatchObject({ claw: 'ready', playId: 7 });
    expect(h.driver.stations.map((s) => s.station_id)).toEqual([1, 2]);
  });

  it('keeps its pace when its timer fires late (a busy event loop): a tick every 50 ms, not every 50 ms plus the delay', () => {
    const clock = new ManualClock(1_000);
    let lateMs = 0;
    const late = {
      now: () => clock.now(),
      setTimeout: (task: () => void, ms: number) => clock.setTimeout(task, ms + lateMs),
    };
    const driver = createSimDriver([{ station_id: 1 }], late);
    void driver.start({ status: () => undefined, prize: () => undefined, fault: () => undefined });
    driver.carryOut(1, start());
    clock.advance(10 * TICK);
    const from = driver.status(1).sim!.tick;
    lateMs = 20;
    clock.advance(1000);
    // Each tick ran 20 ms late, and the next was still due 50 ms after the last was due: 1000 ms
    // hold 19–20 ticks (counting from when each ran, 1000 / 70 = 14 would have run).
    const ticked = driver.status(1).sim!.tick - from;
    expect(ticked).toBeGreaterThanOrEqual(19);
    expect(ticked).toBeLessThanOrEqual(20);
  });
});
