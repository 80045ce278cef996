import type { PlayStore } from './play/rooms/play-ports';
import type { KujiBoxStore } from './kuji/kuji-box-store';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { join, sep } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import { constants as zlib } from 'node:zlib';
import { Server as SocketIOServer } from 'socket.io';
import { systemClock, type Clock } from './clock';
import { RouteBuilder } from './http/route';
import { createServices, STATIONS_MOVED, type Services } from './services';
import type { ServerConfig } from './config';
import { ERROR_INFO, replyError } from './http/reply';
import { registerApiRoutes } from './routes/index';
import { providerPages } from './payment/provider/provider-pages';
import { shopReturnPage } from './payment/return-page';
import { SIGNATURE_HEADER } from './payment/signature';
import { PURCHASE_ENDPOINTS } from '../src/contract';
import { originAllowed, registerSecurityHeaders } from './http/security-headers';
import { DEFAULT_RATE_LIMITS, registerRateLimits, type RateLimits } from './http/rate-limit';
import { seedCatalogue } from './seed/seed';
import { migrate } from './store/migrate';
import { openPgliteStore, type Store } from './store/store';
import { openPostgresStore } from './store/postgres-store';
import { attachClusterAdapter } from './realtime/cluster-adapter';
import { LocalRoomHost, PostgresRoomHost, type RoomHost } from './rooms/room-host';
import { roomId } from './rooms/room-ownership';
import { acquireDataDirLock } from './store/data-dir-lock';
import { refuseUpgrade, requestUrl, type SignalingTimings } from './live/signaling';
import { readPageShell } from './http/page-shell';
import { OPERATOR_PAGE_FILE, registerOperatorPage } from './http/operator-page';
import { RenderedPageCache } from './http/page-cache';
import { DEFAULT_RENDER_LIMITS, RenderBudget, type RenderLimits } from './http/render-budget';
import { sendCompressed } from './http/compressed';
import {
  inProcessFetch,
  readRenderedText,
  type PageRendererFactory,
  type PageRequest,
  type RenderedPage,
} from './http/pages';

