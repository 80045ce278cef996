/**
 * `npm run cluster`: the service as a deployment runs it, on this machine, from Debian's packages
 * only (docs/deployment.md): a PostgreSQL cluster of our own in .cluster/ (created once, kept
 * between runs), two instances on it, and HAProxy in front on PORT (default 8080). Open
 * http://localhost:8080/. Ctrl-C stops everything.
 *
 * Like `npm start` it is a demo: development calls on (debug login with free TC) unless
 * ONKURE_DEV_CALLS is set; never expose it publicly. With them on, the demo's sim agent drives every
 * station as a process of its own, dialing HAProxy as a cabinet's agent dials the service's one
 * address (the first instance writes its machine file and key; server/agent/demo-agent.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHaproxy, haproxyConfig } from './lib/haproxy';
import { startPostgresCluster } from './lib/postgres-cluster';
import { demoMachineFile, SERVER_NODE_OPTIONS, spawnDemoAgent } from './server-process.mjs';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.PORT || 8080);
const dir = join(root, '.cluster');

async function waitHealthy(instancePort: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`instance on ${instancePort} exited`);
    const status = await fetch(`http://127.0.0.1:${instancePort}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`instance on ${instancePort} did not start`);
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (env.ONKURE_DEV_CALLS === undefined && (env.NODE_ENV ?? '').trim().toLowerCase() !== 'production')
    env.ONKURE_DEV_CALLS = '1';
  const build = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--build-only'], {
    stdio: 'inherit',
    env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);

  console.log('onkure cluster: starting PostgreSQL in .cluster/pg …');
  const postgres = await startPostgresCluster({ dir: join(dir, 'pg') });
  await postgres.admin('CREATE DATABASE onkure').catch((error: { code?: string }) => {
    if (error.code !== '42P04') throw error; // already there from an earlier run
  });
  const instances: ChildProcess[] = [];
  let haproxy: { stop(): Promise<void> } | null = null;
  let agent: ChildProcess | null = null;
  const agentDir = env.ONKURE_DEV_CALLS === '1' ? mkdtempSync(join(tmpdir(), 'onkure-cluster-agent-')) : null;
  const stop = async () => {
    if (agent && agent.exitCode === null) {
      const ended = new Promise((resolve) => agent!.once('exit', resolve));
      agent.kill('SIGTERM');
      await ended;
    }
    if (agentDir) rmSync(agentDir, { recursive: true, force: true });
    await haproxy?.stop().catch(() => undefined);
    await Promise.all(
      instances.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(null);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    await postgres.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  const shared = {
    ...env,
    DATABASE_URL: postgres.url('onkure'),
    HOST: '127.0.0.1',
    TRUST_PROXY: 'loopback',
    // One secret for the simulated provider's callbacks, whichever instance serves its page.
    PAYMENT_PROVIDER_SECRET: env.PAYMENT_PROVIDER_SECRET || randomBytes(32).toString('hex'),
    PUBLIC_URL: env.PUBLIC_URL || `http://localhost:${port}`,
  };
  const upstreams = [
    { name: 'a', port: port + 1 },
    { name: 'b', port: port + 2 },
  ];
  for (const upstream of upstreams) {
    const demo =
      agentDir && upstream.name === 'a'
        ? { ONKURE_DEMO_AGENT_DIR: agentDir, ONKURE_DEMO_AGENT_SERVER: `http://127.0.0.1:${port}` }
        : {};
    const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, '--import', 'tsx', join(root, 'server/main.ts')], {
      cwd: root,
      stdio: 'inherit',
      env: { ...shared, ...demo, PORT: String(upstream.port) },
    });
    instances.push(child);
    // The first one up runs the station rooms; the second is its standby.
    await waitHealthy(upstream.port, child).catch(async (error: unknown) => {
      console.error('onkure cluster:', error);
      await stop();
    });
  }
  try {
    haproxy = await startHaproxy(join(dir, 'haproxy.cfg'), haproxyConfig({ port, upstreams }), port);
  } catch (error) {
    console.error('onkure cluster: HAProxy did not start:', error);
    await stop();
  }
  if (agentDir) {
    // The first instance writes the machine file once it listens.
    if (!(await demoMachineFile(agentDir))) console.error('onkure cluster: the first instance wrote no machine file');
    agent = spawnDemoAgent(root, agentDir, env);
    agent.on('exit', (code, signal) =>
      console.error(`onkure cluster: the demo's sim agent ended (${signal ?? code}); its stations are out of service.`),
    );
  } else {
    console.log(
      "onkure cluster: no demo agent (development calls off): connect each station's agent (docs/agent-protocol.md).",
    );
  }
  console.log(
    `onkure cluster is running at http://localhost:${port}/  —  HAProxy → instances on ${upstreams.map((u) => u.port).join(' and ')}, PostgreSQL on ${postgres.port}. Ctrl-C stops it.`,
  );
  for (const child of instances)
    child.on('exit', (code) => console.error(`onkure cluster: an instance ended (${code}); the other carries on.`));
}

main().catch((error: unknown) => {
  console.error('onkure cluster failed to start:', error);
  process.exit(1);
});
