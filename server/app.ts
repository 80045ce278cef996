import Fastify, { type FastifyInstance } from 'fastify';
import type { Server as SocketIOServer } from 'socket.io';
import { systemClock } from './clock';
import type { ServerConfig } from './config';
import { apiPlugin } from './composition/api.plugin';
import type { DeclaredRoute } from './http/route';
import { healthPlugin } from './composition/health.plugin';
import { installMetrics } from './composition/metrics.plugin';
import { ServerMetrics } from './metrics/server-metrics';
import {
  carryLogContext,
  loggerOptions,
  REQUEST_ID_HEADER,
  requestIdGenerator,
  serviceLog,
  withLogContext,
} from './logging/log-context';
import { whipPlugin } from './composition/whip.plugin';
import { httpPlugin } from './composition/http.plugin';
import { pagesPlugin } from './composition/pages.plugin';
import { providerPlugin } from './composition/provider.plugin';
import { createRealtime } from './composition/realtime';
import { DEFAULT_TIMEOUTS, type ServerOptions, type ServerParts } from './composition/server-parts';
import { staticPlugin } from './composition/static.plugin';
import { openServerStore } from './composition/store';
import { RenderedPageCache } from './http/page-cache';
import { readPageShell } from './http/page-shell';
import { LocalRoomHost, PostgresRoomHost } from './rooms/room-host';
import type { Services } from './services';
import type { Store } from './store/store';

export { DEFAULT_TIMEOUTS, type ServerOptions, type Timeouts } from './composition/server-parts';

