import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseGpioStation } from '../../agent/drivers/gpio-config';
import { createGpioDriver, helperConfigOf } from '../../agent/drivers/gpio-driver';
import { GpioHelper } from '../../agent/drivers/gpio-helper-process';
import type { MachineDriver } from '../../agent/machine-driver';
import { ManualClock } from '../../src/testing/manual-clock';
import { fakeDevice, processGone, PYTHON, RecordedEvents, sets, STATION_GPIO, type FakeDevice } from './gpio-support';

/*
 * Driver `gpio` with its real helper process; only python3-libgpiod's calls into the device are
 * stood in for (gpio-support.ts). Lines: → 17 and ↑ 27 and drop 22 active low, credit 23 active
 * high, chute sensor 24 active high (blocked = high).
 */

let device: FakeDevice | null = null;
let driver: MachineDriver | null = null;
let helperPid = 0;

afterEach(async () => {
  await driver?.close();
  driver = null;
  if (helperPid) await vi.waitFor(() => expect(processGone(helperPid)).toBe(true));
  helperPid = 0;
  device?.remove();
  device = null;
});

async function started(options: { gpio?: unknown; env?: Record<string, string> } = {}) {
  device = fakeDevice(options.env);
  const clock = new ManualClock(0);
  const events = new RecordedEvents();
  const raw: { input: string; active: boolean }[] = [];
  const log: string[] = [];
  driver = createGpioDriver([{ station_id: 1, gpio: options.gpio ?? STATION_GPIO }], {
    log: (line) => {
      log.push(line);
      helperPid ||= Number(/helper pid (\d+)/.exec(line)?.[1] ?? 0);
    },
    clock,
    python: PYTHON,
    env: device.env,
    trace: (_station, input, active) => raw.push({ input, active }),
  });
  await driver.start(events);
  return { device, driver, clock, events, raw, log };
}

const ns = () => Number(process.hrtime.bigint());

describe('gpio driver: outputs', () => {
  it('requests every output inactive at its own polarity, and the sensor with kernel debounce', async () => {
    const { device, driver } = await started();
    const request = device.records().find((r) => r.call === 'request');
    expect(request?.consumer).toBe('onkure');
    expect(request?.lines?.['17']).toMatchObject({ direction: 'output', active_low: true, level: 1 });
    expect(request?.lines?.['23']).toMatchObject({ direction: 'output', active_low: false, level: 0 });
    expect(request?.lines?.['24']).toMatchObject({ direction: 'input', edge: 'both', bias: 'pull_up', debounce_ms: 5 });
    expect(driver.status(1)).toMatchObject({ claw: 'idle', sensor: 'clear', stopped: false, outputs: [] });
    expect(driver.stations).toEqual([
      { station_id: 1, position: false, phases: false, chute_sensor: true, arm_strength: false },
    ]);
  });

  it('pulses credit on start, holds → and ↑ while pressed, and goes idle after cycle_ms', async () => {
    const { device, driver, clock, events } = await started();
    expect(await driver.carryOut(1, { type: 'start', play_id: 7, arm_strength: 1 })).toEqual({ ok: true });
    // Credit is active high: high for its pulse, then low again (the helper times it).
    await device.waitFor(sets(23, 1));
    await device.waitFor(sets(23, 0));
    await vi.waitFor(() => expect(driver.status(1).outputs).toEqual([]));
    expect(driver.status(1)).toMatchObject({ claw: 'ready', playId: 7 });

    expect(await driver.carryOut(1, { type: 'press', play_id: 7, button: 'right' })).toEqual({ ok: true });
    expect(device.levels()['17']).toBe(0); // active low: energised
    expect(driver.status(1)).toMatchObject({ claw: 'moving_right', outputs: ['right'] });
    expect(await driver.carryOut(1, { type: 'release', play_id: 7, button: 'right' })).toEqual({ ok: true });
    expect(device.levels()['17']).toBe(1);
    expect(driver.status(1).claw).toBe('wait_back');

    expect(await driver.carryOut(1, { type: 'press', play_id: 7, button: 'back' })).toEqual({ ok: true });
    expect(device.levels()['27']).toBe(0);
    expect(await driver.carryOut(1, { type: 'release', play_id: 7, button: 'back' })).toEqual({ ok: true });
    expect(device.levels()['27']).toBe(1);
    expect(driver.status(1)).toMatchObject({ claw: 'dropping', playId: 7 });

    clock.advance(2_999);
    expect(driver.status(1).claw).toBe('dropping');
    clock.advance(1);
    expect(driver.status(1)).toMatchObject({ claw: 'idle', playId: null });
    expect(events.statuses.at(-1)?.status.claw).toBe('idle');
  });

  it('pulses drop (active low) on `drop`, after letting go of the direction held', async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 3, arm_strength: 0.5 });
    await driver.carryOut(1, { type: 'press', play_id: 3, button: 'right' });
    expect(await driver.carryOut(1, { type: 'drop', play_id: 3 })).toEqual({ ok: true });
    const released = await device.waitFor(sets(17, 1));
    const pressed = await device.waitFor(sets(22, 0));
    const ended = await device.waitFor(sets(22, 1));
    expect(released.t_ns).toBeLessThan(pressed.t_ns);
    const widthMs = (ended.t_ns - pressed.t_ns) / 1e6;
    console.log(`gpio: drop pulse ${widthMs.toFixed(1)} ms wide (40 ms asked)`);
    expect(widthMs).toBeGreaterThanOrEqual(40);
    expect(driver.status(1).claw).toBe('dropping');
  });

  it('a press reaches its line within 10 ms (median of 20), measured at the library call', async () => {
    const { device, driver, clock } = await started();
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      await driver.carryOut(1, { type: 'start', play_id: i + 1, arm_strength: 1 });
      const before = ns();
      const count = device.records().length;
      await driver.carryOut(1, { type: 'press', play_id: i + 1, button: 'right' });
      const record = device.records().slice(count).find(sets(17, 0));
      latencies.push(((record?.t_ns ?? Infinity) - before) / 1e6);
      await driver.carryOut(1, { type: 'release', play_id: i + 1, button: 'right' });
      await driver.carryOut(1, { type: 'home' }); // drops; the cycle brings the claw home
      clock.advance(3_000);
      expect(driver.status(1).claw).toBe('idle');
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[10] ?? Infinity;
    console.log(`gpio: press → line p50 ${p50.toFixed(2)} ms, max ${latencies.at(-1)?.toFixed(2)} ms`);
    expect(p50).toBeLessThanOrEqual(10);
  });
});

