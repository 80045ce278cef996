import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { AttemptLimits, type AttemptLogs } from '../../server/limits/attempt-limiter';
import { ConnectionLeases, type LeaseLogs } from '../../server/limits/connection-leases';
import { StoreAttemptLogs } from '../../server/limits/store-attempt-logs';
import { StoreConnectionLeases } from '../../server/limits/store-connection-leases';
import type { LimitRule } from '../../server/limits/window-limiter';
import { isRefusal } from '../../server/play/refusal';
import { openPostgresStore } from '../../server/store/postgres-store';
import { openPgliteStore, type Store } from '../../server/store/store';
import { usePostgresCluster } from '../support/postgres-cluster';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * Issue 46: the exact attempt limits (migration 056) and the open connections' leases (057) in the
 * store, on the embedded PGlite and on PostgreSQL, where two pools stand for two instances sharing
 * one database.
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

const RULE: LimitRule = { name: 'test:checks', max: 10, windowMs: 15 * 60_000 };
const START = new Date('2026-11-26T12:00:00+09:00');
let keys = 0;
const freshKey = () => `someone-${++keys}@example.jp\n198.51.100.${keys % 250}`;
const noErrors = (message: string, error: unknown) => {
  throw new Error(`${message}: ${String(error)}`);
};

const kinds: readonly [string, () => readonly Store[]][] = [
  ['PGlite', () => [lite]],
  ['PostgreSQL, two instances', () => [pgA, pgB]],
];

describe.each(kinds)('the attempt limiter on %s', (_kind, storesOf) => {
  const limiters = (clock: ManualServerClock, rule = RULE) =>
    storesOf().map((store) => new AttemptLimits(new StoreAttemptLogs(store), clock, noErrors).limit(rule));

  it('40 concurrent attempts on one key, spread over the instances: exactly max allowed', async () => {
    const clock = new ManualServerClock(START);
    const all = limiters(clock);
    const key = freshKey();
    const attempts = await Promise.all(Array.from({ length: 40 }, (_, i) => all[i % all.length]!.tryAcquire(key)));
    expect(attempts.filter((a) => a.allowed)).toHaveLength(RULE.max);
    expect(await all[0]!.isBlocked(key)).toBe(true);
    // Another key is not touched.
    expect((await all[all.length - 1]!.tryAcquire(freshKey())).allowed).toBe(true);
  });

  it('an attempt at t counts while now - window < t: the key is free exactly a window after its oldest attempt', async () => {
    const clock = new ManualServerClock(START);
    const [a, b = a] = limiters(clock);
    const key = freshKey();
    expect((await a!.tryAcquire(key)).allowed).toBe(true); // at 0
    clock.advance(60_000);
    for (let i = 1; i < RULE.max; i++) expect((await (i % 2 ? b! : a!).tryAcquire(key)).allowed).toBe(true);
    expect((await b!.tryAcquire(key)).allowed).toBe(false); // refused: not counted
    clock.advance(RULE.windowMs - 60_000 - 1); // window - 1 ms after the first
    expect((await a!.tryAcquire(key)).allowed).toBe(false);
    clock.advance(1); // exactly the window: the first attempt no longer counts
    expect((await b!.tryAcquire(key)).allowed).toBe(true);
    expect((await a!.tryAcquire(key)).allowed).toBe(false);
    clock.advance(60_000); // the nine made a minute later leave together
    expect(
      (await Promise.all(Array.from({ length: 12 }, () => a!.tryAcquire(key)))).filter((x) => x.allowed),
    ).toHaveLength(9);
  });

  it('refused attempts are not counted; reset forgives the key; a given-back attempt frees its place', async () => {
    const clock = new ManualServerClock(START);
    const [a, b = a] = limiters(clock);
    const key = freshKey();
    const first = [];
    for (let i = 0; i < RULE.max; i++) first.push(await a!.tryAcquire(key));
    for (let i = 0; i < 5; i++) expect((await b!.tryAcquire(key)).allowed).toBe(false);
    await first[3]!.giveBack();
    await first[3]!.giveBack(); // once only: the place was given back already
    expect((await b!.tryAcquire(key)).allowed).toBe(true);
    expect((await b!.tryAcquire(key)).allowed).toBe(false);
    await a!.reset(key);
    expect(await b!.isBlocked(key)).toBe(false);
    expect((await b!.tryAcquire(key)).allowed).toBe(true);
  });

  it('recordFailure counts past the limit; isBlocked reads without counting', async () => {
    const clock = new ManualServerClock(START);
    const [a, b = a] = limiters(clock, { ...RULE, max: 3 });
    const key = freshKey();
    for (let i = 0; i < 2; i++) await a!.recordFailure(key);
    expect(await b!.isBlocked(key)).toBe(false);
    expect(await b!.isBlocked(key)).toBe(false);
    await b!.recordFailure(key);
    await b!.recordFailure(key);
    expect(await a!.isBlocked(key)).toBe(true);
    expect((await a!.tryAcquire(key)).allowed).toBe(false);
    clock.advance(RULE.windowMs);
    expect(await a!.isBlocked(key)).toBe(false);
  });

  it('dead keys are swept; the table holds no e-mail or address, and at most max attempts per key', async () => {
    const clock = new ManualServerClock(START);
    const [store] = storesOf();
    const limits = new AttemptLimits(new StoreAttemptLogs(store!), clock, noErrors);
    const limiter = limits.limit({ ...RULE, name: 'test:sweep', max: 3 });
    const key = 'sweep-me@example.jp\n203.0.113.7';
    for (let i = 0; i < 5; i++) await limiter.recordFailure(key);
    const rows = await store!.query<{ key: string; attempts: unknown[] }>(
      "SELECT key, attempts FROM attempt_logs WHERE key LIKE 'test:sweep:%'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toHaveLength(3);
    const all = JSON.stringify(await store!.query('SELECT * FROM attempt_logs'));
    expect(all).not.toContain('sweep-me');
    expect(all).not.toContain('203.0.113.7');
    clock.advance(RULE.windowMs);
    expect(await limits.sweep()).toBeGreaterThanOrEqual(1);
    expect(await store!.query("SELECT 1 FROM attempt_logs WHERE key LIKE 'test:sweep:%'")).toEqual([]);
  });
});

describe('the attempt limiter fails closed', () => {
  const failing: AttemptLogs = {
    add: () => Promise.reject(new Error('connection terminated')),
    remove: () => Promise.reject(new Error('connection terminated')),
    count: () => Promise.reject(new Error('connection terminated')),
    clear: () => Promise.reject(new Error('connection terminated')),
    removeExpired: () => Promise.reject(new Error('connection terminated')),
  };

  it('a store that cannot count the attempt refuses it 503 in Japanese (the check does not run); reset only logs', async () => {
    const logged: string[] = [];
    const limiter = new AttemptLimits(failing, new ManualServerClock(START), (message) => logged.push(message)).limit(
      RULE,
    );
    const refused = await limiter.tryAcquire('k').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isRefusal(refused)).toBe(true);
    expect(refused).toMatchObject({
      status: 503,
      code: 503,
      info: expect.stringMatching(/[\u3040-\u30ff]/) as unknown,
    });
    await expect(limiter.isBlocked('k')).rejects.toMatchObject({ status: 503 });
    await expect(limiter.reset('k')).resolves.toBeUndefined();
    expect(logged).toEqual([
      'counting an attempt (test:checks) failed',
      'counting an attempt (test:checks) failed',
      'resetting an attempt log (test:checks) failed',
    ]);
  });
});

