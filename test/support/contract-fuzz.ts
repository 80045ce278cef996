import fc from 'fast-check';
import type { DeclaredRoute } from '../../server/http/route';
import { OPERATOR_AUTH_HEADER, OPERATOR_ENDPOINTS } from '../../src/contract/operator.schema';
import { anyJson, mutatedBodies } from './fuzz-values';
import { schemaArbitrary } from './schema-arbitrary';
import { storeFingerprint } from './store-fingerprint';
import { createTestUser, type TestUser } from './users';
import type { TestServer } from './test-server';

/** What the campaign needs of a server: the server itself and its config (a TestServer, or a bench's own). */
export type FuzzedServer = Pick<TestServer, 'server' | 'config'>;

/** A request the campaign sent that broke a rule: what it was and what came back. */
export interface FuzzFinding {
  readonly rule: 'server error' | 'not an envelope' | 'no Japanese reason' | 'refusal changed the store';
  readonly request: string;
  readonly status: number;
  readonly answer: string;
}

export interface FuzzReport {
  readonly requests: number;
  /** Answers by route ("POST /api/user/tc") and status. */
  readonly byRoute: Map<string, Map<number, number>>;
  readonly accepted: number;
  readonly refused: number;
  /** Refusals whose store fingerprint was compared before and after. */
  readonly checkedRefusals: number;
  /** Routes the server answers that no declared schema covers (sent random bodies and paths). */
  readonly undeclared: readonly string[];
  readonly findings: readonly FuzzFinding[];
  /** Times the player's session ended (a logout, a deletion, a password change) and a new one was made. */
  readonly newPlayers: number;
  /** Times a request was still unanswered after 2 s of real time and the server's clock was moved on. */
  readonly held: number;
}

export interface FuzzOptions {
  readonly requests: number;
  readonly seed: number;
  /** The operator's development token of the server (ONKURE_OPERATOR_TOKEN). */
  readonly operatorToken: string;
  /** Compare the store before and after every Nth refusal (1: every one). */
  readonly fingerprintEvery: number;
  /** Routes left out (by "METHOD url"), each with its reason. */
  readonly skip?: ReadonlyMap<string, string>;
  /** The server's clock, when it stands still (ManualServerClock): moved on for a held request. */
  readonly clock?: { advance(ms: number): void };
}

/** How far the clock moves for a held request each time: past any hold (docs/spectators.md). */
const HELD_STEP_MS = 10_000;

