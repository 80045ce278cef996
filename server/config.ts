import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_API_PREFIX } from '../src/contract';
import { asyncContextIsCheap } from './logging/log-context';
import {
  kujiTimeLimitsFrom,
  parseBuildTarget,
  FREE_TC_EXPIRY_DAYS,
  PRIZE_STORAGE_DAYS,
  type BuildTarget,
  type KujiTimeLimits,
} from '../src/domain';

/** Everything the reference server is configured with; see the README's configuration table. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Folder of the embedded store; null keeps everything in memory (tests). Unused with a database. */
  readonly dataDir: string | null;
  /**
   * DATABASE_URL (postgres://…): the store on a PostgreSQL server, shared by several instances
   * (docs/deployment.md); null keeps the embedded PGlite store in DATA_DIR.
   */
  readonly databaseUrl: string | null;
  /** DATABASE_POOL_SIZE (default 10): connections each instance keeps to PostgreSQL. */
  readonly databasePoolSize: number;
  /**
   * TRUST_PROXY: the load balancers' addresses (IPs, CIDRs, or loopback/linklocal/uniquelocal),
   * whose X-Forwarded-For names the client (per-client limits, logs). Empty: the socket's address.
   */
  readonly trustProxy: readonly string[];
  /**
   * INSTANCE_URL: where the other instances reach this one (http://10.0.0.11:8080), for the live
   * feed of the stations it runs (docs/deployment.md). Default: http://127.0.0.1:<its port>.
   */
  readonly instanceUrl: string | null;
  readonly apiPrefix: string;
  readonly target: BuildTarget;
  readonly production: boolean;
  /**
   * Development-only calls (debug login, dev outbox) are registered: only with ONKURE_DEV_CALLS=1
   * exactly, and never with NODE_ENV=production in any case (both set is a start-up error).
   */
  readonly devCalls: boolean;
  /**
   * ONKURE_DEMO_AGENT_DIR (development only, with ONKURE_DEV_CALLS=1): at start the server issues a
   * station key for every station and writes a sim agent's machine file and key file into this
   * folder, for `npm start` to run the demo's agent process (server/agent/demo-agent.ts). Null: no
   * such thing happens.
   */
  readonly demoAgentDir: string | null;
  /**
   * ONKURE_DEMO_AGENT_SERVER: the http(s) address the demo's agent dials (its machine file names
   * that address's /agent); by default this server's own. `npm run cluster` gives its load balancer.
   */
  readonly demoAgentServer: string | null;
  /** Authorization header value every API call must carry; '' turns the check off. */
  readonly authorization: string;
  /** Folder with the built app (index.html); null or missing means API only. */
  readonly staticDir: string | null;
  readonly logLevel: string;
  /**
   * Whether each request's and socket event's id is carried into the lines of what it sets off (a
   * room step, a store write, a push) by an async context: LOG_REQUEST_CONTEXT=1 or 0; by default
   * only where Node keeps one cheaply (Node 24+, docs/operations.md "Logs").
   */
  readonly logRequestContext: boolean;
  /** Accounts created after this instant must verify their e-mail (the /emailvalid guard, R2.2-2). */
  readonly emailVerifyCutoff: Date;
  /** The kuji holder's windows in seconds (KUJI_FIRST_RESERVED_SECONDS, KUJI_CONFIRM_SECONDS; 60 and 180). */
  readonly kujiTimeLimits: KujiTimeLimits;
  /** Public address of the app, for links the server writes (invite URLs). */
  readonly publicUrl: string;
  /** Extra origins a browser page may open socket.io from (ALLOWED_ORIGINS, space or comma separated). */
  readonly allowedOrigins: readonly string[];
  /** Extra CSP connect-src sources (CSP_CONNECT_SRC: the API origin, the live feed's media server). */
  readonly connectSrc: readonly string[];
  /**
   * The stations' webrtc_url (WEBRTC_SIGNALING_URL): the Sora-compatible signaling endpoint. A
   * path (default /signaling) is resolved by the client against the page's origin (ws/wss).
   */
  readonly webrtcSignalingUrl: string;
  /** The live feed: its default mode (ONKURE_FEED: rtc or jpg, default rtc) and the rtc limits (docs/live-feed.md). */
  readonly feed: FeedConfig;
  /** The configured real-time channel beside 'top' (REALTIME_CHANNEL; spec §7 "the configured channel"). */
  readonly realtimeChannel: string;
  /** SHA-256 of ONKURE_OPERATOR_TOKEN (at least 24 characters); null: the operator API is off. */
  readonly operatorTokenHash: Buffer | null;
  /**
   * The analytics tag script's origin (ANALYTICS_TAG_ORIGIN, e.g. https://www.googletagmanager.com):
   * added to the CSP's script-src and connect-src; null (unset) adds nothing. docs/analytics.md.
   */
  readonly analyticsTagOrigin: string | null;
  /** The payment provider (the simulated one here) and the settlements' expiry: docs/payments.md. */
  readonly payment: PaymentConfig;
  /** PRIZE_STORAGE_DAYS (default 30): how long a won prize waits for a delivery request [R10-5]. */
  readonly prizeStorageDays: number;
  /** FREE_TC_EXPIRY_DAYS (default 90): free TC lapses at 24:00 JST of this day, the credit's being the first [R11-7]. */
  readonly freeTcDays: number;
  /** The plays' clips (docs/clips.md). */
  readonly clips: ClipsConfig;
  /** Prometheus metrics (docs/operations.md "Metrics"). */
  readonly metrics: MetricsConfig;
}