describe.each(kinds)('the connection leases on %s', (_kind, storesOf) => {
  const TTL = { ttlMs: 30_000, renewMs: 10_000 };
  const leasesOf = (clock: ManualServerClock, max = 4) =>
    storesOf().map(
      (store) => new ConnectionLeases('test:conn', max, new StoreConnectionLeases(store), clock, noErrors, TTL),
    );

  it('40 concurrent takes for one client, spread over the instances: exactly max held; a release frees one', async () => {
    const clock = new ManualServerClock(START);
    const all = leasesOf(clock);
    const client = freshKey();
    const taken = await Promise.all(Array.from({ length: 40 }, (_, i) => all[i % all.length]!.take(client)));
    const held = taken.filter((l) => l !== null);
    expect(held).toHaveLength(4);
    expect(await all[0]!.take(client)).toBeNull();
    held[0]!.release();
    held[0]!.release(); // once only
    await Promise.all(all.map((l) => l.close()));
    const again = leasesOf(clock);
    const one = await again[again.length - 1]!.take(client);
    expect(one).not.toBeNull();
    expect(await again[0]!.take(client)).toBeNull();
    for (const l of [...held.slice(1), one]) l!.release();
    await Promise.all([...all, ...again].map((l) => l.close()));
  });

  it('held leases are renewed while their connections live; a killed instance’s lapse after the ttl', async () => {
    const clock = new ManualServerClock(START);
    const [live, dead = live] = leasesOf(clock);
    const client = freshKey();
    const mine = [await live!.take(client), await live!.take(client)];
    // The "killed" instance holds two and stops renewing (its timer gone with it, nothing released).
    const [killedStore] = storesOf().slice(-1);
    const killed = new ConnectionLeases('test:conn', 4, new StoreConnectionLeases(killedStore!), clock, noErrors, TTL);
    expect(await killed.take(client)).not.toBeNull();
    expect(await killed.take(client)).not.toBeNull();
    await killed.close();
    expect(await dead!.take(client)).toBeNull();
    // Two minutes: the live instance renews its two every 10 s; the killed one's lapse after 30 s.
    for (let s = 0; s < 120; s += 5) {
      clock.advance(5_000);
      await live!.settled();
    }
    expect(live!.holding).toBe(2);
    const two = [await dead!.take(client), await dead!.take(client)];
    expect(two.every((l) => l !== null)).toBe(true);
    expect(await dead!.take(client)).toBeNull();
    for (const l of [...mine, ...two]) l!.release();
    await Promise.all([live!.close(), dead!.close()]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a store that fails refuses the take (fail closed); renewals and releases only log', async () => {
    const logged: string[] = [];
    const failing: LeaseLogs = {
      take: () => Promise.reject(new Error('connection terminated')),
      release: () => Promise.reject(new Error('connection terminated')),
      removeExpired: () => Promise.reject(new Error('connection terminated')),
    };
    const leases = new ConnectionLeases('test:conn', 4, failing, new ManualServerClock(START), (m) => logged.push(m));
    await expect(leases.take('client')).rejects.toThrow('connection terminated');
    expect(leases.holding).toBe(0);
    await leases.close();
  });
});