/** The answer, or null when it has not come in 2 s of real time. */
async function unlessStill<T>(answer: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const still = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), 2_000);
  });
  try {
    return await Promise.race([answer, still]);
  } finally {
    clearTimeout(timer);
  }
}

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;
/** Plausible values of path parameters: real ids and names, and junk. */
const PARAM_VALUES: Record<string, fc.Arbitrary<string>> = {
  camera: fc.constantFrom('front', 'side', 'top', ''),
  file: fc.constantFrom('index.m3u8', 'init.mp4', 'seg1.m4s', 'part1.1.m4s', '../x', 'x'),
};
const junkParam = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  fc.constantFrom('0', '-1', '2147483648', '99999999999', 'abc', '%00', '..', '%E3%81%82'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

/** One request to send: its method, URL, headers and body (POST). */
interface Planned {
  readonly key: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly withIdentity: boolean;
}

/**
 * The contract fuzz (issue 46): `requests` requests spread over every route the server answers.
 * A call declared through RouteBuilder gets bodies (or queries) built from its own zod schema —
 * valid ones, the same with one field replaced, dropped or joined by junk, and wholly random JSON —
 * with the live player's identity, or the operator's token, most of the time so that the bodies
 * reach the code behind the sign-in. Every other route (pages, health, WHIP, the provider's pages)
 * gets random bodies and junk in its path parameters. The rules: never a server error (5xx) but
 * a designed 503 in our envelope; every API answer our envelope; every refusal with a Japanese
 * reason; and a refused request leaves the store as it was (compared on every Nth refusal).
 */
export async function contractFuzz(t: FuzzedServer, options: FuzzOptions): Promise<FuzzReport> {
  const routes = t.server.routes();
  const declared = new Set(routes.map((r) => `${r.method} ${r.url}`));
  const undeclared = t.server
    .httpRoutes()
    .filter((r) => (r.method === 'GET' || r.method === 'POST') && !declared.has(`${r.method} ${r.url}`))
    .filter((r) => !r.url.includes('*'))
    .map((r) => `${r.method} ${r.url}`);
  const targets = [
    ...routes.map((route) => ({ key: `${route.method} ${route.url}`, route })),
    ...undeclared.map((key) => ({ key, route: null })),
  ].filter(({ key }) => !options.skip?.has(key));
  const random = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 1, seed: options.seed })[0]!;
  let rng = random;
  const next = () => {
    rng = (rng * 1_103_515_245 + 12_345) % 2 ** 31;
    return rng / 2 ** 31;
  };
  // Bodies per route, drawn in batches from its arbitrary (one sample call per batch is far faster).
  const pools = new Map<string, { values: unknown[]; at: number; arbitrary: fc.Arbitrary<unknown> }>();
  const draw = (key: string, arbitrary: () => fc.Arbitrary<unknown>): unknown => {
    let pool = pools.get(key);
    if (!pool || pool.at >= pool.values.length) {
      const arb = pool?.arbitrary ?? arbitrary();
      pool = { values: fc.sample(arb, { numRuns: 64, seed: Math.floor(next() * 2 ** 31) }), at: 0, arbitrary: arb };
      pools.set(key, pool);
    }
    return pool.values[pool.at++];
  };

  let player = await createTestUser(t, {}, { freeTc: 5_000 });
  let newPlayers = 0;
  const byRoute = new Map<string, Map<number, number>>();
  const findings: FuzzFinding[] = [];
  let accepted = 0;
  let refused = 0;
  let checkedRefusals = 0;
  let before: string | null = null;
  let held = 0;

  for (let i = 0; i < options.requests; i += 1) {
    const target = targets[Math.floor(next() * targets.length)]!;
    const planned = plan(target.key, target.route, player, options.operatorToken, next, draw);
    const check = refused % options.fingerprintEvery === 0;
    if (check) before ??= await storeFingerprint(t.server.store());
    const answer = t.server.app.inject({
      method: planned.method as 'GET' | 'POST',
      url: planned.url,
      headers: planned.headers,
      ...(planned.body !== undefined ? { payload: planned.body } : {}),
    });
    // A held request (an HLS playlist waiting for its part) waits on the server's clock: one still
    // for 2 s of real time gets the clock moved on, as time would have, until it is answered. What
    // fell due meanwhile (a lapse, a play's end) may have changed the store: no comparison spans it.
    let res = await unlessStill(answer);
    for (; res === null; res = await unlessStill(answer)) {
      if (!options.clock) throw new Error(`${planned.method} ${planned.url}: no answer, and no clock to move`);
      options.clock.advance(HELD_STEP_MS);
      held += 1;
      before = null;
    }
    const counts = byRoute.get(planned.key) ?? new Map<number, number>();
    counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
    byRoute.set(planned.key, counts);
    const described = `${planned.method} ${planned.url} ${planned.body?.slice(0, 300) ?? ''}`;
    const isJson = (res.headers['content-type'] ?? '').toString().includes('application/json');
    const json = isJson ? safeJson(res.body) : null;
    const reason = typeof json?.error_info === 'string' ? json.error_info : '';
    // A designed 503: an API call's refusal in our envelope (a camera with no picture yet, the
    // store unreachable), or a health check's answer to the load balancer ({"status":"waiting"}).
    const designedUnavailable =
      res.statusCode === 503 &&
      (JAPANESE.test(reason) || (planned.url.startsWith('/healthz') && typeof json?.status === 'string'));
    if (res.statusCode >= 500 && !designedUnavailable)
      findings.push({
        rule: 'server error',
        request: described,
        status: res.statusCode,
        answer: res.body.slice(0, 300),
      });
    const api = planned.url.startsWith(t.config.apiPrefix + '/');
    if (api && res.statusCode >= 400 && typeof json?.error_code !== 'number')
      findings.push({
        rule: 'not an envelope',
        request: described,
        status: res.statusCode,
        answer: res.body.slice(0, 300),
      });
    const ok = res.statusCode < 400 && (json === null || json.error_code === 200 || json.error_code === undefined);
    if (ok) {
      accepted += 1;
      before = null;
      // A broadcast may have started the emergency maintenance (§8): every player call would then
      // answer 503 with the operator's text. The campaign ends it and goes on with an open service.
      if (planned.key === `POST ${t.config.apiPrefix}/${OPERATOR_ENDPOINTS.broadcast}`)
        await endEmergency(t, options.operatorToken);
    } else {
      refused += 1;
      if (api && !JAPANESE.test(reason))
        findings.push({
          rule: 'no Japanese reason',
          request: described,
          status: res.statusCode,
          answer: res.body.slice(0, 300),
        });
      if (check && before !== null) {
        checkedRefusals += 1;
        const after = await storeFingerprint(t.server.store());
        if (after !== before)
          findings.push({
            rule: 'refusal changed the store',
            request: described,
            status: res.statusCode,
            answer: res.body.slice(0, 300),
          });
        before = after;
      } else before = null;
    }
    // The session ended (a logout, a deletion, a new password): the campaign goes on as a new player.
    if (planned.withIdentity && res.statusCode === 401 && !(await stillSignedIn(t, player))) {
      player = await createTestUser(t, {}, { freeTc: 5_000 });
      newPlayers += 1;
      before = null;
    }
  }
  return {
    requests: options.requests,
    byRoute,
    accepted,
    refused,
    checkedRefusals,
    undeclared,
    findings,
    newPlayers,
    held,
  };
}

