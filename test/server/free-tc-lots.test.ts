import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tcHistoryResponseSchema, userDataResponseSchema, type PushMessage } from '../../src/contract';
import { DAY_MS, fromJstParts, HOUR_MS, toJstParts } from '../../src/domain';
import { FreeTcExpiry } from '../../server/wallet/free-tc-expiry';
import { isInsufficientFundsError, type Ledger } from '../../server/wallet/ledger';
import { ManualServerClock } from '../support/manual-server-clock';
import { STORE_KINDS, useStoreKinds } from '../support/store-kinds';
import type { TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, post } from './user-helpers';

const stores = useStoreKinds();

/** Wednesday 2026-11-25 12:00 JST: a free credit now ends at 24:00 JST of 2027-02-22, its 90th day. */
const START = new Date(fromJstParts(2026, 11, 25, 12));
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(STORE_KINDS)('free TC in lots that expire [R11-7] on %s', (kind) => {
  const clock = new ManualServerClock(START);
  let t: TestServer;
  let ledger: Ledger;
  let pushes: { userId: number; push: PushMessage }[] = [];
  const users: TestUser[] = [];

  beforeAll(async () => {
    t = await stores.startServer(kind, { clock, env: { ONKURE_DEV_CALLS: '1' } });
    ledger = t.server.services().ledger;
    vi.spyOn(t.server.services().realtime, 'push').mockImplementation((userId, push) => {
      pushes.push({ userId, push });
    });
  });
  afterAll(async () => t?.close());

  /** After every test: each wallet equals the sum of its rows, and its lots agree with both. */
  afterEach(async () => {
    for (const u of users) {
      const b = await ledger.balance(u.user_id);
      const rows = await ledger.fromRows(u.user_id);
      expect({ tc_free: rows.tc_free, tc_toll: rows.tc_toll }).toEqual({ tc_free: b.tc_free, tc_toll: b.tc_toll });
      expect(await ledger.checkLots(u.user_id)).toEqual([]);
    }
    pushes = [];
  });

  const player = async () => {
    const u = await createTestUser(t);
    users.push(u);
    return u;
  };
  const free = (u: TestUser, amount: number, key: string) =>
    ledger.credit(u.user_id, 'free', { amount, reason: 'admin', idempotencyKey: key });
  const toll = (u: TestUser, amount: number, key: string) =>
    ledger.credit(u.user_id, 'toll', { amount, reason: 'purchase', idempotencyKey: key });
  const spend = (u: TestUser, amount: number, key: string) =>
    ledger.debit(u.user_id, { amount, reason: 'play', reference: key, idempotencyKey: key });
  const lots = async (u: TestUser) =>
    (await ledger.freeLots(u.user_id)).map((l) => ({ remaining: l.remaining, expires_at: l.expires_at }));
  const expiryRows = async (u: TestUser) =>
    await t.server
      .store()
      .query<{ reference: string; delta: number }>(
        "SELECT reference, delta FROM tc_ledger WHERE user_id = $1 AND reason = 'expiry' ORDER BY entry_id",
        [u.user_id],
      );
  /**
   * Moves the clock and lets the leader's expiry timer do what fell due. A timer that fired on the
   * way ran at its own instant and armed itself again at the next event, now due: it runs too.
   */
  const advance = async (ms: number) => {
    const expiry = t.server.services().freeTcExpiry;
    clock.advance(ms);
    await expiry.settled();
    for (let i = 0; i < 3; i += 1) {
      clock.advance(0);
      await expiry.settled();
    }
  };

  it('[R11-7] a present code credits a lot that ends at 24:00 JST of its 90th day: the TC history lists the lot and the credit with its end, the user data the next end', async () => {
    const u = await player();
    const now = clock.now().getTime();
    expectOk(await post(t, 'account/present_code', as(u, { present_code: { code: 'WELCOME500' } })));
    const ends = iso(fromJstParts(2027, 2, 23)); // 2027-02-22 24:00 JST
    // The credit's day is the first of 90, whatever its hour.
    expect(now).toBeGreaterThan(fromJstParts(2026, 11, 25));
    const history = tcHistoryResponseSchema.parse(expectOk(await post(t, 'purchase/tc_history', as(u))));
    expect(history.free_lots).toEqual([
      expect.objectContaining({ amount: 500, remaining: 500, expires_at: ends, reason: 'present_code' }),
    ]);
    expect(history.history.list[0]).toMatchObject({ reason: 'present_code', free_delta: 500, free_expires_at: ends });
    const data = userDataResponseSchema.parse(expectOk(await post(t, 'user/user_data', as(u)))).user_data;
    expect(data.tc_free_expiring).toEqual({ amount: 500, expires_at: ends });
    expect(data.tc_info).toEqual({ tc_all: 500, tc_free: 500, tc_toll: 0 });
  });

  it('[R11-7] [R11-8] the wallet\u2019s test clock (development only) moves one player\u2019s lots and daily play back: the lot ends with its expiry row; the daily play is gone', async () => {
    const u = await player();
    const other = await player();
    await free(u, 70, 'aged');
    await free(other, 70, 'not-aged');
    expect((await post(t, 'user/user_data', as(u))).status).toBe(200);
    const answer = await post(t, 'dev/wallet/age', as(u, { days: 90 }));
    expect(answer.json).toMatchObject({ error_code: 200, aged_days: 90 });
    expect(await expiryRows(u)).toEqual([expect.objectContaining({ delta: -70 })]);
    expect(await ledger.balance(u.user_id)).toMatchObject({ tc_free: 0 });
    expect(pushes.filter((p) => p.userId === u.user_id)).toEqual([]);
    expect(await t.server.services().dailyFree.view(u.user_id)).toMatchObject({ available: 0 });
    // Nobody else's wallet moved.
    expect(await ledger.balance(other.user_id)).toMatchObject({ tc_free: 70 });
    expect(await expiryRows(other)).toEqual([]);
    // Bad input: a clear Japanese refusal, nothing moved.
    const bad = await post(t, 'dev/wallet/age', as(other, { days: 0 }));
    expect(bad.status).toBe(400);
    expect(bad.json.error_info).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    expect(await ledger.balance(other.user_id)).toMatchObject({ tc_free: 70 });
  });

  it('[R11-7] a spend takes the earliest-ending free lot first, then paid TC; paid TC never expires', async () => {
    const u = await player();
    await free(u, 100, 'a');
    await advance(10 * DAY_MS);
    await free(u, 100, 'b');
    await toll(u, 100, 'paid');
    const [a, b] = (await ledger.freeLots(u.user_id)).map((l) => l.expires_at);
    expect(Date.parse(b!) - Date.parse(a!)).toBe(10 * DAY_MS);
    expect((await spend(u, 150, 'p1')).taken).toEqual({ free: 150, toll: 0 });
    expect(await lots(u)).toEqual([{ remaining: 50, expires_at: b }]);
    expect((await spend(u, 80, 'p2')).taken).toEqual({ free: 50, toll: 30 });
    expect(await lots(u)).toEqual([]);
    // A year on, the paid TC is all there; nothing expired (the lots were spent).
    await advance(400 * DAY_MS);
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 70, tc_free: 0, tc_toll: 70 });
    expect(await expiryRows(u)).toEqual([]);
  });

  it('[R11-7] a refund gives back the lots its spend took: a live lot keeps its end, a lapsed one comes back as a new lot for 7 days', async () => {
    const u = await player();
    await free(u, 100, 'early');
    await advance(20 * DAY_MS);
    await free(u, 100, 'late');
    const [early, late] = (await ledger.freeLots(u.user_id)).map((l) => Date.parse(l.expires_at!));
    expect((await spend(u, 150, 'play:1')).taken).toEqual({ free: 150, toll: 0 });
    // The early lot lapses (it was spent to 0: it expires with nothing left, so no expiry row).
    await advance(early! - clock.now().getTime() + HOUR_MS);
    expect(await expiryRows(u)).toEqual([]);
    const back = await ledger.refund(u.user_id, 'play:1', {
      reason: 'refund',
      reference: 'play:1',
      idempotencyKey: 'refund:play:1',
    });
    expect(back).toEqual({ free: 150, toll: 0, replayed: false });
    // Twice is once.
    expect(await ledger.refund(u.user_id, 'play:1', { reason: 'refund', idempotencyKey: 'refund:play:1' })).toEqual({
      free: 150,
      toll: 0,
      replayed: true,
    });
    // The refund's day is the first of 7: the new lot ends at 24:00 JST six days later.
    const today = toJstParts(clock.now().getTime());
    const sevenDays = fromJstParts(today.year, today.month, today.day + 7);
    expect(await lots(u)).toEqual([
      { remaining: 100, expires_at: iso(sevenDays) },
      { remaining: 100, expires_at: iso(late!) },
    ]);
    expect(await ledger.balance(u.user_id)).toMatchObject({ tc_free: 200 });
  });

  it('[R11-7] each lot expires exactly once: the leader\u2019s timer, a second job and spends racing at its end', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, () => player()));
    for (const [i, u] of many.entries()) {
      await free(u, 40 + i, `lot-${i}`);
      await toll(u, 10, `paid-${i}`);
    }
    const ends = Date.parse((await ledger.freeLots(many[0]!.user_id))[0]!.expires_at!);
    // Just past the end, before any job has run: a spend must not take the lapsed TC.
    clock.set(new Date(ends + 1));
    const second = new FreeTcExpiry(
      t.server.store(),
      clock,
      ledger,
      () => null,
      () => undefined,
    );
    const results = await Promise.allSettled([
      t.server.services().freeTcExpiry.runDue(),
      second.runDue(),
      ...many.map((u, i) => spend(u, 20, `race-${i}`)),
      t.server.services().freeTcExpiry.runDue(),
    ]);
    const spends = results.slice(2, 2 + many.length);
    expect(spends.every((r) => r.status === 'rejected' && isInsufficientFundsError(r.reason))).toBe(true);
    for (const [i, u] of many.entries()) {
      const rows = await expiryRows(u);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.delta).toBe(-(40 + i));
      expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 10, tc_free: 0, tc_toll: 10 });
    }
    // Restarting changes nothing: the next start finds nothing due.
    await second.runDue();
    for (const u of many) expect(await expiryRows(u)).toHaveLength(1);
  });

  it('[R11-7] the player is told 7 days and 1 day before a lot ends, once each, lots ending together in one notice', async () => {
    const u = await player();
    await free(u, 300, 'n1');
    await free(u, 200, 'n2');
    const ends = Date.parse((await ledger.freeLots(u.user_id))[0]!.expires_at!);
    await advance(ends - 7 * DAY_MS - clock.now().getTime() + 60_000);
    const mine = () => pushes.filter((p) => p.userId === u.user_id).map((p) => p.push.message);
    expect(mine()).toEqual([
      expect.stringMatching(/^無償TC 500TC の有効期限は \d{4}\/\d{2}\/\d{2} 24:00 までです（あと7日）/),
    ]);
    await t.server.services().freeTcExpiry.runDue();
    await advance(HOUR_MS);
    expect(mine()).toHaveLength(1);
    await spend(u, 100, 'n-spend');
    await advance(6 * DAY_MS);
    expect(mine()).toHaveLength(2);
    expect(mine()[1]).toMatch(/400TC .*（あと1日）/);
    await advance(DAY_MS);
    expect(mine()).toHaveLength(2);
    expect((await expiryRows(u)).map((r) => r.delta).sort()).toEqual([-200, -200].sort());
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
  });

  it('[R11-7] after any sequence of credits, spends, refunds and days passing the ledger stays exact: balance = sum of rows, lots = free TC, nothing spent after its end', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('free' as const), amount: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ kind: fc.constant('toll' as const), amount: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ kind: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 60 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), async (ops) => {
        const u = await player();
        const spends: string[] = [];
        let n = 0;
        for (const o of ops) {
          n += 1;
          if (o.kind === 'free') await free(u, o.amount, `f${n}`);
          else if (o.kind === 'toll') await toll(u, o.amount, `t${n}`);
          else if (o.kind === 'spend') {
            const done = await spend(u, o.amount, `s${n}`).catch((e: unknown) => {
              if (isInsufficientFundsError(e)) return null;
              throw e;
            });
            if (done) spends.push(`s${n}`);
          } else if (o.kind === 'refund' && spends.length > 0) {
            const key = spends[o.pick % spends.length]!;
            await ledger.refund(u.user_id, key, { reason: 'refund', idempotencyKey: `refund:${key}` });
          } else if (o.kind === 'wait') await advance(o.days * DAY_MS);
          const b = await ledger.balance(u.user_id);
          const rows = await ledger.fromRows(u.user_id);
          expect({ free: rows.tc_free, toll: rows.tc_toll }).toEqual({ free: b.tc_free, toll: b.tc_toll });
          expect(await ledger.checkLots(u.user_id)).toEqual([]);
        }
      }),
      // On the store (the pure rules get 1,000 sequences in test/domain/wallet/free-tc-lots.test.ts).
      { numRuns: kind === 'PGlite' ? 150 : 40 },
    );
  });

  it('[R11-7] the lot check finds a lot that disagrees with its wallet or its moves, or was spent after its end', async () => {
    const u = await player();
    await free(u, 50, 'audit');
    const db = t.server.store();
    await db.query('UPDATE tc_free_lots SET remaining = remaining - 1 WHERE user_id = $1', [u.user_id]);
    expect(await ledger.checkLots(u.user_id)).toEqual([
      'lots hold 49, the wallet 50',
      expect.stringMatching(/^lot \d+: remaining differs from its moves$/),
    ]);
    await db.query('UPDATE tc_free_lots SET remaining = remaining + 1 WHERE user_id = $1', [u.user_id]);
    await spend(u, 10, 'audit-spend');
    await db.query('UPDATE tc_free_lots SET expires_at = $2 WHERE user_id = $1', [u.user_id, iso(0)]);
    expect(await ledger.checkLots(u.user_id)).toEqual([expect.stringMatching(/: spent after its end$/)]);
    await db.query('UPDATE tc_free_lots SET expires_at = NULL WHERE user_id = $1', [u.user_id]);
  });
});
