import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { contractFuzz } from '../support/contract-fuzz';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 46, fuzz: requests generated from the contract across every route the server answers
 * (test/support/contract-fuzz.ts); `npm run bench:fuzz` sends 100,000. Never a server error, our
 * envelope with a Japanese reason on every refusal, and a refused request changes nothing.
 */
const TOKEN = 'operator-token-for-the-contract-fuzz-0123';
let t: TestServer;
// From the instant the run's template was seeded at: the server starts as a copy of it.
const clock = new ManualServerClock(new Date(inject('storeTemplateSeededAt')));

beforeAll(async () => {
  // Time stands still (moved only for a held request, see contractFuzz): nothing falls due between
  // a refusal's two fingerprints (a play's end, a lapse), so a store that changed was changed by it.
  t = await startTestServer({ inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the contract fuzz (issue 46)', () => {
  it('3,000 requests built from every declared schema, and junk to every other route: no 5xx, every refusal in Japanese, refusals change nothing', async () => {
    const report = await contractFuzz(t, {
      requests: 3_000,
      seed: 46,
      operatorToken: TOKEN,
      fingerprintEvery: 3,
      clock,
    });
    expect(report.findings).toEqual([]);
    // Every declared call was reached, most more than once.
    const declared = t.server.routes().map((r) => `${r.method} ${r.url}`);
    expect(declared.length).toBeGreaterThan(100);
    expect(declared.filter((key) => !report.byRoute.has(key))).toEqual([]);
    // The schemas' bodies get past validation: a good share of the calls are answered.
    expect(report.accepted).toBeGreaterThan(report.requests * 0.15);
    expect(report.checkedRefusals).toBeGreaterThan(300);
  }, 240_000);
});