describe('gpio driver: interlock and emergency stop', () => {
  it('releases a button held past hold_limit_ms by itself and reports hold_limit', async () => {
    const { device, driver, clock, events } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 11, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 11, button: 'right' });
    clock.advance(20_999);
    expect(events.faults).toEqual([]);
    clock.advance(1);
    expect(events.faults.map((f) => f.code)).toEqual(['hold_limit']);
    await device.waitFor(sets(17, 1));
    await vi.waitFor(() => expect(driver.status(1)).toMatchObject({ claw: 'wait_back', outputs: [] }));
  });

  it('never energises → and ↑ together: the driver refuses, and no write reaches ↑', async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 2, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 2, button: 'right' });
    expect(await driver.carryOut(1, { type: 'press', play_id: 2, button: 'back' })).toEqual({
      ok: false,
      reason: 'interlock',
    });
    expect(device.records().some(sets(27, 0))).toBe(false);
    expect(driver.status(1).outputs).toContain('right');
    expect(driver.status(1).outputs).not.toContain('back');
  });

  it('the helper keeps the interlock too: one write asking for both is refused whole', async () => {
    device = fakeDevice();
    const config = helperConfigOf([{ stationId: 1, config: parseGpioStation(1, STATION_GPIO) }], 'onkure');
    const none = { edge: () => undefined, pulseEnd: () => undefined, exited: () => undefined };
    const { helper } = await GpioHelper.start(
      { python: PYTHON, env: device.env, config, startTimeoutMs: 10_000 },
      none,
    );
    helperPid = helper.pid ?? 0;
    try {
      await expect(helper.send({ set: { '1.right': 1, '1.back': 1 } })).rejects.toThrow(
        'interlock: 1.right and 1.back are never active together',
      );
      await helper.send({ set: { '1.right': 1 } });
      await expect(helper.send({ set: { '1.back': 1 } })).rejects.toThrow(/interlock/);
      expect(device.records().some(sets(27, 0))).toBe(false);
    } finally {
      await helper.close();
    }
  });

  it('[R11-3] stop drives every output inactive at once (measured), refuses all but resume/home, and resume ends it', async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 4, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 4, button: 'right' });
    const before = ns();
    expect(await driver.carryOut(1, { type: 'stop' })).toEqual({ ok: true });
    const off = await device.waitFor(
      (r) => r.call === 'set_values' && ['17', '27', '22', '23'].every((line) => r.values?.[line] !== undefined),
    );
    const ms = (off.t_ns - before) / 1e6;
    console.log(`gpio: e-stop → every output inactive in ${ms.toFixed(2)} ms (one write for the four lines)`);
    expect(ms).toBeLessThan(100);
    expect(device.levels()).toMatchObject({ '17': 1, '27': 1, '22': 1, '23': 0 });
    expect(driver.status(1)).toMatchObject({ stopped: true, outputs: [], claw: 'wait_back' });
    expect(await driver.carryOut(1, { type: 'press', play_id: 4, button: 'back' })).toEqual({
      ok: false,
      reason: 'stopped',
    });
    expect(await driver.carryOut(1, { type: 'resume' })).toEqual({ ok: true });
    expect(await driver.carryOut(1, { type: 'press', play_id: 4, button: 'back' })).toEqual({ ok: true });
  });

  it('releaseAll writes every output inactive before it returns (the watchdog and exit)', async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 5, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 5, button: 'right' });
    driver.releaseAll();
    expect(driver.status(1).outputs).toEqual([]);
    await device.waitFor(
      (r) => r.call === 'set_values' && r.values?.['17']?.level === 1 && r.values['27'] !== undefined,
    );
    expect(device.levels()).toMatchObject({ '17': 1, '27': 1, '22': 1, '23': 0 });
  });

  it("release(station) (an e-stop's first step) writes that station's outputs inactive before it returns", async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 6, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 6, button: 'right' });
    driver.release(1);
    expect(driver.status(1).outputs).toEqual([]);
    await device.waitFor(
      (r) => r.call === 'set_values' && r.values?.['17']?.level === 1 && r.values['27'] !== undefined,
    );
    expect(device.levels()).toMatchObject({ '17': 1, '27': 1, '22': 1, '23': 0 });
  });

  it('close drives every output inactive and leaves no helper behind', async () => {
    const { device, driver } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 6, arm_strength: 1 });
    await driver.carryOut(1, { type: 'press', play_id: 6, button: 'right' });
    await driver.close();
    expect(processGone(helperPid)).toBe(true);
    expect(device.levels()['17']).toBe(1);
    expect(device.records().at(-1)?.call).toBe('release');
  });
});

