import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL cluster of our own (the tests' throwaway one, npm run cluster's local one) from Debian's `postgresql` package: `initdb` into a temporary
 * directory, the server on a free port of 127.0.0.1 (and a socket in that directory), removed at the
 * end. initdb refuses to run as root, which CI is: then the cluster runs as the `postgres` user the
 * package creates. Durability is off (fsync, synchronous_commit): the data is thrown away anyway.
 */
export interface PostgresCluster {
  readonly port: number;
  /** The address of `database` on this cluster. */
  url(database?: string): string;
  /** Creates a database (optionally as a copy of `template`) and answers its address. */
  createDatabase(name: string, template?: string): Promise<string>;
  /** Runs SQL on the cluster's maintenance database. */
  admin(sql: string): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and removes its files synchronously (a process exit handler). */
  stopNow(): void;
}

function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      "PostgreSQL is not installed: the store tests run against a throwaway cluster of Debian's postgresql package (apt-get install postgresql; .ci/run installs it), or set PG_BIN to its bin directory.",
    );
  return join(root, versions[0]!, 'bin');
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Runs a cluster program as `postgres` when we are root (initdb and postgres refuse root). */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface ClusterOptions {
  /**
   * A directory that outlives the cluster (npm run cluster): created and initialised once, kept at
   * stop. Default: a temporary directory, removed at stop.
   */
  readonly dir?: string;
  /** The port (default: a free one). */
  readonly port?: number;
  /**
   * More addresses of this machine to listen on besides 127.0.0.1 (a veth's end, for a client in a
   * network namespace), and the networks trusted from there (pg_hba.conf `host … trust` lines).
   */
  readonly listen?: readonly string[];
  readonly trustNetworks?: readonly string[];
}

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBin();
  const keep = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'onkure-pg-'));
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (owner.status !== 0) throw new Error('running as root, but there is no postgres user to run the cluster as');
    chownSync(dir, Number(owner.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, 'data');
  const [initdb, initArgs] = asClusterOwner(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'onkure',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const hba = join(data, 'pg_hba.conf');
  for (const network of options.trustNetworks ?? []) {
    const line = `host all all ${network} trust`;
    if (!readFileSync(hba, 'utf8').includes(line)) appendFileSync(hba, `${line}\n`);
  }
  const port = options.port ?? (await freePort());
  const [postgres, serverArgs] = asClusterOwner(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    `listen_addresses=${['127.0.0.1', ...(options.listen ?? [])].join(',')}`,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
  ]);
  const server: ChildProcess = spawn(postgres, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const url = (database = 'postgres') => `postgres://onkure@127.0.0.1:${port}/${database}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  for (let attempt = 0; ; attempt++) {
    if (server.exitCode !== null) throw new Error(`postgres exited: ${log}`);
    try {
      await admin('SELECT 1');
      break;
    } catch (error) {
      if (attempt > 200) throw new Error(`postgres did not start: ${String(error)} ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  // Immediate shutdown (the data is thrown away), through pg_ctl as the cluster's owner: a signal
  // to `runuser` would not reach the server.
  const stopServer = () => {
    const [pgCtl, args] = asClusterOwner(join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate']);
    spawnSync(pgCtl, args, { stdio: 'ignore' });
  };
  const createDatabase = async (name: string, template?: string) => {
    await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    return url(name);
  };
  return {
    port,
    url,
    admin,
    createDatabase,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        stopServer();
        await exited;
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
    stopNow() {
      if (server.exitCode === null) stopServer();
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}
