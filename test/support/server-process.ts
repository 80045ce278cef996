import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free port on loopback. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The reference server as a process of its own on `dataDir`. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = '';

  constructor(
    readonly port: number,
    private readonly dataDir: string,
    /** Added to (or, with undefined, removed from) the server's environment. */
    private readonly env: NodeJS.ProcessEnv = {},
    /** What node runs: the server itself, or a start script (scripts/start-production.mjs). */
    private readonly args: readonly string[] = ['--import', 'tsx', 'server/main.ts'],
  ) {}

  /** Whether the process is still running. */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null;
  }

  /** Everything the process wrote to stdout and stderr so far (its log lines). */
  get log(): string {
    return this.output;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and resolves once /healthz answers 200 (the store open, migrated, seeded; the rooms resumed). */
  async start(): Promise<number> {
    const child = spawn(process.execPath, [...this.args], {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        STATIC_DIR: '',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        ONKURE_DEV_CALLS: '1',
        ONKURE_FEED: 'jpg',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own: a kill reaches the server a start script runs too.
      detached: true,
    });
    this.child = child;
    child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    for (let i = 0; i < 600; i += 1) {
      if (child.exitCode !== null) throw new Error(`server exited: ${this.output}`);
      const status = await fetch(`${this.origin}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return Date.now();
      await pause(50);
    }
    throw new Error(`server did not start: ${this.output}`);
  }

  /**
   * `kill -9` (by default): no shutdown code runs. The signal goes to the process's whole group, so
   * that a server started by a script (scripts/start-production.mjs) ends with it, not orphaned.
   */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      process.kill(-child.pid!, signal);
    });
    this.child = null;
  }
}
