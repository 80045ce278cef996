import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createOnkureServer, type OnkureServer, type ServerOptions } from '../../server/app';
import { readServerConfig, type ServerConfig } from '../../server/config';

export interface TestServer {
  readonly server: OnkureServer;
  readonly config: ServerConfig;
  /** Origin the server listens on, e.g. http://127.0.0.1:39123 (only when started with listen). */
  readonly origin: string;
  /** Absolute API base, e.g. http://127.0.0.1:39123/api/ (with inject: an origin nothing listens on). */
  readonly apiBase: string;
  close(): Promise<void>;
}

let template: Blob | null | undefined;

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
 * seeded template, unless the test pins its own clock (then it migrates and seeds at that time).
 * Always `await close()` in afterAll.
 */
export async function startTestServer(
  options: { listen?: boolean; env?: NodeJS.ProcessEnv; inMemory?: boolean } & ServerOptions = {},
): Promise<TestServer> {
  const dataDir = options.inMemory ? null : mkdtempSync(join(tmpdir(), 'onkure-test-'));
  const config = readServerConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir ?? ':memory:',
    STATIC_DIR: '',
    LOG_LEVEL: 'silent',
    ...devCallsUnlessProduction(options.env),
    ...options.env,
  });
  const seeded = options.clock ? null : storeTemplate();
  const server = createOnkureServer(config, {
    logger: false,
    rateLimits: options.rateLimits ?? 'unlimited',
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.playSeeds ? { playSeeds: options.playSeeds } : {}),
    ...(options.signalingTimings ? { signalingTimings: options.signalingTimings } : {}),
    ...(options.playStore ? { playStore: options.playStore } : {}),
    ...(options.renderPages ? { renderPages: options.renderPages } : {}),
    ...(options.renderLimits ? { renderLimits: options.renderLimits } : {}),
    ...(seeded ? { template: seeded } : {}),
  });
  await server.ready;
  let origin = '';
  if (options.listen) {
    origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  } else {
    await server.app.ready();
  }
  return {
    server,
    config,
    origin,
    apiBase: `${origin || 'http://onkure.invalid'}${config.apiPrefix}/`,
    async close() {
      await server.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
