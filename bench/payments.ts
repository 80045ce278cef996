/**
 * Money in, measured against the real server on loopback (HTTP, the embedded store, the simulated
 * provider's hosted page and its signed callback):
 *
 *   npm run bench:payments [-- players=100 replays=4 limit=50]
 *
 * Smallest (npm test's smoke run): players=2 replays=1 limit=11 (the limit lets 10 pass: 11 shows a refusal).
 *
 * 1. `players` purchases at once, each: purchase/tc, then the provider's card form (whose callback
 *    completes the settlement before the page answers): latency p50/p95 and purchases per second.
 * 2. Every settlement's paid callback sent again `replays` times at once (validly signed): callbacks
 *    per second, and the credits must not change (each settlement credited exactly once).
 * 3. `limit` purchases at once by one player under a 10,000 yen monthly limit (1,000 yen each):
 *    exactly 10 may pass.
 */
import { performance } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { signPayload, SIGNATURE_HEADER } from '../server/payment/signature';
import { Ledger } from '../server/wallet/ledger';
import { createTestUser, type TestUser } from '../test/support/users';
import type { TestServer } from '../test/support/test-server';
import { CARDS, cardFields } from '../test/support/payments';
import { benchFailed, inProcessConfig, refusalsOf, setUp, SetUpRefused } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const n = (name: string, fallback: number) => Number(args[name] ?? fallback);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function main(): Promise<void> {
  const config = inProcessConfig();
  const server = createOnkureServer(config, { logger: false, rateLimits: 'unlimited' });
  await server.ready;
  const origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const t = { server } as unknown as TestServer;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, never> & { error_code?: number } };
  };
  const as = (u: TestUser, extra: object) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
  let ok = true;
  try {
    const players = await Promise.all(
      Array.from({ length: n('players', 100) }, () => createTestUser(t, { birth: '1990-01-01' })),
    );
    // 1. Purchases through the provider's page.
    const times: number[] = [];
    let started = performance.now();
    const settlements = await Promise.all(
      players.map(async (u) => {
        const t0 = performance.now();
        // Each purchase is timed, but it is a purchase only if it opened: a refusal stops the bench.
        const opened = await setUp(
          post('/api/purchase/tc', as(u, { purchase: { product_id: 2, pay_method: 'credit_card' } })),
          `purchase/tc of player ${u.user_id}`,
        );
        const s = opened.settlement as unknown as { product_settlement_id: string; payment_url: string };
        const page = await fetch(`${origin}${s.payment_url}/card`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(cardFields(CARDS.ok)),
          redirect: 'manual',
        });
        if (page.status !== 303)
          throw new SetUpRefused(
            `set-up refused: the provider's card form answered ${page.status} ${await page.text()}`,
          );
        times.push(performance.now() - t0);
        return s;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const ledger = new Ledger(server.store(), {
      now: () => new Date(),
      setTimeout: () => ({ cancel: () => undefined }),
    });
    const balances = async () => Promise.all(players.map((u) => ledger.balance(u.user_id).then((b) => b.tc_all)));
    const after = await balances();
    console.log(`1. ${players.length} purchases at once through the provider's page`);
    console.table({
      'p50 ms': Math.round(pct(times, 0.5)),
      'p95 ms': Math.round(pct(times, 0.95)),
      'purchases/s': Math.round(players.length / seconds),
      'credited (1,050 TC each)': after.filter((b) => b === 1050).length,
    });
    ok &&= after.every((b) => b === 1050);

    // 2. The paid callbacks again, `replays` times each, at once.
    const rows = await server
      .store()
      .query<{ product_settlement_id: string; provider_payment_id: string }>(
        'SELECT product_settlement_id, provider_payment_id FROM product_settlements WHERE product_settlement_id = ANY($1::text[])',
        [settlements.map((s) => s.product_settlement_id)],
      );
    const bodies = rows.map((r) =>
      JSON.stringify({
        event_id: `bench-${r.product_settlement_id}`,
        payment_id: r.provider_payment_id,
        merchant_reference: r.product_settlement_id,
        outcome: 'paid',
        amount: 1000,
        failure_code: null,
        occurred_at: new Date().toISOString(),
      }),
    );
    const replays = n('replays', 4);
    started = performance.now();
    const answers = await Promise.all(
      bodies.flatMap((body) =>
        Array.from({ length: replays }, () =>
          post('/api/purchase/provider_callback', body, {
            [SIGNATURE_HEADER]: signPayload(config.payment.providerSecret, body, Date.now()),
          }),
        ),
      ),
    );
    const callbackSeconds = (performance.now() - started) / 1000;
    const again = await balances();
    console.log(`2. ${answers.length} repeated callbacks at once`);
    console.table({
      'callbacks/s': Math.round(answers.length / callbackSeconds),
      'answered 200': answers.filter((a) => a.status === 200).length,
      'balances changed': again.filter((b, i) => b !== after[i]).length,
    });
    console.log(`   refused as (HTTP status, error_code): ${refusalsOf(answers)}`);
    ok &&= again.every((b, i) => b === after[i]) && answers.every((a) => a.status === 200);

    // 3. A spending limit under concurrent purchases.
    const one = players[0]!;
    await setUp(
      post('/api/purchase/spending_limit/set', as(one, { spending_limit: { limit_yen: 11_000 } })),
      `spending_limit/set of player ${one.user_id}`,
    );
    const many = await Promise.all(
      Array.from({ length: n('limit', 50) }, () =>
        post('/api/purchase/tc', as(one, { purchase: { product_id: 2, pay_method: 'credit_card' } })),
      ),
    );
    const passed = many.filter((a) => a.json.error_code === 200).length;
    console.log(`3. ${many.length} purchases at once under a limit of 11,000 yen with 1,000 yen bought`);
    console.table({ passed, refused: many.length - passed, 'must pass': 10 });
    console.log(`   refused as (HTTP status, error_code): ${refusalsOf(many)}`);
    ok &&= passed === 10;
  } finally {
    await server.close();
  }
  console.log(ok ? 'OK' : 'FAILED');
  if (!ok) process.exitCode = 1;
}

main().catch(benchFailed);
