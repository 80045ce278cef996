import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AgentConnection } from './agent-connection';
import { systemAgentClock } from './agent-clock';
import { openWsSocket } from './agent-socket';
import { isAgentConfigError, loadAgentConfig, type AgentConfig } from './config';
import { createSimDriver, type SimDriver } from './drivers/sim-driver';
import { SimCameras, whipBaseOf } from './sim-cameras';
import type { AgentCamerasMessage } from '../src/contract/agent.schema';
import type { MachineDriver } from './machine-driver';

/*
 * The reference station agent: `npm run agent -- --config machines.json` (agent/README.md).
 * Exit codes: 0 stopped by a signal; 1 crashed; 2 a bad command line or machine file; 3 the server
 * refused the agent (bad key, wrong station, replaced, protocol version): dialing again would not help;
 * 4 the driver's device is missing or unfit (a GPIO chip, a busy line, libgpiod v1).
 */

const EXIT_CRASH = 1;
const EXIT_CONFIG = 2;
const EXIT_REFUSED = 3;
const EXIT_DEVICE = 4;

/** Whether a driver's failure is its setup (a machine file or device it refuses), not a crash. */
async function isDriverSetupError(error: unknown): Promise<boolean> {
  const [config, helper] = await Promise.all([
    import('./drivers/gpio-config.ts'),
    import('./drivers/gpio-helper-process.ts'),
  ]);
  return config.isGpioConfigError(error) || helper.isGpioHelperError(error);
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

let prefix = 'onkure-agent';
const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${prefix}: ${line}\n`);

/** Outputs to release whatever happens: set as soon as the driver exists. */
let driver: MachineDriver | null = null;

function crashed(error: unknown): never {
  driver?.releaseAll();
  log(`crashed, every output released: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(EXIT_CRASH);
}
process.on('uncaughtException', crashed);
process.on('unhandledRejection', crashed);

async function buildDriver(config: AgentConfig): Promise<MachineDriver> {
  if (config.driver === 'sim') return createSimDriver(config.stations, systemAgentClock, { cameras: config.cameras });
  const { createGpioDriver } = await import('./drivers/gpio-driver.ts');
  return createGpioDriver(
    config.stations.map((s) => ({ station_id: s.station_id, gpio: s.gpio })),
    { log },
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { config: { type: 'string' } }, strict: true });
  if (!values.config) {
    log('usage: npm run agent -- --config machines.json');
    return EXIT_CONFIG;
  }
  let config: AgentConfig;
  try {
    config = await loadAgentConfig(values.config, process.env);
  } catch (error) {
    if (!isAgentConfigError(error)) throw error;
    log(error.message);
    return EXIT_CONFIG;
  }
  if (config.name) prefix = `onkure-agent ${config.name}`;
  for (const warning of config.warnings) log(`warning: ${warning}`);

  let machine: MachineDriver;
  try {
    machine = await buildDriver(config);
  } catch (error) {
    // A machine file the gpio driver refuses is the operator's to fix, as a bad file is.
    if (!(await isDriverSetupError(error))) throw error;
    log(error instanceof Error ? error.message : String(error));
    return EXIT_CONFIG;
  }
  driver = machine;
  // The sim driver's painted cameras, published over WHIP while the server says they are watched.
  const cameras =
    config.cameras && machine.name === 'sim'
      ? new SimCameras({
          whipBase: whipBaseOf(config.server),
          key: config.key,
          driver: machine as SimDriver,
          clock: systemAgentClock,
          log,
          tickMarker: process.env.RTC_TICK_MARKER === '1',
        })
      : null;
  const connection = new AgentConnection({
    server: config.server,
    key: config.key,
    version,
    driver: machine,
    clock: systemAgentClock,
    openSocket: openWsSocket,
    log,
    ...(cameras ? { cameras: (lease: AgentCamerasMessage) => cameras.lease(lease) } : {}),
  });
  let stopping: Promise<void> | null = null;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    log(`${signal}: every output released, closing`);
    // Released first, while still connected: the server sees the outputs off before the close.
    machine.releaseAll();
    stopping = connection.stop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started for a test (test/support/server-process.ts): a pipe on stdin that closes when the
  // process that started this agent ends, however it ends; the agent stops with it.
  if (process.env.ONKURE_EXIT_WITH_PARENT === '1') {
    process.stdin.once('end', () => stop('SIGTERM'));
    process.stdin.on('error', () => stop('SIGTERM'));
    process.stdin.resume();
  }

  try {
    await machine.start(connection.events);
  } catch (error) {
    // The device is missing or not what the driver needs (a chip, a line busy, libgpiod v1).
    if (!(await isDriverSetupError(error))) throw error;
    log(`the driver could not start: ${error instanceof Error ? error.message : String(error)}`);
    machine.releaseAll();
    return EXIT_DEVICE;
  }
  log(`driver ${machine.name} started: stations ${machine.stations.map((s) => s.station_id).join(', ')}`);
  connection.connect();
  const end = await connection.done;
  await stopping;
  machine.releaseAll();
  await cameras?.close();
  await machine.close();
  return end.kind === 'refused' ? EXIT_REFUSED : 0;
}

main().then((code) => process.exit(code), crashed);