export interface OnkureServer {
  readonly app: FastifyInstance;
  readonly io: SocketIOServer;
  /** Resolves once migrations and the seed are done (then /healthz answers 200). */
  readonly ready: Promise<void>;
  readonly store: () => Store;
  /** Whether this instance leads now (always with the embedded store) [R10-8]. */
  readonly hostsStations: () => boolean;
  /** Resolves once this instance leads (at once with the embedded store; a standby when it takes over). */
  readonly hosting: Promise<void>;
  /** The services, built once by createServices when the API registers (operator tools, tests). */
  readonly services: () => Services;
  /** The rendered pages kept per address (benchmarks, tests). */
  readonly pages: RenderedPageCache;
  /** The instance's Prometheus metrics (docs/operations.md). */
  readonly metrics: ServerMetrics;
  /** The port of the metrics listener (METRICS_PORT), or null without one. */
  readonly metricsPort: () => number | null;
  /** The API's calls as declared, with their schemas (the contract fuzz builds on them). */
  readonly routes: () => readonly DeclaredRoute[];
  /** Every route the server answers (method and path), the API's and the others (pages, health, WHIP, provider). */
  readonly httpRoutes: () => readonly { readonly method: string; readonly url: string }[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Builds the reference station server, one part per concern (server/composition/): the store,
 * the real-time socket, the HTTP answers' headers and errors, /healthz, the API with the rooms and
 * the leader's work, the payment provider's pages and callbacks, the built app's files and the
 * server-rendered pages. Storage opens, migrates and seeds in the background; until then the API
 * answers 503 and /healthz 503.
 */
export function createOnkureServer(config: ServerConfig, options: ServerOptions = {}): OnkureServer {
  const clock = options.clock ?? systemClock;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(config.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    // Every log line of a request names it (docs/operations.md "Logs"); the answer carries it back.
    genReqId: requestIdGenerator(config.trustProxy.length > 0),
    bodyLimit: MAX_BODY_BYTES,
    // Behind a load balancer (TRUST_PROXY), its X-Forwarded-For names the client; else the socket does.
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    // A request whose headers or body never finish must not hold a socket forever (issue 7 §5.9).
    connectionTimeout: timeouts.connectionMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      // Node checks the request and headers deadlines on this interval (30 s by default).
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(timeouts.requestMs / 4))),
    },
  });
  // What a request sets off (a room step, a push, a store write) logs with its id, when the
  // server carries the async context (config.logRequestContext: by default only where Node keeps
  // it cheaply; docs/operations.md "Logs"). Its own lines name it in any case (pino's child logger).
  const releaseLogContext = options.logger !== false && config.logRequestContext ? carryLogContext() : () => undefined;
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    withLogContext({ reqId: request.id }, done);
  });
  // Every route of the server, as Fastify registers them (the contract fuzz covers each).
  const httpRoutes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) httpRoutes.push({ method, url: options.url });
  });
  const metrics = new ServerMetrics(config.metrics.instanceId);
  const store = openServerStore(config, clock, app.log, options.template);
  const realtime = createRealtime(app, config);
  warnAboutSettings(app, config);
  let markHosting: () => void = () => undefined;
  const hosting = new Promise<void>((resolve) => (markHosting = resolve));
  const parts: ServerParts = {
    app,
    config,
    options,
    clock,
    io: realtime.io,
    roomHost: config.databaseUrl
      ? new PostgresRoomHost(config.databaseUrl, {
          log: serviceLog(app.log),
          ...(options.hostRetryMs ? { retryMs: options.hostRetryMs } : {}),
        })
      : new LocalRoomHost(),
    pages: new RenderedPageCache(clock),
    metrics,
    store: store.current,
    storeFailed: store.failed,
    ready: store.ready,
    services: null,
    recovered: null,
    routes: [],
    hostWork: Promise.resolve(),
    markHosting,
  };
  // The built page, its stylesheet inlined (allowed in the CSP by its hash).
  const pageShell = config.staticDir ? readPageShell(config.staticDir) : null;
  const metricsOut = installMetrics(app, parts, metrics);
  void app.register(httpPlugin, { config, styleHashes: pageShell?.styleHashes ?? [] });
  void app.register(healthPlugin, { parts });
  void app.register(whipPlugin, { parts });
  void app.register(apiPlugin, { parts, prefix: config.apiPrefix });
  void app.register(providerPlugin, { parts });
  if (config.staticDir && pageShell) {
    void app.register(staticPlugin, { staticDir: config.staticDir });
    void app.register(pagesPlugin, { parts, pageShell });
  }

  return {
    app,
    io: realtime.io,
    ready: store.ready,
    pages: parts.pages,
    metrics,
    metricsPort: () => metricsOut.port(),
    routes: () => parts.routes,
    httpRoutes: () => httpRoutes,
    hostsStations: () => parts.roomHost.hosting,
    hosting,
    services: () => {
      if (!parts.services) throw new Error('services are not built yet');
      return parts.services;
    },
    store: () => {
      const open = store.current();
      if (!open) throw new Error('store is not open yet');
      return open;
    },
    async close() {
      realtime.io.close();
      const services = parts.services;
      // Their leases given back while the store is open.
      const signalingClosed = services?.signaling.close();
      services?.agents.close();
      services?.provider.stop();
      services?.purchases.stop();
      services?.prizeStorage.stop();
      services?.freeTcExpiry.stop();
      services?.visitSweep.stop();
      services?.reconciliation.stop();
      services?.ingest.close();
      services?.stills.close();
      services?.hls.close();
      // Recordings end (each clip written as far as it got) while the store is still open.
      await services?.clips.close();
      await signalingClosed;
      services?.cameraDemand.close();
      services?.rtcFeed.close();
      await parts.recovered?.catch(() => undefined);
      // The rooms stop (their writes land) before the locks' connection closes and frees them for the others.
      await parts.roomHost.close(async () => {
        await parts.hostWork.catch(() => undefined);
        await services?.rooms.close();
      });
      await app.close();
      await metricsOut.close();
      await store.close();
      await realtime.close();
      releaseLogContext();
    },
  };
}

/** Settings that work but are probably not what the operator meant. */
function warnAboutSettings(app: FastifyInstance, config: ServerConfig): void {
  if (config.operatorTokenHash && !config.devCalls)
    app.log.warn(
      'ONKURE_OPERATOR_TOKEN is ignored without ONKURE_DEV_CALLS=1: operators sign in with their accounts (npm run operator -- add …)',
    );
  if (config.databaseUrl && !config.instanceUrl)
    app.log.warn(
      'INSTANCE_URL is not set: the other instances reach this one at http://127.0.0.1:<port>, which only works when they share its machine (docs/deployment.md)',
    );
}
