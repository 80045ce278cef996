// What the two start commands share: the Node.js check, the production rule and the server process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Stops with a clear message on a Node.js older than 20.19. */
export function requireNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`onkure needs Node.js 20.19 or newer (this is ${process.versions.node}).`);
    process.exit(1);
  }
}

/**
 * NODE_ENV names production in any case and with stray spaces ("Production", " PRODUCTION").
 * server/config.ts isProductionEnv applies the same rule inside the server.
 */
export function isProductionEnv(value) {
  return (value ?? '').trim().toLowerCase() === 'production';
}

/** The machine file the server writes into the demo agent's folder (server/agent/demo-agent.ts). */
export const DEMO_MACHINE_FILE = 'machines.json';

/**
 * Starts the demo's sim agent (`agent/main.ts`) from the files the server wrote into `agentDir`.
 * The key comes from the key file the server wrote, never from a variable left in the shell.
 */
/**
 * The Node options the server runs with (docs/deployment.md): a 32 MB young generation. Forwarding
 * video makes short-lived objects per packet and viewer (a cipher, its output, the send's request);
 * with V8's default semi-space they outgrew it and were copied, and garbage collection took about
 * a quarter of the server's CPU at 200 viewers (`npm run bench:ingest`: 431 → 582 viewers a core).
 */
export const SERVER_NODE_OPTIONS = ['--max-semi-space-size=32'];

export function spawnDemoAgent(root, agentDir, env, stdio = 'inherit') {
  const { ONKURE_AGENT_KEY: _ignored, ONKURE_DEMO_AGENT_DIR: _dir, ...agentEnv } = env;
  return spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'agent/main.ts'), '--config', join(agentDir, DEMO_MACHINE_FILE)],
    { cwd: root, stdio, env: agentEnv },
  );
}

/** Resolves once the server has written the machine file into `agentDir` (whole, by a rename); false after `withinMs`. */
export async function demoMachineFile(agentDir, withinMs = 60_000) {
  const file = join(agentDir, DEMO_MACHINE_FILE);
  for (const end = Date.now() + withinMs; !existsSync(file);) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** How long the demo's agent stays away after it ends before the launcher starts it again. */
const AGENT_RESTART_MS = 5_000;

/**
 * Runs server/main.ts under `env`, passing SIGINT/SIGTERM on and exiting with its code.
 *
 * With `demoAgent` (development only: the server refuses ONKURE_DEMO_AGENT_DIR without
 * ONKURE_DEV_CALLS=1) it also runs the demo's machines: the server issues a key for every
 * station and writes a sim agent's machine file and key into a private temporary folder
 * (server/agent/demo-agent.ts); this starts `agent/main.ts` from them, a process of its own
 * speaking the real protocol. Kill it (`kill -9`) to see what an operator sees when a cabinet's
 * agent dies: the stations go to fault, a play under way is refunded; it is started again after
 * 5 s, as a service manager would, and the stations come back once it reports them ready.
 * `cleanup` runs once both have ended, before this process exits.
 */
export function runServer(root, env, { demoAgent = false, cleanup = () => undefined } = {}) {
  const agentDir = demoAgent ? mkdtempSync(join(tmpdir(), 'onkure-demo-agent-')) : null;
  const serverEnv = agentDir ? { ...env, ONKURE_DEMO_AGENT_DIR: agentDir } : env;
  const server = spawn(process.execPath, [...SERVER_NODE_OPTIONS, '--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnv,
  });
  let agent = null;
  let stopping = false;
  let restartTimer = null;
  let poll = null;

  const startAgent = () => {
    restartTimer = null;
    const child = spawnDemoAgent(root, agentDir, env);
    agent = child;
    child.on('exit', (code, signal) => {
      agent = null;
      if (stopping) return;
      const how = signal ?? `exit ${code}`;
      if (code === 2 || code === 4) {
        console.error(`onkure: the demo's sim agent stopped (${how}); its stations stay in fault`);
        return;
      }
      console.warn(
        `onkure: the demo's sim agent ended (${how}); its stations show a fault until it is back. Starting it again in ${AGENT_RESTART_MS / 1000} s`,
      );
      restartTimer = setTimeout(startAgent, AGENT_RESTART_MS);
    });
  };
  if (agentDir) {
    // The server writes the machine file whole (a rename) once it listens and the key is issued.
    poll = setInterval(() => {
      if (!existsSync(join(agentDir, DEMO_MACHINE_FILE))) return;
      clearInterval(poll);
      poll = null;
      if (!stopping) startAgent();
    }, 100);
  }

  const stopAgent = (signal) => {
    stopping = true;
    if (poll) clearInterval(poll);
    if (restartTimer) clearTimeout(restartTimer);
    agent?.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      stopAgent(signal);
      server.kill(signal);
    });
  server.on('exit', (code, signal) => {
    const finish = () => {
      if (agentDir) rmSync(agentDir, { recursive: true, force: true });
      cleanup();
      process.exit(code ?? (signal ? 1 : 0));
    };
    const running = agent;
    stopAgent('SIGTERM');
    if (running && running.exitCode === null && running.signalCode === null) running.once('exit', finish);
    else finish();
  });
}