describe('gpio driver: chute sensor', () => {
  it('refuses start while the sensor is blocked (sensor_blocked) and reports a prize between plays as null', async () => {
    const { device, driver, clock, events, raw } = await started();
    device.setInput(24, 1);
    await vi.waitFor(() => expect(raw).toEqual([{ input: 'chute_sensor', active: true }]));
    clock.advance(5);
    expect(driver.status(1).sensor).toBe('blocked');
    expect(events.prizes).toEqual([{ stationId: 1, playId: null }]);
    expect(await driver.carryOut(1, { type: 'start', play_id: 8, arm_strength: 1 })).toEqual({
      ok: false,
      reason: 'sensor_blocked',
    });
    expect(device.records().some(sets(23, 1))).toBe(false);
  });

  it('counts a debounced blocked edge as the prize of the running play; a bounce shorter than debounce counts once', async () => {
    const { device, driver, clock, events, raw } = await started();
    await driver.carryOut(1, { type: 'start', play_id: 9, arm_strength: 1 });
    // A blip shorter than the debounce: nothing.
    device.setInput(24, 1);
    device.setInput(24, 0);
    await vi.waitFor(() => expect(raw).toHaveLength(2));
    clock.advance(10);
    expect(events.prizes).toEqual([]);
    // A bouncing fall: three raw edges, one prize once the level has held.
    device.setInput(24, 1);
    device.setInput(24, 0);
    device.setInput(24, 1);
    await vi.waitFor(() => expect(raw).toHaveLength(5));
    clock.advance(4);
    expect(events.prizes).toEqual([]);
    clock.advance(1);
    expect(events.prizes).toEqual([{ stationId: 1, playId: 9 }]);
    expect(driver.status(1).sensor).toBe('blocked');
  });

  it('reports sensor_stuck when the sensor stays blocked past sensor_stuck_ms', async () => {
    const { device, driver, clock, events, raw } = await started();
    device.setInput(24, 1);
    await vi.waitFor(() => expect(raw).toHaveLength(1));
    clock.advance(5);
    clock.advance(4_999);
    expect(events.faults).toEqual([]);
    clock.advance(1);
    expect(events.faults).toEqual([
      { stationId: 1, code: 'sensor_stuck', text: 'the chute sensor is blocked for more than 5000 ms' },
    ]);
    device.setInput(24, 0);
    await vi.waitFor(() => expect(raw).toHaveLength(2));
    clock.advance(5);
    expect(driver.status(1).sensor).toBe('clear');
  });
});

describe('gpio driver: start-up checks', () => {
  it('refuses to start on libgpiod v1 bindings, naming what is needed', async () => {
    await expect(started({ env: { GPIOD_FAKE_VERSION: '1.6.3' } })).rejects.toThrow(
      /libgpiod v2 bindings are needed, found libgpiod 1\.6\.3/,
    );
  });

  it('refuses to start when the chip does not exist', async () => {
    await expect(started({ env: { GPIOD_FAKE_CHIPS: '/dev/gpiochip9' } })).rejects.toThrow(
      /\/dev\/gpiochip0 is not a GPIO chip device/,
    );
  });

  it('refuses to start when a line is held by another consumer', async () => {
    await expect(started({ env: { GPIOD_FAKE_BUSY: '27' } })).rejects.toThrow(/cannot request the GPIO lines: .*busy/);
  });

  it('refuses to start without python3-libgpiod', async () => {
    await expect(started({ env: { PYTHONPATH: '/nonexistent' } })).rejects.toThrow(
      /python3-libgpiod is not installed|libgpiod v2 bindings are needed|is not a GPIO chip device/,
    );
  });

  it('reports a driver fault for every station when the helper dies under it', async () => {
    const { events } = await started();
    process.kill(helperPid, 'SIGKILL');
    await vi.waitFor(() => expect(events.faults.map((f) => f.code)).toEqual(['driver']));
    expect(await driver?.carryOut(1, { type: 'start', play_id: 1, arm_strength: 1 })).toEqual({
      ok: false,
      reason: 'driver',
    });
  });
});
