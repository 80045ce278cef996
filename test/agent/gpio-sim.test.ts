import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGpioDriver } from '../../agent/drivers/gpio-driver';
import type { MachineDriver } from '../../agent/machine-driver';
import { processGone, RecordedEvents } from './gpio-support';

/*
 * The gpio driver against the kernel's own GPIO simulator (gpio-sim through configfs), with the
 * real python3-libgpiod: no stand-in at all. It runs only where the kernel has gpio-sim and Debian's
 * python3 has libgpiod v2; elsewhere it is skipped and says why. (This project's VM kernel has no
 * GPIOLIB and no configfs, and Debian's kernels build gpio-sim off: docs/agent-wiring.md.)
 */

const CONFIGFS = '/sys/kernel/config/gpio-sim';
const PYTHON = '/usr/bin/python3';
const FIXTURE = fileURLToPath(new URL('./gpio-agent-fixture.ts', import.meta.url));

function unavailable(): string | null {
  if (!existsSync(CONFIGFS))
    return `${CONFIGFS} does not exist (the kernel has no gpio-sim or configfs is not mounted)`;
  const probe = spawnSync(PYTHON, ['-c', 'import gpiod; assert int(gpiod.api_version.split(".")[0]) >= 2'], {
    encoding: 'utf8',
  });
  if (probe.status !== 0)
    return `${PYTHON} has no python3-libgpiod 2.x (apt-get install -t bookworm-backports python3-libgpiod)`;
  return null;
}

const reason = unavailable();
if (reason) console.log(`gpio-sim test skipped: ${reason}`);

describe.skipIf(reason !== null)(`gpio driver on the kernel's gpio-sim${reason ? ` (skipped: ${reason})` : ''}`, () => {
  const dir = `${CONFIGFS}/onkure-test-${process.pid}`;
  let chip = '';
  let lines = '';
  let driver: MachineDriver | null = null;

  const level = (offset: number) => Number(readFileSync(`${lines}/sim_gpio${offset}/value`, 'utf8').trim());
  const pull = (offset: number, up: boolean) =>
    writeFileSync(`${lines}/sim_gpio${offset}/pull`, up ? 'pull-up' : 'pull-down');
  const station = () => ({
    chip,
    outputs: {
      right: { line: 17, active: 'low' },
      back: { line: 27, active: 'low' },
      drop: { line: 22, active: 'low', pulse_ms: 40 },
      credit: { line: 23, active: 'high', pulse_ms: 30 },
    },
    chute_sensor: { line: 24, active: 'high', debounce_ms: 5 },
    cycle_ms: 3_000,
  });

  beforeAll(() => {
    mkdirSync(dir);
    mkdirSync(`${dir}/bank0`);
    writeFileSync(`${dir}/bank0/num_lines`, '32');
    writeFileSync(`${dir}/live`, '1');
    chip = readFileSync(`${dir}/bank0/chip_name`, 'utf8').trim();
    lines = `/sys/devices/platform/${readFileSync(`${dir}/dev_name`, 'utf8').trim()}/${chip}`;
    pull(24, false);
    // The relay board's own pull-ups on its active-low inputs: a released line rests inactive.
    for (const relay of [17, 27, 22]) pull(relay, true);
  });

  afterAll(async () => {
    await driver?.close();
    writeFileSync(`${dir}/live`, '0');
    rmdirSync(`${dir}/bank0`);
    rmdirSync(dir);
  });

  it('drives the relays at their polarity, sees the sensor, and releases on stop', async () => {
    const events = new RecordedEvents();
    driver = createGpioDriver([{ station_id: 1, gpio: station() }], { log: () => undefined, python: PYTHON });
    await driver.start(events);
    expect([level(17), level(27), level(22), level(23)]).toEqual([1, 1, 1, 0]);
    expect(await driver.carryOut(1, { type: 'start', play_id: 1, arm_strength: 1 })).toEqual({ ok: true });
    expect(await driver.carryOut(1, { type: 'press', play_id: 1, button: 'right' })).toEqual({ ok: true });
    expect(level(17)).toBe(0);
    pull(24, true);
    await vi.waitFor(() => expect(events.prizes).toEqual([{ stationId: 1, playId: 1 }]));
    expect(await driver.carryOut(1, { type: 'stop' })).toEqual({ ok: true });
    expect([level(17), level(27), level(22), level(23)]).toEqual([1, 1, 1, 0]);
    pull(24, false);
    await driver.close();
    driver = null;
  });

  it('SIGKILL of the agent: the helper drives the held relay inactive and ends', async () => {
    const agent = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: {
        ...process.env,
        ONKURE_GPIO_FIXTURE_STATION: JSON.stringify(station()),
        ONKURE_GPIO_FIXTURE_COMMANDS: JSON.stringify([
          { type: 'start', play_id: 2, arm_strength: 1 },
          { type: 'press', play_id: 2, button: 'right' },
        ]),
        ONKURE_GPIO_FIXTURE_PYTHON: PYTHON,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(agent.stdout, 'data')) as [Buffer];
    const { helperPid } = JSON.parse(line.toString()) as { helperPid: number };
    expect(level(17)).toBe(0);
    agent.kill('SIGKILL');
    await once(agent, 'exit');
    await vi.waitFor(() => expect(processGone(helperPid)).toBe(true));
    // gpio-sim gives a released line its pull, so this shows the line is inactive and no longer
    // held; the helper's own inactive write before it lets go is shown in gpio-sigkill.test.ts.
    expect(level(17)).toBe(1);
  });
});