/** Where Prometheus reads the instance's metrics; neither set: nowhere (off). */
export interface MetricsConfig {
  /** SHA-256 of METRICS_TOKEN (at least 24 characters): GET /metrics with `Authorization: Bearer <token>`; null: no /metrics on the service's port. */
  readonly tokenHash: Buffer | null;
  /** METRICS_PORT: a listener of its own serving /metrics with no token, on METRICS_HOST (default 127.0.0.1); null: none. */
  readonly port: number | null;
  readonly host: string;
  /** INSTANCE_ID, else the instance's address: the `instance_id` label of every series. */
  readonly instanceId: string;
}

export interface ClipsConfig {
  /**
   * CLIPS_DIR: where the clips are written (default DATA_DIR/clips); null (DATA_DIR=:memory:
   * without CLIPS_DIR): a temporary folder the server removes on close.
   */
  readonly dir: string | null;
  /** CLIPS_MAX_BYTES (default 20 GB): past it the oldest unkept clips are removed. */
  readonly maxBytes: number;
}

export interface PaymentConfig {
  /**
   * The secret the provider signs its callbacks with (PAYMENT_PROVIDER_SECRET, at least 32
   * characters). Unset: a random one per start, which the in-process simulated provider shares.
   */
  readonly providerSecret: string;
  /** SETTLEMENT_EXPIRY_MINUTES (default 30): a settlement not paid by then ends as cancelled. */
  readonly settlementTtlMs: number;
}

/** The live feed's settings. */
export interface FeedConfig {
  /** The play screen's default mode; rtc falls back to jpg when the server cannot encode video. */
  readonly mode: 'rtc' | 'jpg';
  /** RTC_MAX_VIEWERS_PER_CAMERA (default 100). */
  readonly maxViewersPerCamera: number;
  /**
   * RTC_MAX_CONNECTIONS_PER_CLIENT: signaling connections from one address (default 4: a play
   * screen uses two). It also bounds the encoders one address can keep busy.
   */
  readonly maxConnectionsPerClient: number;
  /** RTC_ICE_HOSTS: host addresses offered besides the machine's interfaces (default 127.0.0.1). */
  readonly iceHosts: readonly string[];
  /** FFMPEG_PATH: the encoder; null uses the static ffmpeg of the optional npm package. */
  readonly ffmpegPath: string | null;
  /**
   * HLS_H264 (default remux): the spectators' LL-HLS of an H.264 camera is its own stream remuxed;
   * `encode` encodes it again like a VP8 camera's (about 1 Mbit/s, at most 960 wide), for cameras
   * that send more than the spectators should download (docs/spectators.md).
   */
  readonly hlsH264: 'remux' | 'encode';
}

function hlsH264(value: string | undefined): 'remux' | 'encode' {
  const mode = value || 'remux';
  if (mode !== 'remux' && mode !== 'encode')
    throw new ServerConfigError(`HLS_H264 must be remux or encode (got "${mode}").`);
  return mode;
}

