import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

/**
 * What a log line is about, carried through everything a request or a socket event sets off
 * (docs/operations.md "Logs"): `reqId` for an HTTP request, `conn` and `socketEvent` for an event
 * on a socket connection. A room step, a store write or a push that a request caused logs with the
 * request's id, on whatever line of code it logs from.
 */
export interface LogContext {
  readonly reqId?: string;
  readonly conn?: string;
  readonly socketEvent?: string;
}

const storage = new AsyncLocalStorage<LogContext>();
/** The servers of this process that carry a context into their lines (see `carryLogContext`). */
let carriers = 0;

/**
 * Whether this Node keeps an async context cheaply: Node 24 and later build AsyncLocalStorage on
 * AsyncContextFrame (Node 22 with --experimental-async-context-frame). Before, it runs on async
 * hooks, which cost every promise of the process: a loop of awaits ran 2.6× slower with a context
 * on Node 20.20, and the fault campaign's 1,000 play cycles 40 % slower (docs/operations.md "Logs").
 */
export function asyncContextIsCheap(
  version: string = process.versions.node,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  if (execArgv.includes('--no-async-context-frame')) return false;
  return Number(version.split('.')[0]) >= 24 || execArgv.includes('--experimental-async-context-frame');
}

/**
 * Starts carrying each request's and socket event's context into what it sets off, for one
 * server; answers its release (the server's close). When the last server of the process releases
 * it, the async hooks are switched off again and the process' promises cost what they did.
 */
export function carryLogContext(): () => void {
  carriers += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    carriers -= 1;
    if (carriers === 0) storage.disable();
  };
}

/** The part of the server's logger that the services log their events through (pino's). */
export interface EventLog {
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/**
 * Runs `work` (and everything it sets off) with `context` on its log lines, while a server of the
 * process carries contexts (`carryLogContext`); else just runs it.
 */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  if (carriers === 0) return work();
  return storage.run({ ...storage.getStore(), ...context }, work);
}

/** The context of the code running now ({} outside any request or socket event). */
export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}

/** A short random id for a socket connection (socket.io's own id opens its polling session: never logged). */
export function connectionLogId(): string {
  return `c-${randomBytes(6).toString('base64url')}`;
}

/** A request id a load balancer sent is kept when it is a plain token; any other is replaced. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{8,64}$/;
/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The request's id: the load balancer's X-Request-Id when the server trusts a proxy and the id is
 * a plain token (HAProxy sets one, scripts/lib/haproxy.ts), else a new random one.
 */
export function requestIdGenerator(trustsProxy: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (trustsProxy && typeof given === 'string' && FORWARDED_ID.test(given)) return given;
    return `r-${randomBytes(9).toString('base64url')}`;
  };
}

/** The path of an address, without its query (a query may hold a media token or a view key). */
function pathOf(url: string | undefined): string {
  if (!url) return '';
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/**
 * The server's pino options: JSON lines, each with what it is about (the request, the connection)
 * and nothing that identifies a person or opens an account — no client address, no query string,
 * no header, and any token, password, e-mail or phone field in a logged object redacted.
 */
export function loggerOptions(level: string): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  return {
    level,
    mixin(_fields: object, _level: number, logger: Logger) {
      const context = storage.getStore();
      if (!context) return {};
      // A request's own logger already names its reqId.
      const bound = logger.bindings();
      return Object.fromEntries(Object.entries(context).filter(([key]) => !(key in bound)));
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: pathOf(request.url),
        route: request.routeOptions?.url,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
    redact: {
      paths: [
        '*.access_token',
        '*.accessToken',
        '*.password',
        '*.new_password',
        '*.token',
        '*.authorization',
        '*.cookie',
        '*.email',
        '*.phone',
        '*.headers',
        'access_token',
        'password',
        'token',
        'email',
        'phone',
        'headers',
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * The services' `log(message, error?)` on a Fastify logger: with an error it is one (level error,
 * the error serialized), without one it is something an operator may want to see but no failure (a
 * camera's publisher ended, a clip folder over its size), so warn. An error line wakes someone
 * (docs/operations.md): a camera that stops publishing at a normal shutdown must not write one.
 */
export function serviceLog(logger: {
  warn(message: string): void;
  error(fields: { err: unknown }, message: string): void;
}): (message: string, error?: unknown) => void {
  return (message, error) => (error === undefined ? logger.warn(message) : logger.error({ err: error }, message));
}