function plan(
  key: string,
  route: DeclaredRoute | null,
  player: TestUser,
  operatorToken: string,
  next: () => number,
  draw: (key: string, arbitrary: () => fc.Arbitrary<unknown>) => unknown,
): Planned {
  const [method, path] = key.split(' ') as [string, string];
  const mine = next() < 0.85;
  const url = path.replace(/:([a-z_]+)/g, (_all, name: string) => {
    if (name === 'user_id' && mine) return String(player.user_id);
    return fc.sample(PARAM_VALUES[name] ?? junkParam, { numRuns: 1, seed: Math.floor(next() * 2 ** 31) })[0]!;
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!route) {
    const body = method === 'POST' ? JSON.stringify(draw(`${key}:any`, () => anyJson)) : undefined;
    return { key, method, url, headers, ...(body !== undefined ? { body } : {}), withIdentity: false };
  }
  // Valid per the schema, the same mutated, or anything at all.
  const shape = next();
  let value: unknown =
    shape < 0.6
      ? draw(key, () => schemaArbitrary(route.schema))
      : shape < 0.9
        ? draw(`${key}:mutated`, () =>
            schemaArbitrary(route.schema).chain((valid) =>
              valid && typeof valid === 'object' && !Array.isArray(valid)
                ? mutatedBodies(valid as Record<string, unknown>)
                : anyJson,
            ),
          )
        : draw(`${key}:any`, () => anyJson);
  let withIdentity = false;
  if (route.kind === 'authed' || route.kind === 'open') {
    if (mine && value && typeof value === 'object' && !Array.isArray(value)) {
      value = { ...value, user_id: player.user_id, access_token: player.access_token };
      withIdentity = true;
    }
  } else if (route.kind === 'authedGet') {
    if (mine) {
      headers['x-access-token'] = player.access_token;
      withIdentity = true;
    }
  } else if (route.kind === 'operator') {
    if (mine) headers[OPERATOR_AUTH_HEADER] = `Bearer ${operatorToken}`;
  } else if (route.kind === 'signed') {
    headers['x-signature'] = 'sha256=' + '0'.repeat(64);
  }
  if (method === 'GET') {
    const query =
      value && typeof value === 'object' && !Array.isArray(value)
        ? new URLSearchParams(
            Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString()
        : '';
    return { key, method, url: query ? `${url}?${query}` : url, headers, withIdentity };
  }
  return { key, method, url, headers, body: JSON.stringify(value) ?? 'null', withIdentity };
}

async function endEmergency(t: FuzzedServer, operatorToken: string): Promise<void> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `${t.config.apiPrefix}/${OPERATOR_ENDPOINTS.emergencyEnd}`,
    headers: { 'content-type': 'application/json', [OPERATOR_AUTH_HEADER]: `Bearer ${operatorToken}` },
    payload: '{}',
  });
  if (res.statusCode !== 200)
    throw new Error(`ending the emergency maintenance answered ${res.statusCode} ${res.body}`);
}

async function stillSignedIn(t: FuzzedServer, player: TestUser): Promise<boolean> {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `${t.config.apiPrefix}/user/tc`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ user_id: player.user_id, access_token: player.access_token }),
  });
  return res.statusCode !== 401;
}

function safeJson(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
