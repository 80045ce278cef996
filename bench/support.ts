import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SERVER_NODE_OPTIONS } from '../scripts/server-process.mjs';
import { readServerConfig, type ServerConfig } from '../server/config';

/* Small helpers the bench scripts share. */

/**
 * The config of a server a bench runs in its own process: an ephemeral port on loopback, an
 * in-memory store, no static files, quiet logs, and `extra` (development calls, a feed, a token).
 */
export const inProcessConfig = (extra: NodeJS.ProcessEnv = {}): ServerConfig =>
  readServerConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: ':memory:',
    STATIC_DIR: '',
    LOG_LEVEL: 'silent',
    ...extra,
  });

/**
 * The command that runs bench/feed-server.ts (server/main.ts under another name) with the server's
 * own Node options, as `npm start` runs it, and `extra` (a CPU profile's options).
 */
export const feedServerCommand = (extra: readonly string[] = []): string[] => [
  process.execPath,
  ...SERVER_NODE_OPTIONS,
  ...extra,
  '--import',
  'tsx',
  join(process.cwd(), 'bench/feed-server.ts'),
];

/** A delivery address the service accepts (bench:delivery, the chaos campaign's deliveries). */
export const DELIVERY_ADDRESS = {
  last_name: '山田',
  first_name: '花子',
  zip: '150-0001',
  address1: '東京都',
  address2: '渋谷区神宮前',
  address3: '1-2-3',
  tel: '09012345678',
};

export const now = () => performance.timeOrigin + performance.now();
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The p-th percentile, nearest rank: the smallest value at least p % of the values do not exceed. */
export const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export const fmt = (n: number, width = 6) => (Number.isNaN(n) ? '—' : n.toFixed(1)).padStart(width);

/** CPU seconds (user + system) a process used so far, from /proc; 0 once it is gone. */
/** CPU seconds of a process and all its descendants alive now (Linux /proc). */
export function treeCpuSeconds(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    children = [];
  }
  return cpuSeconds(pid) + children.reduce((sum, child) => sum + treeCpuSeconds(child), 0);
}

export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/*
 * Set-up calls. A bench measures what it set up: a station it opened, a player it signed in, a key
 * it issued. A call that sets up the measurement and is refused must stop the bench with that
 * refusal, not let it measure something else and fail later with a confusing message (bench:faults
 * once ran its fault storm on stations whose opening had been refused with 403, and stopped with
 * "player 35 is not playing: null"). Calls that are the measured load count their refusals instead.
 */

/** An answer of the service API: its HTTP status and its JSON envelope (error_code 200 on success, server/http/reply.ts). */
export interface ApiAnswer<T extends object = Record<string, unknown>> {
  readonly status: number;
  readonly json: T;
}

/** A call that sets up a measurement was refused; the bench stops with it (`benchFailed`). */
export class SetUpRefused extends Error {
  override readonly name = 'SetUpRefused';
}

export const isSetUpRefused = (error: unknown): error is SetUpRefused =>
  error instanceof Error && error.name === 'SetUpRefused';

/**
 * Checks the answer of a set-up call: HTTP 200 and, for the service's envelope, error_code 200.
 * Returns the body; throws SetUpRefused `set-up refused: <what> answered <status> <body>` otherwise.
 * A body without `error_code` (a page, a health check) is judged by its status alone.
 */
export function checkSetUp<T>(what: string, status: number, body: T): T {
  const code = typeof body === 'object' && body !== null && 'error_code' in body ? body.error_code : 200;
  if (status !== 200 || code !== 200)
    throw new SetUpRefused(
      `set-up refused: ${what} answered ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`,
    );
  return body;
}

/**
 * Awaits a set-up call and checks its answer: `{ status, json }` (the campaigns' and benches' own
 * callers) or a fetch Response (read as JSON, or as text when it is not JSON).
 *
 * @example const who = await setUp(post('auth/debug_login', { name }), 'debug login');
 */
export async function setUp<T extends object>(call: Promise<ApiAnswer<T>>, what: string): Promise<T>;
export async function setUp<T extends object = Record<string, unknown>>(
  call: Promise<Response>,
  what: string,
): Promise<T>;
export async function setUp(call: Promise<ApiAnswer | Response>, what: string): Promise<object> {
  const answer = await call;
  if (!(answer instanceof Response)) return checkSetUp(what, answer.status, answer.json);
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): printed as it came.
  }
  return checkSetUp(what, answer.status, body) as object;
}

/** POSTs `body` as JSON to `url` and reads the answer as `{ status, json }` (refusals included: nothing is checked). */
export async function postJson<T extends object = Record<string, unknown>>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T & { error_code?: number }>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T & { error_code?: number } };
}

/**
 * Ends a bench that failed, exit code 1: a refused set-up with its refusal line alone (it says what
 * was refused and how), anything else as the error with its stack.
 */
export function benchFailed(error: unknown): never {
  console.error(isSetUpRefused(error) ? error.message : error);
  process.exit(1);
}

/**
 * For the benches written as top-level await: an error thrown there ends the process through
 * Node's uncaught-exception path (after every `finally` ran); this prints it as `benchFailed` does.
 */
export function failWithRefusals(): void {
  process.once('uncaughtException', benchFailed);
}

/**
 * The refused answers among the measured load's, by HTTP status and error_code (`409 409 ×3, 429
 * 429 ×1`), or `none`: refusals of the load are outcomes, printed beside the numbers.
 */
export function refusalsOf(answers: readonly ApiAnswer<{ error_code?: unknown }>[]): string {
  const counts = new Map<string, number>();
  for (const { status, json } of answers) {
    if (status === 200 && (json.error_code === undefined || json.error_code === 200)) continue;
    const key = `${status} ${String(json.error_code ?? '')}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ×${n}`).join(', ') || 'none';
}
