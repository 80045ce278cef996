import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { MemoryLimitCounts } from '../../server/limits/memory-limit-counts';
import { StoreLimitCounts } from '../../server/limits/store-limit-counts';
import { WindowLimiter, type LimitCounts, type LimitRule } from '../../server/limits/window-limiter';
import { openPostgresStore } from '../../server/store/postgres-store';
import { openPgliteStore, type Store } from '../../server/store/store';
import { usePostgresCluster } from '../support/postgres-cluster';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * Issue 46: the limiter that counts attempts in the store (migration 054), on the embedded PGlite
 * and on PostgreSQL, where two pools stand for two instances sharing one database.
 */
const postgres = usePostgresCluster();
const stores: Store[] = [];
let lite: Store;
let pgA: Store;
let pgB: Store;

beforeAll(async () => {
  lite = await openPgliteStore(null, { template: new Blob([readFileSync(inject('storeTemplatePath'))]) });
  const url = await postgres.cluster.seededDatabase();
  pgA = await openPostgresStore(url, { poolSize: 10 });
  pgB = await openPostgresStore(url, { poolSize: 10 });
  stores.push(lite, pgA, pgB);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

const RULE: LimitRule = { name: 'test:codes', max: 10, windowMs: 60_000 };
/** A start exactly on a window's edge, so the tests know where windows begin. */
const EDGE = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);

let keys = 0;
const freshKey = () => `client-${++keys}`;

const kinds: readonly [string, () => readonly LimitCounts[]][] = [
  ['PGlite', () => [new StoreLimitCounts(lite)]],
  ['PostgreSQL, two instances', () => [new StoreLimitCounts(pgA), new StoreLimitCounts(pgB)]],
  ['memory', () => [new MemoryLimitCounts()]],
];

describe.each(kinds)('the window limiter on %s', (_kind, countsOf) => {
  const limiters = (clock: ManualServerClock) => countsOf().map((counts) => new WindowLimiter(counts, clock));

  it('60 concurrent attempts on one key (spread over the instances): exactly the limit allowed', async () => {
    const clock = new ManualServerClock(EDGE);
    const all = limiters(clock);
    const key = freshKey();
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => all[i % all.length]!.hit(RULE, key)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(RULE.max);
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    // Another key is not touched.
    expect((await all[0]!.hit(RULE, freshKey())).allowed).toBe(true);
  });

  it('a burst across the edge of two windows does not pass twice the limit; the sliding window frees up as time passes', async () => {
    const clock = new ManualServerClock(EDGE);
    const [limiter] = limiters(clock);
    const key = freshKey();
    clock.advance(59_000);
    for (let i = 0; i < RULE.max; i++) expect((await limiter!.hit(RULE, key)).allowed).toBe(true);
    clock.advance(2_000); // 1 s into the next window: the previous one still weighs 59/60.
    const refused = await limiter!.hit(RULE, key);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 59_000 });
    clock.advance(30_000); // 29 s of the previous window left: 5 of its 10 weigh, and the refused 11th counts.
    const allowed = [];
    for (let i = 0; i < 6; i++) allowed.push((await limiter!.hit(RULE, key)).allowed);
    expect(allowed).toEqual([true, true, true, true, false, false]);
  });

  it('an attempt given back frees its place; a reset forgets the key', async () => {
    const clock = new ManualServerClock(EDGE);
    const [limiter] = limiters(clock);
    const key = freshKey();
    const hits = [];
    for (let i = 0; i < RULE.max; i++) hits.push(await limiter!.hit(RULE, key));
    await hits[0]!.giveBack();
    expect((await limiter!.hit(RULE, key)).allowed).toBe(true);
    expect((await limiter!.hit(RULE, key)).allowed).toBe(false);
    await limiter!.reset(RULE, key);
    expect((await limiter!.hit(RULE, key)).count).toBe(1);
  });
});

describe('the limit counts in the store', () => {
  const SWEPT: LimitRule = { name: 'test:sweep', max: 10, windowMs: 60_000 };
  const rowsOf = async (store: Store) =>
    (await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM limit_counts WHERE key LIKE 'test:sweep:%'`))[0]!
      .n;

  it.each([
    ['PGlite', () => lite],
    ['PostgreSQL', () => pgA],
  ] as const)(
    'on %s, a counter lives through its window and the next, then an attempt a minute later sweeps it',
    async (_kind, storeOf) => {
      const store = storeOf();
      const clock = new ManualServerClock(EDGE);
      const limiter = new WindowLimiter(new StoreLimitCounts(store), clock);
      await limiter.hit(SWEPT, 'someone');
      clock.advance(2 * SWEPT.windowMs - 1);
      await limiter.sweep();
      expect(await rowsOf(store)).toBe(1);
      clock.advance(SWEPT.windowMs);
      // Any attempt (another limit, another key) a minute after the last sweep sweeps in the background.
      await limiter.hit(RULE, freshKey());
      await expect.poll(() => rowsOf(store)).toBe(0);
    },
  );

  it('in memory, dead counters are swept the same way', async () => {
    const clock = new ManualServerClock(EDGE);
    const counts = new MemoryLimitCounts();
    const limiter = new WindowLimiter(counts, clock);
    await limiter.hit(SWEPT, 'someone');
    clock.advance(2 * SWEPT.windowMs - 1);
    expect(await limiter.sweep()).toBe(0);
    clock.advance(SWEPT.windowMs);
    await limiter.hit(SWEPT, 'someone else');
    expect(counts.size).toBe(1);
  });

  it('hold no address or user in clear: the key is the limit and a hash', async () => {
    const clock = new ManualServerClock(EDGE);
    await new WindowLimiter(new StoreLimitCounts(lite), clock).hit(RULE, '203.0.113.77');
    const rows = await lite.query<{ key: string }>(`SELECT key FROM limit_counts WHERE key LIKE 'test:codes:%'`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key.includes('203.0.113'))).toBe(false);
  });
});
