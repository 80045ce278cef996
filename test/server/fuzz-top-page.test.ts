import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzEndpoint } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(async () => t?.close());

describe('fuzzing the catalogue calls', () => {
  it('POST /contents/top_page_prize: 200 random and mutated bodies, no 5xx, refusals change nothing', async () => {
    const { refused } = await fuzzEndpoint(t, {
      method: 'POST',
      url: '/api/contents/top_page_prize',
      validBody: { shop_id: 1, is_top_page: 1, fes_id: 1 },
    });
    expect(refused).toBeGreaterThan(100);
  }, 120_000);
});
