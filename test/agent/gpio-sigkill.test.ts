import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeDevice, processGone, PYTHON, sets, STATION_GPIO, type FakeDevice } from './gpio-support';

/*
 * The proof: SIGKILL of the agent-side process leaves no output energised. The agent is a
 * real process (gpio-agent-fixture.ts) running the gpio driver and its real helper; only the
 * binding's device calls are stood in for, and they record every value the helper writes.
 */

const FIXTURE = fileURLToPath(new URL('./gpio-agent-fixture.ts', import.meta.url));
let device: FakeDevice | null = null;
let agent: ChildProcess | null = null;
let helperPid = 0;

afterEach(async () => {
  if (agent && agent.exitCode === null && agent.signalCode === null) {
    agent.kill('SIGKILL');
    await once(agent, 'exit');
  }
  agent = null;
  if (helperPid) await vi.waitFor(() => expect(processGone(helperPid)).toBe(true));
  helperPid = 0;
  device?.remove();
  device = null;
});

async function agentHolding(commands: unknown[], station: unknown = STATION_GPIO) {
  device = fakeDevice();
  agent = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: {
      ...device.env,
      ONKURE_GPIO_FIXTURE_STATION: JSON.stringify(station),
      ONKURE_GPIO_FIXTURE_COMMANDS: JSON.stringify(commands),
      ONKURE_GPIO_FIXTURE_PYTHON: PYTHON,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(agent.stdout!, 'data')) as [Buffer];
  const said = JSON.parse(line.toString()) as { helperPid: number; outcomes: unknown[] };
  helperPid = said.helperPid;
  expect(said.outcomes.every((o) => (o as { ok: boolean }).ok)).toBe(true);
  return { device, agent, helperPid };
}

async function sigkill(child: ChildProcess): Promise<number> {
  const at = Number(process.hrtime.bigint());
  child.kill('SIGKILL');
  await once(child, 'exit');
  return at;
}

describe('gpio driver: the agent killed', () => {
  it('SIGKILL of the agent while → is held: the helper drives every output inactive and ends', async () => {
    const { device, agent, helperPid } = await agentHolding([
      { type: 'start', play_id: 1, arm_strength: 1 },
      { type: 'press', play_id: 1, button: 'right' },
    ]);
    expect(device.levels()['17']).toBe(0); // energised (active low)
    const killedAt = await sigkill(agent);
    const off = await device.waitFor((r) => r.pid === helperPid && r.t_ns > killedAt && sets(17, 1)(r));
    console.log(`gpio: agent SIGKILL → outputs inactive after ${((off.t_ns - killedAt) / 1e6).toFixed(1)} ms`);
    await vi.waitFor(() => expect(processGone(helperPid)).toBe(true));
    expect(off.values).toEqual({
      '17': { value: 0, level: 1 },
      '27': { value: 0, level: 1 },
      '22': { value: 0, level: 1 },
      '23': { value: 0, level: 0 },
    });
    expect(device.levels()).toEqual({ '17': 1, '27': 1, '22': 1, '23': 0 });
    expect(device.records().at(-1)).toMatchObject({ call: 'release', pid: helperPid });
  });

  it('SIGKILL of the agent in the middle of a drop pulse: drop goes inactive at once, not at the pulse end', async () => {
    const long = {
      ...STATION_GPIO,
      outputs: { ...STATION_GPIO.outputs, drop: { line: 22, active: 'low', pulse_ms: 2_000 } },
    };
    const { device, agent, helperPid } = await agentHolding(
      [
        { type: 'start', play_id: 2, arm_strength: 1 },
        { type: 'press', play_id: 2, button: 'right' },
        { type: 'drop', play_id: 2 },
      ],
      long,
    );
    const pressed = await device.waitFor(sets(22, 0));
    const killedAt = await sigkill(agent);
    const off = await device.waitFor((r) => r.pid === helperPid && r.t_ns > killedAt && sets(22, 1)(r));
    expect((off.t_ns - pressed.t_ns) / 1e6).toBeLessThan(2_000);
    await vi.waitFor(() => expect(processGone(helperPid)).toBe(true));
    expect(device.levels()).toEqual({ '17': 1, '27': 1, '22': 1, '23': 0 });
  });
});