export interface OnkureServer {
  readonly app: FastifyInstance;
  readonly io: SocketIOServer;
  /** Resolves once migrations and the seed are done (then /healthz answers 200). */
  readonly ready: Promise<void>;
  readonly store: () => Store;
  /** Whether this instance runs the station rooms now (always with the embedded store) [R10-8]. */
  readonly hostsStations: () => boolean;
  /** Resolves once this instance runs the station rooms (at once with the embedded store; a standby when it takes over). */
  readonly hosting: Promise<void>;
  /** The services, built once by createServices when the API registers (operator tools, tests). */
  readonly services: () => Services;
  /** The rendered pages kept per address (benchmarks, tests). */
  readonly pages: RenderedPageCache;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The clock every service reads and schedules with (default: the machine's); tests pass a manual one. */
  readonly clock?: Clock;
  readonly logger?: boolean;
  /** Start the store as a copy of this dump (a migrated, seeded store; tests use one per run). */
  readonly template?: Blob;
  /** Per-client limits on sign-up, login, code sending and purchase; 'unlimited' only for tests. */
  readonly rateLimits?: RateLimits | 'unlimited';
  /** How many pages a client may have rendered, and how many renders run at once (over them: the shell). */
  readonly renderLimits?: RenderLimits;
  /** How long a client may take; the defaults (DEFAULT_TIMEOUTS) suit production, tests shorten them. */
  readonly timeouts?: Partial<Timeouts>;
  /** Where each play's seed comes from (default: crypto random); tests pin it to make plays repeatable. */
  readonly playSeeds?: () => number;
  /** The live feed's signaling deadlines (connect, answer, ping); tests shorten them. */
  readonly signalingTimings?: Partial<SignalingTimings>;
  /**
   * The clock of the signaling deadlines and pings alone (default: `clock`). Tests give it a manual
   * clock, so that a deadline falls when the test says, not when a loaded machine is slow, while the
   * video itself runs in real time.
   */
  readonly signalingClock?: Clock;
  /** Wraps the station rooms' store (tests inject a slow or failing write). */
  readonly playStore?: (store: PlayStore) => PlayStore;
  /** Wraps the kuji box rooms' store (tests inject a slow or failing write). */
  readonly kujiStore?: (store: KujiBoxStore) => KujiBoxStore;
  /**
   * Renders each page on the server with its data (the app's server composition root; server/main.ts
   * passes it). Without it, every page is the app's empty shell and the browser renders it.
   */
  readonly renderPages?: PageRendererFactory;
  /**
   * When this instance loses the station host lock while running the rooms (on PostgreSQL): by
   * default the process ends (fail-stop: a supervisor starts it again, as a standby). Tests observe it.
   */
  readonly onHostLost?: (error: unknown) => void;
  /** How often a standby instance tries for the station host lock (default 2 s). */
  readonly hostRetryMs?: number;
}

/** The station a room id names, or null for a room of another kind. */
const stationOf = (id: string): number | null =>
  id.startsWith('station:') && id === roomId('station', Number(id.slice(8))) ? Number(id.slice(8)) : null;

/** A host that lost its lock must not run rooms a moment longer: the process ends. */
function exitOnHostLost(error: unknown): void {
  console.error('onkure: lost the station host lock; exiting so that a supervisor restarts this instance', error);
  process.exit(1);
}

/** Time limits on a client's connection and request (docs/security.md). */
export interface Timeouts {
  /** The whole request, headers and body, must arrive within this (else 408 and the socket closes). */
  readonly requestMs: number;
  /** The headers must arrive within this (at most requestMs). */
  readonly headersMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveMs: number;
  /** A socket with no traffic at all is destroyed after this. */
  readonly connectionMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 10_000,
  connectionMs: 60_000,
};

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Builds the reference station server: Fastify with the API under `config.apiPrefix`, socket.io at
 * /socket.io on the same port, the built app as static files, and /healthz. Storage opens,
 * migrates and seeds in the background; until then the API answers 503 and /healthz 503.
 */
export function createOnkureServer(config: ServerConfig, options: ServerOptions = {}): OnkureServer {
  const clock = options.clock ?? systemClock;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
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
  // One server per DATA_DIR: a second start throws DataDirLockedError here, before it listens. On
  // PostgreSQL (DATABASE_URL) several instances share the database and no directory is locked.
  const dataDirLock =
    config.dataDir && !config.databaseUrl
      ? acquireDataDirLock(config.dataDir, {
          onStale: (owner) =>
            app.log.warn({ owner }, `taking over a stale lock on ${config.dataDir} (pid ${owner.pid} no longer runs)`),
        })
      : null;
  // Browsers let any page open a WebSocket to us: only the app's own origins may (issue 7 §5.6).
  const io = new SocketIOServer(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
    // The live feed's signaling shares the port: other upgrade paths are not socket.io's to close.
    destroyUpgrade: false,
    allowRequest: (request, callback) => callback(null, originAllowed(request, config)),
  });

  // Several instances on one PostgreSQL database: pushes reach every instance's sockets.
  const clusterAdapter = config.databaseUrl
    ? attachClusterAdapter(io, config.databaseUrl, (message, error) => app.log.error({ err: error }, message))
    : null;

