import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config';

const KEY = 'sk_station_0123456789abcdefghij';
let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-config-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function machineFile(content: unknown): Promise<string> {
  const file = path.join(folder, 'machines.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const sim = { server: 'ws://127.0.0.1:8080/agent', driver: 'sim', stations: [{ station_id: 1 }, { station_id: 2 }] };

describe('agent machine file', () => {
  it('cameras: "whip" is read for driver sim and refused for a cabinet (its own cameras publish on their own)', async () => {
    expect(
      (await loadAgentConfig(await machineFile({ ...sim, cameras: 'whip' }), { ONKURE_AGENT_KEY: KEY })).cameras,
    ).toBe(true);
    await expect(
      loadAgentConfig(await machineFile({ ...sim, driver: 'gpio', cameras: 'whip' }), { ONKURE_AGENT_KEY: KEY }),
    ).rejects.toThrow(/cameras: cameras: "whip" is for driver sim/);
    await expect(
      loadAgentConfig(await machineFile({ ...sim, cameras: 'rtsp' }), { ONKURE_AGENT_KEY: KEY }),
    ).rejects.toThrow(/cameras/);
  });

  it('reads a sim machine file with the key from ONKURE_AGENT_KEY', async () => {
    const config = await loadAgentConfig(await machineFile(sim), { ONKURE_AGENT_KEY: `${KEY}\n` });
    expect(config).toEqual({
      server: sim.server,
      key: KEY,
      driver: 'sim',
      name: undefined,
      stations: sim.stations,
      cameras: false,
      warnings: [],
    });
  });

  it('reads the key from key_file, relative to the machine file, and warns when others can read it', async () => {
    await writeFile(path.join(folder, 'station.key'), `${KEY}\n`);
    await chmod(path.join(folder, 'station.key'), 0o644);
    const config = await loadAgentConfig(await machineFile({ ...sim, key_file: 'station.key' }), {});
    expect(config.key).toBe(KEY);
    expect(config.warnings).toEqual([expect.stringContaining('can be read by others')]);
    await chmod(path.join(folder, 'station.key'), 0o600);
    expect((await loadAgentConfig(await machineFile({ ...sim, key_file: 'station.key' }), {})).warnings).toEqual([]);
  });

  it('keeps a gpio section as it is, for the gpio driver to check', async () => {
    const stations = [{ station_id: 4, gpio: { chip: 'gpiochip0', right: { line: 17 } } }];
    const config = await loadAgentConfig(await machineFile({ ...sim, driver: 'gpio', stations }), {
      ONKURE_AGENT_KEY: KEY,
    });
    expect(config.stations).toEqual(stations);
  });

  it.each([
    ['a key in the file', { ...sim, key: KEY }, /holds a key: remove it/],
    ['no key anywhere', sim, /no station key: set ONKURE_AGENT_KEY/],
    ['not JSON', '{"server":', /is not JSON/],
    ['an http address', { ...sim, server: 'http://x/agent' }, /server: must be a ws:\/\/ or wss:\/\/ address/],
    ['an unknown driver', { ...sim, driver: 'serial' }, /driver: Invalid option/],
    ['no stations', { ...sim, stations: [] }, /stations: lists no station/],
    ['a station twice', { ...sim, stations: [{ station_id: 1 }, { station_id: 1 }] }, /names a station twice/],
    ['a misspelt field', { ...sim, stations: [{ station: 1 }] }, /stations\.0: Unrecognized key: "station"/],
  ])('refuses %s with a clear message', async (_what, content, message) => {
    const env = _what === 'no key anywhere' ? {} : { ONKURE_AGENT_KEY: KEY };
    await expect(loadAgentConfig(await machineFile(content), env)).rejects.toThrow(message);
  });

  it('refuses a key that is not one, and a missing file', async () => {
    await expect(loadAgentConfig(await machineFile(sim), { ONKURE_AGENT_KEY: 'short' })).rejects.toThrow(
      /from ONKURE_AGENT_KEY is not a key/,
    );
    await expect(loadAgentConfig(path.join(folder, 'none.json'), {})).rejects.toThrow(/cannot read .* ENOENT/);
  });
});
