import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Folders of this process's servers not removed yet. A bench ended by a signal exits without its
 * `finally` (bench:chaos, bench:soak: process.exit from the signal's handler), so they go on exit.
 */
const folders = new Set<string>();
process.once('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});
function temporaryFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}
function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  folders.delete(dir);
}

/** A free port on loopback. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export interface ServerProcessOptions {
  /**
   * The demo's machines (development calls only): the server puts every station on its agent and
   * writes a sim agent's machine file and key (ONKURE_DEMO_AGENT_DIR, server/agent/demo-agent.ts);
   * the reference agent runs from them as a process of its own, which outlives a kill of the
   * server and dials the next one on the same key. `close()` ends it.
   */
  readonly agent?: boolean;
  /**
   * Runs the server inside this network namespace (`ip netns exec`, root only; it execs node in
   * place, so the pid and the process group are the server's). Give it `host` too: loopback inside
   * the namespace is not this machine's.
   */
  readonly netns?: string;
  /** The address it listens on and is reached at (default 127.0.0.1); HOST in `env` still wins for the listen address. */
  readonly host?: string;
}

/** The reference server as a process of its own on `dataDir`. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = '';
  private agentDir: string | null = null;
  private agent: ChildProcess | null = null;
  /**
   * A server on `:memory:` records its plays' clips into a temporary folder it removes on close; a
   * kill -9 leaves it behind. So the test's server gets a folder of this object's, removed with the
   * process however it ends.
   */
  private clipsDir: string | null = null;

  constructor(
    readonly port: number,
    private readonly dataDir: string,
    /** Added to (or, with undefined, removed from) the server's environment. */
    private readonly env: NodeJS.ProcessEnv = {},
    /** What node runs: the server itself, or a start script (scripts/start-production.mjs). */
    private readonly args: readonly string[] = ['--import', 'tsx', 'server/main.ts'],
    private readonly options: ServerProcessOptions = {},
  ) {}

  /** The server's process id (null before it started). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Whether the process is still running. */
  get running(): boolean {
    // Ended by a signal from outside (the OOM killer), exitCode stays null: signalCode says it.
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything the process wrote to stdout and stderr so far (its log lines). */
  get log(): string {
    return this.output;
  }

  get origin(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  /**
   * Starts it and resolves once /healthz answers 200 (the store open, migrated, seeded; the rooms
   * resumed) and, with the agent, once every station's agent is connected and reporting
   * (/healthz/agents); answers that moment.
   */
  async start(): Promise<number> {
    if (this.options.agent) this.agentDir ??= temporaryFolder('onkure-test-agent-');
    if (this.dataDir === ':memory:' && !('CLIPS_DIR' in this.env))
      this.clipsDir ??= temporaryFolder('onkure-test-clips-');
    // A process that ended on its own (not through kill()) left its stdin pipe open here.
    this.child?.stdin?.destroy();
    const node = [process.execPath, ...this.args];
    const [command, ...args] = this.options.netns ? ['ip', 'netns', 'exec', this.options.netns, ...node] : node;
    const child = spawn(command!, args, {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: this.options.host ?? '127.0.0.1',
        DATA_DIR: this.dataDir,
        STATIC_DIR: '',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        ONKURE_DEV_CALLS: '1',
        ONKURE_FEED: 'jpg',
        // The server stops when this process ends, however it ends (server/main.ts exitWithParent).
        ONKURE_EXIT_WITH_PARENT: '1',
        ...(this.agentDir ? { ONKURE_DEMO_AGENT_DIR: this.agentDir } : {}),
        ...(this.clipsDir ? { CLIPS_DIR: this.clipsDir } : {}),
        ...this.env,
      },
      // stdin: a pipe this process holds open; it closes when this process ends (see above).
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own: a kill reaches the server a start script runs too.
      detached: true,
    });
    this.child = child;
    child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    for (let i = 0; i < 600; i += 1) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${this.output}`);
      const status = await fetch(`${this.origin}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return this.agentDir ? this.agentUp() : Date.now();
      await pause(50);
    }
    throw new Error(`server did not start: ${this.output}`);
  }

  /** Starts the agent once its machine file is written (unless it still runs), and waits for its stations. */
  private async agentUp(): Promise<number> {
    const machineFile = join(this.agentDir!, 'machines.json');
    for (let i = 0; i < 400 && !existsSync(machineFile); i += 1) await pause(50);
    if (!existsSync(machineFile)) throw new Error(`the server wrote no machine file: ${this.output}`);
    if (!this.agent || this.agent.exitCode !== null || this.agent.signalCode !== null) {
      const { ONKURE_AGENT_KEY: _key, ...env } = process.env;
      const agent = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts', '--config', machineFile], {
        env: { ...env, ONKURE_EXIT_WITH_PARENT: '1' },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      agent.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
      this.agent = agent;
    }
    // The agent dials again with its backoff (at most 10 s between tries) after the server it had is gone.
    for (let i = 0; i < 600; i += 1) {
      const status = await fetch(`${this.origin}/healthz/agents`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return Date.now();
      await pause(50);
    }
    throw new Error(`the stations' agent did not connect: ${this.output}`);
  }

  /** Ends the server (SIGTERM) and its agent, and removes the agent's folder. */
  async close(): Promise<void> {
    await this.kill('SIGTERM');
    const agent = this.agent;
    this.agent = null;
    if (agent && agent.exitCode === null && agent.signalCode === null) {
      await new Promise((resolve) => {
        agent.once('exit', resolve);
        agent.kill('SIGTERM');
      });
    }
    agent?.stdin?.destroy();
    if (this.agentDir) removeFolder(this.agentDir);
    this.agentDir = null;
  }

  /**
   * `kill -9` (by default): no shutdown code runs. The signal goes to the process's whole group, so
   * that a server started by a script (scripts/start-production.mjs) ends with it, not orphaned.
   */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        process.kill(-child.pid!, signal);
      });
      child.stdin?.destroy();
      this.child = null;
    } else if (child) {
      // It ended on its own (or by another's signal): nothing to signal, its pipe to close.
      child.stdin?.destroy();
      this.child = null;
    }
    // Nothing of a :memory: server outlives its process; its clips go with it.
    if (this.clipsDir && !this.running) {
      removeFolder(this.clipsDir);
      this.clipsDir = null;
    }
  }
}