  // An upgrade nobody serves (neither socket.io nor the live feed's signaling) gets a 404 at once.
  // An address that does not parse gets a 400 (a raw request line can hold anything).
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const path = requestUrl(request)?.pathname;
    if (path === undefined) return refuseUpgrade(socket, '400 Bad Request');
    if (path.startsWith('/socket.io/') || path === config.webrtcSignalingUrl) return undefined;
    return refuseUpgrade(socket, '404 Not Found');
  });

  const providerCallbackUrl = `${config.apiPrefix}/${PURCHASE_ENDPOINTS.providerCallback}`;
  let store: Store | null = null;
  let services: Services | null = null;
  let readyError: unknown = null;
  let recovered: Promise<void> | null = null;
  /** The station host's start (rooms loaded, deadlines re-armed), once this instance hosts. */
  let hostWork: Promise<void> = Promise.resolve();
  let markHosting: () => void = () => undefined;
  const hosting = new Promise<void>((resolve) => (markHosting = resolve));
  if (config.operatorTokenHash && !config.devCalls)
    app.log.warn(
      'ONKURE_OPERATOR_TOKEN is ignored without ONKURE_DEV_CALLS=1: operators sign in with their accounts (npm run operator -- add …)',
    );
  if (config.databaseUrl && !config.instanceUrl)
    app.log.warn(
      'INSTANCE_URL is not set: the other instances reach this one at http://127.0.0.1:<port>, which only works when they share its machine (docs/deployment.md)',
    );
  const roomHost: RoomHost = config.databaseUrl
    ? new PostgresRoomHost(config.databaseUrl, {
        log: (message, error) => app.log.error({ err: error }, message),
        ...(options.hostRetryMs ? { retryMs: options.hostRetryMs } : {}),
      })
    : new LocalRoomHost();
  const ready = (async () => {
    store = config.databaseUrl
      ? await openPostgresStore(config.databaseUrl, { poolSize: config.databasePoolSize })
      : await openPgliteStore(config.dataDir, options.template ? { template: options.template } : {});
    await migrate(store);
    await seedCatalogue(store, clock.now());
  })().catch((error: unknown) => {
    readyError = error;
    app.log.error({ err: error }, 'storage failed to start');
    throw error;
  });
  ready.catch(() => undefined);

  // Rendered pages, kept per address until the data behind them changes (docs/server-rendering.md).
  const pages = new RenderedPageCache(clock);
  const renderBudget = new RenderBudget(clock, options.renderLimits ?? DEFAULT_RENDER_LIMITS);
  // The built page, its stylesheet inlined (allowed in the CSP by its hash).
  const pageShell = config.staticDir ? readPageShell(config.staticDir) : null;
  void registerSecurityHeaders(app, config, pageShell?.styleHashes ?? []);

  // gzip, deflate or br as the client accepts (spec §7), for answers over 1 KiB. Brotli at quality 4:
  // close to gzip's speed with smaller output; the default (11) costs far too much CPU per answer.
  void app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });

  // 200 only on the instance running the station rooms: the load balancer's feed backend checks it
  // (docs/deployment.md). Always 200 with the embedded store once it is ready.
  app.get('/healthz/host', async (_request, reply) => {
    if (!store || readyError) return reply.code(503).send({ status: 'starting' });
    if (!roomHost.hosting) return reply.code(503).send({ status: 'standby' });
    return { status: 'host' };
  });

  // The stations whose rooms run on this instance (operators, tests).
  app.get('/healthz/stations', async (_request, reply) => {
    if (!services || !store || readyError) return reply.code(503).send({ status: 'starting' });
    return { stations: services.rooms.running('station') };
  });

  // Every room running on this instance, by kind (operators, tests).
  app.get('/healthz/rooms', async (_request, reply) => {
    if (!services || !store || readyError) return reply.code(503).send({ status: 'starting' });
    return { station: services.rooms.running('station'), kuji: services.rooms.running('kuji') };
  });

  app.get('/healthz', async (_request, reply) => {
    if (readyError) return reply.code(503).send({ status: 'failed' });
    if (!store) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) return replyError(reply, 413);
    if (status === 415) return replyError(reply, 415);
    if (status === 429) return replyError(reply, 429);
    if (status >= 400 && status < 500) return replyError(reply, 400);
    // A PostgreSQL data exception (class 22: out-of-range number, invalid text, bad byte sequence) is
    // input the schemas let through, not a server fault: the client gets a 400, and we log it to fix.
    if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code)) {
      request.log.warn({ err: error }, 'data exception from input');
      return replyError(reply, 400);
    }
    request.log.error({ err: error }, 'unhandled error');
    return replyError(reply, 500, ERROR_INFO[500]);
  });

  void app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        if (!store) return replyError(reply, 503);
        await recovered?.catch(() => undefined);
        // The provider's callback is authenticated by its signature, not by the app's header.
        if (
          config.authorization &&
          request.headers.authorization !== config.authorization &&
          request.url !== providerCallbackUrl
        )
          return replyError(reply, 403);
        return undefined;
      });
      // The store opens in the background; the onRequest hook above guarantees it is open here.
      const db: Store = {
        query: (sql, params) => store!.query(sql, params),
        exec: (sql) => store!.exec(sql),
        transaction: (work) => store!.transaction(work),
        close: async () => undefined,
      };
      const limits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
      if (limits !== 'unlimited') await registerRateLimits(api, config.apiPrefix, limits);
      services = createServices(db, clock, io, config, {
        log: (message, error) => app.log.error({ err: error }, message),
        roomHost,
        instanceUrl: () => {
          if (config.instanceUrl) return config.instanceUrl;
          const address = app.server.address();
          return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : null;
        },
        ...(options.playSeeds ? { playSeeds: options.playSeeds } : {}),
        ...(options.signalingTimings ? { signalingTimings: options.signalingTimings } : {}),
        ...(options.signalingClock ? { signalingClock: options.signalingClock } : {}),
        ...(options.playStore ? { playStore: options.playStore } : {}),
        ...(options.kujiStore ? { kujiStore: options.kujiStore } : {}),
      });
      // Stations taken before the server listened are recorded once its address is known.
      app.server.once('listening', () => {
        if (!roomHost.distributed) return;
        void (async () => {
          for (const stationId of built.rooms.running('station')) await built.feedOwners.record(stationId);
        })().catch((error: unknown) => app.log.error({ err: error }, 'could not record the stations run here'));
      });
      // A change that drops the kept top pages drops the rendered pages too.
      services.topPages.onInvalidate(() => pages.clear());
      // Once the store is open, the rooms resume and re-arm the deadlines they hold (docs/play.md, docs/kuji.md).
      const built = services;
      recovered = ready.then(async () => {
        // With the embedded store this instance runs everything. On PostgreSQL each room (a
        // station, a kuji box) runs on the instance holding its lock (the rooms spread over the live
        // instances), and the leader — the instance holding the host lock — runs the deadline
        // sweeps; when an instance dies the others take its part over [R10-8].
        roomHost.start({
          adopt: async (id) => {
            if (!(await built.rooms.adopt(id))) return false;
            const stationId = stationOf(id);
            // The others forward this station's feed here from now on (a failed write only leaves
            // the feed drawn from the stored field elsewhere until the next owner writes it).
            if (stationId !== null)
              await built.feedOwners
                .record(stationId)
                .catch((error: unknown) => app.log.error({ err: error }, 'could not record a station run here'));
            return true;
          },
          release: async (id) => {
            if (!(await built.rooms.release(id))) return false;
            // Its viewers reconnect and are forwarded to the station's next instance.
            const stationId = stationOf(id);
            if (stationId !== null) built.signaling.drop(stationId);
            return true;
          },
          gaveBack: () => io.serverSideEmit(STATIONS_MOVED),
          lead: () => {
            app.log.info('this instance now leads (the sweeps)');
            hostWork = (async () => {
              // The only instance runs every room: each resumed from the store (a kuji box on sale
              // gets its ticket order; what fell due while the server was down is done).
              if (!roomHost.distributed) await built.rooms.start();
              // Pending settlements past their expiry close; the provider's callbacks not yet taken go out again.
              built.purchases.start();
              // Prizes whose storage notices or end came while the server was down are handled now [R10-5].
              built.prizeStorage.start();
            })();
            hostWork.then(markHosting, () => undefined);
            return hostWork;
          },
          lost: (error) => {
            app.log.error({ err: error }, 'lost the station locks: stopping the station rooms');
            void built.rooms.close();
            built.purchases.stop();
            built.prizeStorage.stop();
            (options.onHostLost ?? exitOnHostLost)(error);
          },
        });
        // The only instance (the embedded store) serves no request before its rooms are resumed.
        if (!config.databaseUrl) await hostWork;
        built.provider.start(async (body, signature) => {
          const answer = await app.inject({
            method: 'POST',
            url: providerCallbackUrl,
            headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
            payload: body,
          });
          return answer.statusCode;
        });
      });
      recovered.catch((error: unknown) => app.log.error({ err: error }, 'play loop failed to recover'));
      const route = new RouteBuilder(
        api,
        services.identity,
        {
          accounts: services.operators,
          // The shared token is for development and tests only: production signs operators in.
          devTokenHash: config.devCalls ? config.operatorTokenHash : null,
        },
        (user) => built.serviceMessages.gate(user),
      );
      // Consoles join the live floor with the same sessions.
      built.realtime.setOperatorCheck((token) => route.operatorOfToken(token));
      await registerApiRoutes({ config, services: built, route });
      // The rtc live feed's signaling, when the stations' webrtc_url is a path on this server.
      if (config.webrtcSignalingUrl.startsWith('/')) built.signaling.attach(app.server, () => store !== null);
      api.setNotFoundHandler((_request, reply) => replyError(reply, 404));
    },
    { prefix: config.apiPrefix },
  );

  // The simulated payment provider's hosted pages and the shop's return page (docs/payments.md).
  void app.register(async (root) => {
    await providerPages(root, () => (store && services ? services.provider : null));
    await shopReturnPage(root);
  });

  if (config.staticDir && pageShell) {
    const assetsDir = join(config.staticDir, 'assets') + sep;
    // The app shell, with the live feed's default mode in its meta tag: rtc only when this server
    // can encode video (docs/live-feed.md).
    let shell: string | null = null;
    const appShell = () => {
      if (shell === null) {
        const mode = config.feed.mode === 'rtc' && services?.rtcFeed.available ? 'rtc' : 'jpg';
        shell = pageShell.html.replace(
          /<meta name="onkure-feed" content="[a-z]*"/,
          `<meta name="onkure-feed" content="${mode}"`,
        );
      }
      return shell;
    };
    void app.register(fastifyStatic, {
      root: config.staticDir,
      wildcard: false,
      index: false,
      // The pages are served at their addresses only (the player's shell, the console at /operator).
      allowedPath: (path) => path !== '/index.html' && path !== `/${OPERATOR_PAGE_FILE}`,
      // Our own Cache-Control: with the plugin's on, it overwrites the header set here.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    registerOperatorPage(app, config.staticDir);
    let renderPage: ((request: PageRequest) => Promise<RenderedPage>) | null = null;
    const renderer = () => (renderPage ??= options.renderPages!(appShell()));
    app.setNotFoundHandler(async (request, reply) => {
      if (request.method !== 'GET' || request.url.startsWith(`${config.apiPrefix}/`)) return replyError(reply, 404);
      reply.header('Cache-Control', 'no-cache');
      // Until the store is open (or without a renderer) the page is the app's shell: the browser renders it.
      if (!options.renderPages || !services) return reply.type('text/html; charset=utf-8').send(appShell());
      const accept = request.headers['accept-encoding'];
      const kept = pages.get(request.url);
      if (kept) return sendCompressed(reply, accept, kept, 'text/html; charset=utf-8');
      // A client over its render budget (or a server busy rendering) gets the shell: the browser renders it.
      if (!renderBudget.take(request.ip)) return reply.type('text/html; charset=utf-8').send(appShell());
      try {
        // The address's host is ours, never the request's Host header: nothing rendered may depend on it.
        const page = await renderer()({
          url: `http://localhost${request.url}`,
          fetch: inProcessFetch(app, request.ip),
        });
        const html = await readRenderedText(page.body);
        return sendCompressed(
          reply.status(page.status),
          accept,
          pages.keep(request.url, page.status, html),
          'text/html; charset=utf-8',
        );
      } catch (error) {
        // A page that cannot be rendered here still works: the browser renders it from the shell.
        request.log.error({ err: error }, 'server render failed');
        return reply.type('text/html; charset=utf-8').send(appShell());
      } finally {
        renderBudget.release();
      }
    });
  }

  return {
    app,
    io,
    ready,
    pages,
    hostsStations: () => roomHost.hosting,
    hosting,
    services: () => {
      if (!services) throw new Error('services are not built yet');
      return services;
    },
    store: () => {
      if (!store) throw new Error('store is not open yet');
      return store;
    },
    async close() {
      io.close();
      services?.signaling.close();
      services?.provider.stop();
      services?.purchases.stop();
      services?.prizeStorage.stop();
      services?.rtcFeed.close();
      services?.cameras.close();
      await recovered?.catch(() => undefined);
      // The rooms stop (their writes land) before the locks' connection closes and frees them for the others.
      await roomHost.close(async () => {
        await hostWork.catch(() => undefined);
        await services?.rooms.close();
      });
      await app.close();
      await ready.catch(() => undefined);
      if (store) await store.close();
      await clusterAdapter?.close();
      dataDirLock?.release();
    },
  };
}
