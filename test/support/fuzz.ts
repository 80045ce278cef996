import fc from 'fast-check';
import { anyJson, mutatedBodies } from './fuzz-values';
import { expect, it } from 'vitest';
import type { TestServer } from './test-server';
import { storeFingerprint } from './store-fingerprint';

export { anyJson, mutatedBodies };

export interface FuzzTarget {
  readonly method: 'POST' | 'GET';
  readonly url: string | ((junk: string) => string);
  readonly validBody?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

/**
 * Sends `runs` random and mutated bodies to one endpoint and asserts: never a 5xx, every answer
 * is JSON with a numeric error_code, every refusal has a Japanese error_info, and a refused
 * request leaves the store exactly as it was.
 */
export async function fuzzEndpoint(
  t: TestServer,
  target: FuzzTarget,
  runs = 200,
): Promise<{ refused: number; accepted: number }> {
  let refused = 0;
  let accepted = 0;
  const bodies = fc.sample(target.validBody ? mutatedBodies(target.validBody) : anyJson, {
    numRuns: runs,
    seed: 20261122,
  });
  const junkPaths = fc.sample(fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)), {
    numRuns: runs,
    seed: 7,
  });
  // The store's fingerprint before each request: the one taken after the previous refusal, or a new
  // one after an accepted request (which may change the store). Halves the hashing work.
  let before: string | null = null;
  for (const [i, body] of bodies.entries()) {
    before ??= await storeFingerprint(t.server.store());
    const url = typeof target.url === 'function' ? target.url(encodeURIComponent(junkPaths[i]!)) : target.url;
    const res = await t.server.app.inject({
      method: target.method,
      url,
      headers: { 'content-type': 'application/json', ...target.headers },
      ...(target.method === 'POST' ? { payload: JSON.stringify(body) } : {}),
    });
    expect(res.statusCode, `${target.method} ${url} with ${JSON.stringify(body)?.slice(0, 200)}`).toBeLessThan(500);
    const json = res.json() as { error_code?: unknown; error_info?: unknown };
    expect(typeof json.error_code).toBe('number');
    if (json.error_code === 200) {
      accepted++;
      before = null;
      continue;
    }
    refused++;
    expect(json.error_info, `error_info for ${JSON.stringify(body)?.slice(0, 200)}`).toMatch(
      /[\u3040-\u30ff\u4e00-\u9fff]/,
    );
    const after = await storeFingerprint(t.server.store());
    expect(after, `store changed by a refused ${url}`).toBe(before);
    before = after;
  }
  return { refused, accepted };
}

/** A POST call to fuzz: its path under /api and a valid body, built when the test runs (after setup). */
export type FuzzPost = readonly [path: string, validBody: () => Record<string, unknown>];

/**
 * One test per call, named `POST /{path}` (plus `nameSuffix`): 200 random and mutated bodies through
 * `fuzzEndpoint`, every one answered, more than `minRefused` of them refused. `server` is read when
 * the test runs (suites start theirs in beforeAll).
 */
export function itFuzzesPosts(
  server: () => TestServer,
  cases: readonly FuzzPost[],
  options: {
    readonly minRefused: number;
    readonly headers?: Record<string, string>;
    readonly nameSuffix?: string;
    readonly timeoutMs?: number;
  },
): void {
  for (const [path, validBody] of cases) {
    it(
      `POST /${path}${options.nameSuffix ?? ''}`,
      async () => {
        const { refused, accepted } = await fuzzEndpoint(
          server(),
          {
            method: 'POST',
            url: `/api/${path}`,
            validBody: validBody(),
            ...(options.headers ? { headers: options.headers } : {}),
          },
          200,
        );
        expect(refused).toBeGreaterThan(options.minRefused);
        expect(refused + accepted).toBe(200);
      },
      options.timeoutMs ?? 120_000,
    );
  }
}
