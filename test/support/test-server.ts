import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createOnkureServer, type OnkureServer, type ServerOptions } from '../../server/app';
import { readServerConfig, type ServerConfig } from '../../server/config';
import { InProcessAgent } from './in-process-agent';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';

export interface TestServer {
  readonly server: OnkureServer;
  readonly config: ServerConfig;
  /** Origin the server listens on, e.g. http://127.0.0.1:39123 (only when started with listen). */
  readonly origin: string;
  /** Absolute API base, e.g. http://127.0.0.1:39123/api/ (with inject: an origin nothing listens on). */
  readonly apiBase: string;
  /** The in-process agent driving every station (started with `agent: true`). */
  readonly agent: InProcessAgent | null;
  /** What fell due has been done: the rooms idle and, with an agent, no frame in flight. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

let template: Blob | null | undefined;

/**
 * ONKURE_TEST_STORE=postgres (a probe, not part of npm test): every test server that would use an
 * in-memory or temporary store gets its own database on one PostgreSQL cluster per worker instead,
 * so the whole suite can be run against PostgreSQL to find what the embedded store hides.
 */
let probeCluster: Promise<PostgresCluster> | null = null;
let probeCount = 0;
async function probeDatabase(fresh: boolean): Promise<string> {
  probeCluster ??= startPostgresCluster().then((cluster) => {
    process.once('exit', () => cluster.stopNow());
    return cluster;
  });
  const cluster = await probeCluster;
  // A test with its own clock seeds at its own time: it gets an empty database.
  return fresh ? cluster.createDatabase(`probe_${process.pid}_${++probeCount}`) : cluster.seededDatabase();
}

/** Tests use the debug login and dev outbox: on (ONKURE_DEV_CALLS=1) unless the test runs as production. */
const devCallsUnlessProduction = (env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv =>
  env?.NODE_ENV === 'production' ? {} : { ONKURE_DEV_CALLS: '1' };

/** The run's migrated and seeded store (test/support/store-template.ts), read once per worker. */
function storeTemplate(): Blob | null {
  if (template === undefined) {
    const path = inject('storeTemplatePath');
    template = path ? new Blob([readFileSync(path)]) : null;
  }
  return template;
}

/**
 * Starts a reference server for a test: its own temporary DATA_DIR (or memory), no static files,
 * quiet logs, and an ephemeral port when `listen` is set. Its store starts as a copy of the run's
 * seeded template, unless the test pins its own clock (then it migrates and seeds at that time;
 * a clock that starts at `inject('storeTemplateSeededAt')` keeps the template).
 * Always `await close()` in afterAll.
 */
export async function startTestServer(
  options: {
    listen?: boolean;
    env?: NodeJS.ProcessEnv;
    inMemory?: boolean;
    databaseUrl?: string;
    /** On PostgreSQL: another instance runs the rooms, do not wait to host. */
    standby?: boolean;
    /**
     * Every station on its agent: the reference agent in process, on the server's clock (the server
     * listens). The default, except on a PostgreSQL database the test gives (its instances share the
     * stations: the test starts the one agent).
     */
    agent?: boolean;
  } & ServerOptions = {},
): Promise<TestServer> {
  const withAgent = options.agent ?? !options.databaseUrl;
  if (
    !options.databaseUrl &&
    process.env.ONKURE_TEST_STORE === 'postgres' &&
    (options.inMemory || !options.env?.DATA_DIR)
  )
    options = { ...options, databaseUrl: await probeDatabase(Boolean(options.clock)) };
  // A folder of its own unless the store is elsewhere (in memory, PostgreSQL, or the caller's DATA_DIR).
  const dataDir =
    options.inMemory || options.databaseUrl || options.env?.DATA_DIR
      ? null
      : mkdtempSync(join(tmpdir(), 'onkure-test-'));
  const config = readServerConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir ?? ':memory:',
    STATIC_DIR: '',
    LOG_LEVEL: 'silent',
    ...devCallsUnlessProduction(options.env),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  });
  // On PostgreSQL the database given is already a copy of a seeded one (test/support/postgres-cluster.ts).
  // A test clock that starts at the template's seeding instant can start from the template too.
  const ownClock = options.clock && options.clock.now().getTime() !== inject('storeTemplateSeededAt');
  const seeded = ownClock || options.databaseUrl ? null : storeTemplate();
  const server = createOnkureServer(config, {
    logger: Boolean(options.logStream),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    rateLimits: options.rateLimits ?? 'unlimited',
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.playSeeds ? { playSeeds: options.playSeeds } : {}),
    ...(options.signalingTimings ? { signalingTimings: options.signalingTimings } : {}),
    ...(options.signalingClock ? { signalingClock: options.signalingClock } : {}),
    ...(options.playStore ? { playStore: options.playStore } : {}),
    ...(options.kujiStore ? { kujiStore: options.kujiStore } : {}),
    ...(options.renderPages ? { renderPages: options.renderPages } : {}),
    ...(options.renderLimits ? { renderLimits: options.renderLimits } : {}),
    ...(options.onHostLost ? { onHostLost: options.onHostLost } : {}),
    ...(options.hostRetryMs ? { hostRetryMs: options.hostRetryMs } : {}),
    ...(options.agentBounds ? { agentBounds: options.agentBounds } : {}),
    ...(seeded ? { template: seeded } : {}),
  });
  await server.ready;
  // The parts register (the API starts the rooms) when the app is made ready.
  await server.app.ready();
  // On PostgreSQL an instance serves before it runs the rooms (it may be a standby): a test server
  // that is to be the host starts its tests once it is (the rooms loaded, the kuji boxes opened).
  if (options.databaseUrl && !options.standby) await server.hosting;
  const origin = options.listen || withAgent ? await server.app.listen({ port: 0, host: '127.0.0.1' }) : '';
  const t: TestServer = {
    server,
    config,
    origin,
    apiBase: `${origin || 'http://onkure.invalid'}${config.apiPrefix}/`,
    agent: null,
    settle: () => (t.agent ? t.agent.settle() : server.services().rooms.idle()),
    async close() {
      await t.agent?.stop();
      await server.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (withAgent) {
    try {
      (t as { agent: InProcessAgent | null }).agent = await InProcessAgent.start(t, {
        clock: options.clock ?? server.services().clock,
      });
    } catch (error) {
      await t.close();
      throw error;
    }
  }
  return t;
}
