import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import { FRAME_TICK_HEADER } from '../../src/contract';
import type { ServerConfig } from '../config';

/**
 * The Content-Security-Policy the built app runs under: its own scripts and styles only (Vite emits
 * no inline script or style), images also as data: and blob: URLs, calls and sockets to this origin
 * (socket.io: ws:/wss:) and to the configured extra origins (CSP_CONNECT_SRC: the API origin, the
 * live feed's media server later). No plugins, no framing, no <base> elsewhere. The analytics tag's
 * origin (ANALYTICS_TAG_ORIGIN) joins script-src and connect-src only when it is configured; its
 * hit endpoints go in CSP_CONNECT_SRC (docs/analytics.md). No 'unsafe-inline' either way: the
 * adapter defines gtag() in the bundle, not in an inline snippet; the one inline style (the app's
 * stylesheet, inlined into the page by the server) is allowed by its hash.
 */
export function contentSecurityPolicy(
  config: Pick<ServerConfig, 'connectSrc'> & Partial<Pick<ServerConfig, 'analyticsTagOrigin'>>,
  styleHashes: readonly string[] = [],
): Record<string, string[]> {
  const tag = config.analyticsTagOrigin ? [config.analyticsTagOrigin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...tag],
    'style-src': ["'self'", ...styleHashes],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'ws:', 'wss:', ...tag, ...config.connectSrc],
    // The spectators' HLS: hls.js plays through Media Source Extensions (a blob: URL); Safari's
    // native HLS and the play clips load from this origin.
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/** Security headers on every answer (CSP, nosniff, Referrer-Policy, no framing) through @fastify/helmet. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'connectSrc'> & Partial<Pick<ServerConfig, 'analyticsTagOrigin'>>,
  styleHashes: readonly string[] = [],
): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config, styleHashes) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // The app loads cross-origin prize images; COEP would block them.
    crossOriginEmbedderPolicy: false,
    // HSTS belongs to the TLS-terminating proxy in front of this server, not to plain-HTTP development.
    strictTransportSecurity: false,
  });
}

/**
 * Whether a browser page from `origin` may open a socket.io connection: the app's own origin
 * (PUBLIC_URL, or the Host the request came to) or one of ALLOWED_ORIGINS. A request without an
 * Origin header is not from a browser page (browsers always send it on WebSocket and CORS calls).
 */
export function originAllowed(
  request: Pick<IncomingMessage, 'headers'>,
  config: Pick<ServerConfig, 'publicUrl' | 'allowedOrigins'>,
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === new URL(config.publicUrl).origin || config.allowedOrigins.includes(origin)) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * Partner pages (ALLOWED_ORIGINS: a portal embedding the station widget, examples/station-widget)
 * may call the service across origins as a guest: GET and POST with the client's own headers
 * (Content-Type, X-Requested-With), and read a still's tick header. No credentials and no identity
 * header (Authorization, X-Access-Token) cross: a partner page shows what a signed-out visitor sees,
 * and the player plays on the service's own pages. With no ALLOWED_ORIGINS nothing changes: no
 * answer carries an Access-Control header. docs/library.md "Partner pages".
 */
export async function registerPartnerCors(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'allowedOrigins'>,
): Promise<void> {
  if (config.allowedOrigins.length === 0) return;
  await app.register(fastifyCors, {
    origin: [...config.allowedOrigins],
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', 'x-requested-with'],
    exposedHeaders: [FRAME_TICK_HEADER],
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}