export class ServerConfigError extends Error {
  override readonly name = 'ServerConfigError';
}

/** Reads and checks the environment; throws ServerConfigError with a clear message on a bad value. */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const target = parseBuildTarget(env.ONKURE_TARGET);
  if (!target.ok) throw new ServerConfigError(target.message);
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ServerConfigError(`PORT must be an integer 0-65535 (got "${env.PORT}").`);
  let apiPrefix = env.API_PREFIX ?? DEFAULT_API_PREFIX;
  if (!apiPrefix.startsWith('/')) apiPrefix = `/${apiPrefix}`;
  apiPrefix = apiPrefix.replace(/\/+$/, '');
  if (apiPrefix === '' || apiPrefix === '/socket.io' || apiPrefix === '/healthz')
    throw new ServerConfigError(`API_PREFIX must be a path such as /api (got "${env.API_PREFIX}").`);
  const emailVerifyCutoff = new Date(env.EMAIL_VERIFY_CUTOFF || '2025-04-01T00:00:00+09:00');
  const kujiTimeLimits = kujiTimeLimitsFrom(env.KUJI_FIRST_RESERVED_SECONDS, env.KUJI_CONFIRM_SECONDS);
  if (!kujiTimeLimits)
    throw new ServerConfigError(
      `KUJI_FIRST_RESERVED_SECONDS and KUJI_CONFIRM_SECONDS must be whole seconds from 5 to 3600 (got "${env.KUJI_FIRST_RESERVED_SECONDS ?? ''}", "${env.KUJI_CONFIRM_SECONDS ?? ''}").`,
    );
  if (Number.isNaN(emailVerifyCutoff.getTime()))
    throw new ServerConfigError(
      `EMAIL_VERIFY_CUTOFF must be an ISO date-time such as 2025-04-01T00:00:00+09:00 (got "${env.EMAIL_VERIFY_CUTOFF}").`,
    );
  const production = isProductionEnv(env.NODE_ENV);
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\/\S+$/.test(databaseUrl))
    throw new ServerConfigError(
      'DATABASE_URL must be a PostgreSQL address such as postgres://onkure@db.example.jp:5432/onkure (or unset for the embedded store).',
    );
  const devCalls = env.ONKURE_DEV_CALLS === '1';
  if (env.LOG_REQUEST_CONTEXT !== undefined && !['', '0', '1'].includes(env.LOG_REQUEST_CONTEXT))
    throw new ServerConfigError(`LOG_REQUEST_CONTEXT must be 1 or 0 (got "${env.LOG_REQUEST_CONTEXT}").`);
  const logRequestContext = env.LOG_REQUEST_CONTEXT ? env.LOG_REQUEST_CONTEXT === '1' : asyncContextIsCheap();
  if (devCalls && production)
    throw new ServerConfigError(
      `ONKURE_DEV_CALLS=1 (development-only calls such as the debug login) cannot be used with NODE_ENV=production (got "${env.NODE_ENV}"); unset one of them.`,
    );
  const demoAgentDir = env.ONKURE_DEMO_AGENT_DIR ? resolve(cwd, env.ONKURE_DEMO_AGENT_DIR) : null;
  // It writes a key that drives every station: a development-only feature, so it fails closed.
  if (demoAgentDir !== null && !devCalls)
    throw new ServerConfigError(
      "ONKURE_DEMO_AGENT_DIR (the demo's sim agent with a key for every station) is development-only: it needs ONKURE_DEV_CALLS=1 and cannot be used in production; unset it.",
    );
  const trustProxy = (env.TRUST_PROXY ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of trustProxy)
    if (!/^([0-9a-fA-F.:]+(\/\d{1,3})?|loopback|linklocal|uniquelocal)$/.test(entry))
      throw new ServerConfigError(
        `TRUST_PROXY must list the load balancers' addresses such as 10.0.0.2 or 10.0.0.0/24 (got "${entry}").`,
      );
  const instanceUrl = env.INSTANCE_URL || null;
  if (instanceUrl !== null && !/^https?:\/\/[^\s/?#'"]+$/.test(instanceUrl))
    throw new ServerConfigError(
      `INSTANCE_URL must be the address other instances reach this one at, such as http://10.0.0.11:8080 (got "${instanceUrl}").`,
    );
  const allowedOrigins = originList(env.ALLOWED_ORIGINS, 'ALLOWED_ORIGINS');
  const connectSrc = (env.CSP_CONNECT_SRC ?? '').split(/[\s,]+/).filter(Boolean);
  for (const source of connectSrc)
    if (!/^(https?|wss?):\/\/[^\s;,'"]+$/.test(source))
      throw new ServerConfigError(
        `CSP_CONNECT_SRC must list origins such as https://api.example.jp wss://media.example.jp (got "${source}").`,
      );
  const operatorToken = env.ONKURE_OPERATOR_TOKEN ?? '';
  if (operatorToken !== '' && operatorToken.length < 24)
    throw new ServerConfigError(
      'ONKURE_OPERATOR_TOKEN must be at least 24 characters (or unset to turn the operator API off).',
    );
  const realtimeChannel = env.REALTIME_CHANNEL || 'onkure';
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(realtimeChannel) || realtimeChannel === 'top')
    throw new ServerConfigError(
      `REALTIME_CHANNEL must be a lower-case name such as onkure, other than top (got "${realtimeChannel}").`,
    );
  const analyticsTagOrigin = env.ANALYTICS_TAG_ORIGIN || null;
  if (analyticsTagOrigin !== null) {
    const [origin] = originList(analyticsTagOrigin, 'ANALYTICS_TAG_ORIGIN');
    if (
      origin !== analyticsTagOrigin ||
      !/^https?:\/\/[a-z0-9.-]+(:\d+)?$/.test(origin) ||
      (production && !origin.startsWith('https://'))
    )
      throw new ServerConfigError(
        `ANALYTICS_TAG_ORIGIN must be one https origin such as https://www.googletagmanager.com (got "${analyticsTagOrigin}").`,
      );
  }
  const webrtcSignalingUrl = env.WEBRTC_SIGNALING_URL || '/signaling';
  if (!/^(\/[\w./-]*|wss?:\/\/[^\s'"]+)$/.test(webrtcSignalingUrl))
    throw new ServerConfigError(
      `WEBRTC_SIGNALING_URL must be a path such as /signaling or a ws(s):// address (got "${webrtcSignalingUrl}").`,
    );
  const providerSecret = env.PAYMENT_PROVIDER_SECRET || randomBytes(32).toString('hex');
  if (providerSecret.length < 32)
    throw new ServerConfigError(
      'PAYMENT_PROVIDER_SECRET must be at least 32 characters (or unset for a random one per start).',
    );
  const payment: PaymentConfig = {
    providerSecret,
    settlementTtlMs: wholeNumber(env.SETTLEMENT_EXPIRY_MINUTES, 30, 'SETTLEMENT_EXPIRY_MINUTES') * 60_000,
  };
  const feedMode = env.ONKURE_FEED || 'rtc';
  if (feedMode !== 'rtc' && feedMode !== 'jpg')
    throw new ServerConfigError(`ONKURE_FEED must be rtc or jpg (got "${feedMode}").`);
  const iceHosts = (env.RTC_ICE_HOSTS ?? '127.0.0.1').split(/[\s,]+/).filter(Boolean);
  for (const host of iceHosts)
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host))
      throw new ServerConfigError(`RTC_ICE_HOSTS must list IPv4 addresses such as 127.0.0.1 (got "${host}").`);
  const feed: FeedConfig = {
    mode: feedMode,
    maxViewersPerCamera: wholeNumber(env.RTC_MAX_VIEWERS_PER_CAMERA, 100, 'RTC_MAX_VIEWERS_PER_CAMERA'),
    maxConnectionsPerClient: wholeNumber(env.RTC_MAX_CONNECTIONS_PER_CLIENT, 4, 'RTC_MAX_CONNECTIONS_PER_CLIENT'),
    iceHosts,
    ffmpegPath: env.FFMPEG_PATH || null,
    hlsH264: hlsH264(env.HLS_H264),
  };
  const dataDir = env.DATA_DIR === ':memory:' ? null : resolve(cwd, env.DATA_DIR || '.data');
  const clipsMax = env.CLIPS_MAX_BYTES || String(20 * 1024 ** 3);
  if (!/^\d{1,15}$/.test(clipsMax) || Number(clipsMax) < 1024 * 1024)
    throw new ServerConfigError(`CLIPS_MAX_BYTES must be a number of bytes, at least 1048576 (got "${clipsMax}").`);
  const clips: ClipsConfig = {
    dir: env.CLIPS_DIR ? resolve(cwd, env.CLIPS_DIR) : dataDir === null ? null : join(dataDir, 'clips'),
    maxBytes: Number(clipsMax),
  };
  const metricsToken = env.METRICS_TOKEN ?? '';
  if (metricsToken !== '' && metricsToken.length < 24)
    throw new ServerConfigError(
      'METRICS_TOKEN must be at least 24 characters (or unset for no /metrics on the service port).',
    );
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : null;
  if (
    metricsPort !== null &&
    (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535 || (metricsPort === port && port !== 0))
  )
    throw new ServerConfigError(`METRICS_PORT must be an integer 0-65535 other than PORT (got "${env.METRICS_PORT}").`);
  const instanceId = env.INSTANCE_ID || (instanceUrl ? new URL(instanceUrl).host : `${hostname()}:${port}`);
  if (!/^[\w.:@-]{1,100}$/.test(instanceId))
    throw new ServerConfigError(
      `INSTANCE_ID must be a short name of letters, digits and . : @ - _ (got "${instanceId}").`,
    );
  const metrics: MetricsConfig = {
    tokenHash: metricsToken ? createHash('sha256').update(metricsToken).digest() : null,
    port: metricsPort,
    host: env.METRICS_HOST || '127.0.0.1',
    instanceId,
  };
  return {
    clips,
    metrics,
    payment,
    prizeStorageDays: wholeNumber(env.PRIZE_STORAGE_DAYS, PRIZE_STORAGE_DAYS, 'PRIZE_STORAGE_DAYS'),
    freeTcDays: wholeNumber(env.FREE_TC_EXPIRY_DAYS, FREE_TC_EXPIRY_DAYS, 'FREE_TC_EXPIRY_DAYS'),
    feed,
    webrtcSignalingUrl,
    realtimeChannel,
    analyticsTagOrigin,
    operatorTokenHash: operatorToken ? createHash('sha256').update(operatorToken).digest() : null,
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    trustProxy,
    instanceUrl,
    databasePoolSize: wholeNumber(env.DATABASE_POOL_SIZE, 10, 'DATABASE_POOL_SIZE'),
    dataDir,
    apiPrefix,
    target: target.target,
    production,
    devCalls,
    demoAgentDir,
    demoAgentServer: demoAgentDir !== null && env.ONKURE_DEMO_AGENT_SERVER ? env.ONKURE_DEMO_AGENT_SERVER : null,
    authorization: env.API_AUTHORIZATION ?? '',
    staticDir: env.STATIC_DIR === '' ? null : resolve(cwd, env.STATIC_DIR || 'dist/client'),
    // A service logs each request (info); a development machine only what needs a look.
    logLevel: env.LOG_LEVEL || (production ? 'info' : 'warn'),
    logRequestContext,
    emailVerifyCutoff,
    kujiTimeLimits,
    allowedOrigins,
    connectSrc,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port === 0 ? 8080 : port}`).replace(/\/+$/, ''),
  };
}

/**
 * NODE_ENV names production in any case and with stray spaces ("Production", " PRODUCTION"): a
 * deployment that spells it differently must never fall back to development behaviour.
 * scripts/start.mjs applies the same rule.
 */
export function isProductionEnv(value: string | undefined): boolean {
  return (value ?? '').trim().toLowerCase() === 'production';
}

/** A positive whole-number setting (1 to 100000), or its default when unset. */
function wholeNumber(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw new ServerConfigError(`${name} must be a whole number from 1 to 100000 (got "${value}").`);
  return n;
}

function originList(value: string | undefined, name: string): string[] {
  const list = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of list) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.origin !== origin)
      throw new ServerConfigError(`${name} must list origins such as https://onkure.example.jp (got "${origin}").`);
  }
  return list;
}
