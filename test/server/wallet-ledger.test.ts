import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IdempotencyConflictError,
  type InsufficientFundsError,
  isIdempotencyConflictError,
  isInsufficientFundsError,
  Ledger,
} from '../../server/wallet/ledger';
import { storeFingerprint } from '../support/store-fingerprint';
import { type TestServer } from '../support/test-server';
import { STORE_KINDS, useStoreKinds } from '../support/store-kinds';
import { createTestUser } from '../support/users';
import { systemClock } from '../../server/clock';

const stores = useStoreKinds();

describe.each(STORE_KINDS)('TC ledger on %s', (kind) => {
  let t: TestServer;
  let ledger: Ledger;
  beforeAll(async () => {
    t = await stores.startServer(kind);
    ledger = new Ledger(t.server.store(), systemClock);
  });
  afterAll(async () => t?.close());

  const rows = async (userId: number) =>
    await t.server
      .store()
      .query<{ kind: string; delta: number }>(
        'SELECT kind, delta FROM tc_ledger WHERE user_id = $1 ORDER BY entry_id',
        [userId],
      );

  it('[R1-2] credits each half; tc_all = tc_free + tc_toll; the balance equals the sum of rows', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'free', { amount: 100, reason: 'admin', idempotencyKey: 'c1' });
    const bal = await ledger.credit(u.user_id, 'toll', { amount: 250, reason: 'purchase', idempotencyKey: 'c2' });
    expect(bal).toEqual({ tc_all: 350, tc_free: 100, tc_toll: 250 });
    expect(await ledger.fromRows(u.user_id)).toEqual({ tc_free: 100, tc_toll: 250, ticket: 0 });
  });

  it('spends free TC first, then toll, splitting one debit over two rows', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'free', { amount: 30, reason: 'admin', idempotencyKey: 'f' });
    await ledger.credit(u.user_id, 'toll', { amount: 100, reason: 'purchase', idempotencyKey: 't' });
    const r = await ledger.debit(u.user_id, {
      amount: 50,
      reason: 'play',
      reference: 'station:1',
      idempotencyKey: 'play-1',
    });
    expect(r.taken).toEqual({ free: 30, toll: 20 });
    expect(r.balance).toEqual({ tc_all: 80, tc_free: 0, tc_toll: 80 });
    expect((await rows(u.user_id)).slice(-2)).toEqual([
      { kind: 'free', delta: -30 },
      { kind: 'toll', delta: -20 },
    ]);
  });

  it('an idempotency key is used once: a repeated credit or debit writes nothing and answers the first result', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'toll', { amount: 100, reason: 'purchase', idempotencyKey: 'buy-1' });
    await ledger.credit(u.user_id, 'toll', { amount: 100, reason: 'purchase', idempotencyKey: 'buy-1' });
    const first = await ledger.debit(u.user_id, { amount: 40, reason: 'play', idempotencyKey: 'p' });
    const again = await ledger.debit(u.user_id, { amount: 40, reason: 'play', idempotencyKey: 'p' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 60, tc_free: 0, tc_toll: 60 });
    expect(await rows(u.user_id)).toHaveLength(2);
  });

  it('refuses a debit whose key was used by a credit or by a debit of another amount, writing nothing', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'toll', { amount: 100, reason: 'purchase', idempotencyKey: 'settlement:9' });
    await ledger.debit(u.user_id, { amount: 10, reason: 'play', idempotencyKey: 'play:1' });
    const before = await storeFingerprint(t.server.store());
    for (const entry of [
      { amount: 10, idempotencyKey: 'settlement:9' },
      { amount: 20, idempotencyKey: 'play:1' },
    ]) {
      const error = await ledger.debit(u.user_id, { ...entry, reason: 'play' }).catch((e: unknown) => e);
      expect(isIdempotencyConflictError(error)).toBe(true);
      expect((error as IdempotencyConflictError).info).toMatch(/[\u3040-\u30ff]/);
    }
    expect(await storeFingerprint(t.server.store())).toBe(before);
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 90, tc_free: 0, tc_toll: 90 });
  });

  it('refuses a debit over the balance with InsufficientFundsError (Japanese info) and writes nothing', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'free', { amount: 10, reason: 'admin', idempotencyKey: 'x' });
    const before = await storeFingerprint(t.server.store());
    const error = await ledger
      .debit(u.user_id, { amount: 11, reason: 'play', idempotencyKey: 'too-much' })
      .catch((e: unknown) => e);
    expect(isInsufficientFundsError(error)).toBe(true);
    expect((error as InsufficientFundsError).code).toBe(402);
    expect((error as InsufficientFundsError).info).toMatch(/TCが不足しています/);
    expect(await storeFingerprint(t.server.store())).toBe(before);
    await expect(ledger.debit(u.user_id, { amount: 0, reason: 'play', idempotencyKey: 'zero' })).rejects.toThrow(
      /amount/,
    );
    await expect(ledger.debit(u.user_id, { amount: 1.5, reason: 'play', idempotencyKey: 'frac' })).rejects.toThrow(
      /amount/,
    );
  });

  // PGlite runs one transaction at a time, so this proves the check-and-write is inside one
  // transaction (no read-then-write race across awaits in our code); the row lock (FOR UPDATE) that
  // makes it hold on a multi-connection PostgreSQL is not exercised here.
  it('200 concurrent debits never go below zero and never lose a row', async () => {
    const u = await createTestUser(t);
    await ledger.credit(u.user_id, 'free', { amount: 151, reason: 'admin', idempotencyKey: 'seed-free' });
    await ledger.credit(u.user_id, 'toll', { amount: 100, reason: 'purchase', idempotencyKey: 'seed-toll' });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        ledger.debit(u.user_id, { amount: 2, reason: 'play', idempotencyKey: `race-${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    // 251 TC buys exactly 125 plays of 2; one debit splits 1 free + 1 toll; 1 toll TC remains.
    expect(ok).toHaveLength(125);
    expect(refused).toHaveLength(75);
    expect(refused.every((r) => isInsufficientFundsError((r as PromiseRejectedResult).reason))).toBe(true);
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 1, tc_free: 0, tc_toll: 1 });
    expect(await ledger.fromRows(u.user_id)).toEqual({ tc_free: 0, tc_toll: 1, ticket: 0 });
    expect(await rows(u.user_id)).toHaveLength(2 + 125 + 1);
    const [neg] = await t.server
      .store()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM tc_ledger WHERE user_id = $1 AND balance_after < 0', [
        u.user_id,
      ]);
    expect(neg!.n).toBe(0);
  });

  it('tickets are a ledger too, counted apart from TC', async () => {
    const u = await createTestUser(t);
    expect(await ledger.creditTickets(u.user_id, { amount: 3, reason: 'present_code', idempotencyKey: 'tk' })).toBe(3);
    expect(await ledger.debitTickets(u.user_id, { amount: 2, reason: 'play', idempotencyKey: 'tk-use' })).toBe(1);
    await expect(
      ledger.debitTickets(u.user_id, { amount: 2, reason: 'play', idempotencyKey: 'tk-use2' }),
    ).rejects.toSatisfy(isInsufficientFundsError);
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    expect((await ledger.fromRows(u.user_id)).ticket).toBe(1);
  });
});
