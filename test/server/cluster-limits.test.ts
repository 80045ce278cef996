import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../server/http/rate-limit';
import { usePostgresCluster } from '../support/postgres-cluster';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 46: two instances on one PostgreSQL database share the per-client limits (their counts
 * live in the store), so a client that alternates between them is refused after the limit, not
 * twice it.
 */
const postgres = usePostgresCluster();
let a: TestServer;
let b: TestServer;
/** Time stands still on a window's edge: the windows the test counts in are known. */
const clock = new ManualServerClock(new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000));

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  a = await startTestServer({ databaseUrl: url, clock, rateLimits: DEFAULT_RATE_LIMITS });
  b = await startTestServer({ databaseUrl: url, clock, rateLimits: DEFAULT_RATE_LIMITS, standby: true });
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
  readonly retryAfter: string | undefined;
}

async function call(server: TestServer, path: string, payload: object, ip: string): Promise<Answer> {
  const res = await server.server.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload,
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
  const retryAfter = res.headers['retry-after'];
  return {
    status: res.statusCode,
    json: res.json(),
    retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
  };
}

const instance = (i: number) => (i % 2 === 0 ? a : b);
const refusedInOurEnvelope = (answer: Answer) => {
  expect(answer.status).toBe(429);
  expect(answer.json).toEqual({ error_code: 429, error_info: expect.stringMatching(/[\u3040-\u30ff]/) as unknown });
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
};

describe('per-client limits across two instances on one PostgreSQL', () => {
  it('login: calls alternated between the instances are refused after the limit for the cluster, not twice it', async () => {
    const { max } = DEFAULT_RATE_LIMITS.login;
    const answers: Answer[] = [];
    for (let i = 0; i < max + 4; i++)
      answers.push(
        await call(instance(i), 'auth/login', { email: `alt${i}@example.jp`, password: 'wrong-pass1' }, '198.51.100.1'),
      );
    expect(answers.slice(0, max).map((x) => x.status)).toEqual(Array.from({ length: max }, () => 401));
    for (const refused of answers.slice(max)) refusedInOurEnvelope(refused);
    // Another client is not touched, on either instance.
    expect(
      (await call(b, 'auth/login', { email: 'alt0@example.jp', password: 'wrong-pass1' }, '198.51.100.2')).status,
    ).toBe(401);
  });

  it('sign-up: alternated between the instances, the 11th in ten minutes is refused', async () => {
    const { max } = DEFAULT_RATE_LIMITS.signup;
    const statuses: number[] = [];
    for (let i = 0; i < max + 2; i++)
      statuses.push(
        (
          await call(
            instance(i),
            'auth/signup',
            { email: `alt-new${i}@example.jp`, password: 'kurekure2024' },
            '198.51.100.3',
          )
        ).status,
      );
    expect(statuses).toEqual([...Array.from({ length: max }, () => 200), 429, 429]);
  });

  it('60 concurrent logins from one client spread over both instances: exactly the limit are checked', async () => {
    const { max } = DEFAULT_RATE_LIMITS.login;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(instance(i), 'auth/login', { email: `burst${i}@example.jp`, password: 'wrong-pass1' }, '198.51.100.4'),
      ),
    );
    expect(answers.filter((x) => x.status === 401)).toHaveLength(max);
    for (const refused of answers.filter((x) => x.status !== 401)) refusedInOurEnvelope(refused);
  });

  it('the window passes for both instances: a minute later the client logs in again on either', async () => {
    clock.advance(2 * DEFAULT_RATE_LIMITS.login.timeWindowMs);
    expect(
      (await call(a, 'auth/login', { email: 'later@example.jp', password: 'wrong-pass1' }, '198.51.100.1')).status,
    ).toBe(401);
    expect(
      (await call(b, 'auth/login', { email: 'later@example.jp', password: 'wrong-pass1' }, '198.51.100.4')).status,
    ).toBe(401);
  });

  it('bad input to a limited call is a 4xx in our envelope, never a 5xx', async () => {
    for (const payload of [
      {},
      { email: 'x' },
      { email: 1, password: [] },
      { email: 'a@b.jp', password: 'x'.repeat(5000) },
    ]) {
      const answer = await call(a, 'auth/login', payload, '198.51.100.9');
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.json).toEqual({
        error_code: expect.any(Number) as unknown,
        error_info: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9fff]/) as unknown,
      });
    }
  });
});
