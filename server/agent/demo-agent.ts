import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { SERVER_MESSAGES } from '../messages';
import type { Services } from '../services';

/*
 * The demo's machines (`npm start`, the e2e run; development only, ONKURE_DEMO_AGENT_DIR): one sim
 * agent process drives every station, over the real protocol,
 * with a key issued here the way an operator issues one in the console. The server writes the
 * agent's machine file and key file; the launcher (scripts/server-process.mjs) starts the agent
 * from them. Keys are stored hashed: a restart on the same folder keeps the key file's key while it
 * is valid for every station; otherwise it revokes the demo's earlier keys and issues a new one.
 */

/** The name the demo's key carries in the console's key list. */
export const DEMO_KEY_NAME = SERVER_MESSAGES.demoAgentKeyName;
export const DEMO_MACHINE_FILE = 'machines.json';
const DEMO_KEY_FILE = 'agent.key';

export interface DemoAgent {
  readonly machineFile: string;
  readonly stationIds: readonly number[];
}

/** Writes `text` so that a reader never sees half of it (the launcher waits for the machine file). */
async function writeWhole(file: string, text: string, mode: number): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, text, { mode });
  await chmod(partial, mode);
  await rename(partial, file);
}

export async function provisionDemoAgent(
  services: Pick<Services, 'store' | 'stationKeys'>,
  options: { readonly dir: string; readonly serverUrl: string },
): Promise<DemoAgent> {
  const rows = await services.store.query<{ station_id: number }>(
    'SELECT station_id FROM stations ORDER BY station_id',
  );
  const stationIds = rows.map((r) => r.station_id);

  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const keyFile = path.join(options.dir, DEMO_KEY_FILE);
  // A restart on the same folder keeps the key it holds while that key still names every station:
  // the agent, still running, dials again on it as a cabinet's agent does after a server restart.
  const kept = await readFile(keyFile, 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  const grant = kept ? await services.stationKeys.verify(kept) : null;
  const keeps = grant?.name === DEMO_KEY_NAME && stationIds.every((id) => grant.stationIds.includes(id));
  if (!keeps) {
    for (const entry of await services.stationKeys.list())
      if (entry.name === DEMO_KEY_NAME && (entry.state === 'active' || entry.state === 'rotating'))
        await services.stationKeys.revoke(entry.key_id, { by: 'demo' });
    const { key } = await services.stationKeys.issue({ name: DEMO_KEY_NAME, stationIds, by: 'demo' });
    await writeWhole(keyFile, `${key}\n`, 0o600);
  }
  const machineFile = path.join(options.dir, DEMO_MACHINE_FILE);
  const agentUrl = new URL(AGENT_PATH, options.serverUrl.replace(/^http/, 'ws')).toString();
  await writeWhole(
    machineFile,
    `${JSON.stringify(
      {
        server: agentUrl,
        key_file: DEMO_KEY_FILE,
        driver: 'sim',
        name: 'demo-sim',
        // The demo's cameras are the sim agent's, painted and published over WHIP while watched.
        cameras: 'whip',
        stations: stationIds.map((id) => ({ station_id: id })),
      },
      null,
      2,
    )}\n`,
    0o600,
  );
  return { machineFile, stationIds };
}
