import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod/mini';
import { AGENT_MAX_STATIONS } from '../src/contract/agent.schema';

/*
 * The machine file: which server the agent dials, which driver runs the cabinets and which stations
 * they are. The station key is never in it (a machine file is read by whoever services the cabinet):
 * it comes from the environment (ONKURE_AGENT_KEY) or from a file of its own (`key_file`).
 */

/** zod/mini carries no messages of its own: English ones for this parse, for the operator reading them. */
const english = z.locales.en().localeError;

export class AgentConfigError extends Error {
  override readonly name = 'AgentConfigError';
}

export const isAgentConfigError = (error: unknown): error is AgentConfigError =>
  error instanceof Error && error.name === 'AgentConfigError';

const isAgentUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'ws:' || url.protocol === 'wss:';
  } catch {
    return false;
  }
};

const stationSchema = z.strictObject({
  station_id: z.int().check(z.positive(), z.lte(2_147_483_647)),
  /** The gpio driver's wiring of this station (the gpio driver validates it). */
  gpio: z.optional(z.unknown()),
});

export const machineFileSchema = z
  .strictObject({
    server: z.string().check(z.refine(isAgentUrl, 'must be a ws:// or wss:// address, e.g. ws://127.0.0.1:8080/agent')),
    key_file: z.optional(z.string().check(z.minLength(1))),
    driver: z.enum(['sim', 'gpio']),
    /** A name for this agent's log lines (e.g. the shop's cabinet row). */
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    /**
     * "whip": the sim driver paints its stations' cameras and publishes the watched ones over WHIP
     * (docs/agent-protocol.md "Cameras"). A real cabinet's cameras publish on their own (OBS, a phone).
     */
    cameras: z.optional(z.literal('whip')),
    stations: z.array(stationSchema).check(
      z.minLength(1, 'lists no station'),
      z.maxLength(AGENT_MAX_STATIONS, `lists more than ${AGENT_MAX_STATIONS} stations`),
      z.refine((list) => new Set(list.map((s) => s.station_id)).size === list.length, 'names a station twice'),
    ),
  })
  .check(
    z.refine((file) => file.cameras === undefined || file.driver === 'sim', {
      message: 'cameras: "whip" is for driver sim (a cabinet\'s own cameras publish on their own)',
      path: ['cameras'],
    }),
  );
export type MachineFile = z.infer<typeof machineFileSchema>;

export interface AgentConfig {
  readonly server: string;
  readonly key: string;
  readonly driver: MachineFile['driver'];
  readonly name: string | undefined;
  readonly stations: MachineFile['stations'];
  /** Whether the sim driver publishes its painted cameras over WHIP. */
  readonly cameras: boolean;
  /** Things to tell the operator that do not stop the agent (a key file others can read). */
  readonly warnings: readonly string[];
}

/** Reads and checks the machine file at `file` and finds the key; throws AgentConfigError with a clear message. */
export async function loadAgentConfig(file: string, env: NodeJS.ProcessEnv): Promise<AgentConfig> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new AgentConfigError(`cannot read the machine file ${file}: ${error.code ?? error.message}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AgentConfigError(`the machine file ${file} is not JSON: ${(error as Error).message}`);
  }
  if (json !== null && typeof json === 'object' && 'key' in json) {
    throw new AgentConfigError(
      `the machine file ${file} holds a key: remove it, and give the key in ONKURE_AGENT_KEY or in a file named by "key_file"`,
    );
  }
  const parsed = machineFileSchema.safeParse(json, { error: english });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new AgentConfigError(`the machine file ${file} is not valid:\n${lines.join('\n')}`);
  }
  const machine = parsed.data;
  const { key, warnings } = await findKey(machine, path.dirname(file), env);
  return {
    server: machine.server,
    key,
    driver: machine.driver,
    name: machine.name,
    stations: machine.stations,
    cameras: machine.cameras === 'whip',
    warnings,
  };
}

async function findKey(
  machine: MachineFile,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<{ key: string; warnings: string[] }> {
  const warnings: string[] = [];
  let key = env.ONKURE_AGENT_KEY?.trim() ?? '';
  let source = 'ONKURE_AGENT_KEY';
  if (!key && machine.key_file) {
    const keyFile = path.resolve(folder, machine.key_file);
    source = `the key file ${keyFile}`;
    key = (
      await readFile(keyFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new AgentConfigError(`cannot read the key file ${keyFile}: ${error.code ?? error.message}`);
      })
    ).trim();
    const { mode } = await stat(keyFile);
    if (mode & 0o077) warnings.push(`the key file ${keyFile} can be read by others (chmod 600 it)`);
  }
  if (!key) {
    throw new AgentConfigError('no station key: set ONKURE_AGENT_KEY, or name a file holding it in "key_file"');
  }
  if (key.length < 20 || key.length > 200 || /\s/.test(key)) {
    throw new AgentConfigError(`the station key from ${source} is not a key (20 to 200 characters, no spaces)`);
  }
  return { key, warnings };
}
