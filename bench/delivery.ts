/**
 * Prizes out, measured against the real server on loopback (HTTP, the embedded store):
 *
 *   npm run bench:delivery [-- players=200 same=100 lapsing=1000]
 *
 * Smallest (npm test's smoke run): players=2 same=2 lapsing=2 (lapsing: an even number, half of each kind).
 *
 * 1. `players` players request delivery at once (each: two crane prizes, their own address, TC):
 *    latency p50/p95 and requests per second; each must be charged 16,000 TC exactly once.
 * 2. `same` requests at once for the same prizes of one player (half under one request id): one
 *    request may pass, charged once.
 * 3. The storage deadline over `lapsing` players whose prizes all lapse at once (half with an
 *    address and TC: requested; half without: expired): the run's time and prizes per second, and
 *    every prize requested xor expired.
 */
import { performance } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { createTestUser, type TestUser } from '../test/support/users';
import type { TestServer } from '../test/support/test-server';
import { benchFailed, DELIVERY_ADDRESS, inProcessConfig, refusalsOf, setUp } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const n = (name: string, fallback: number) => Number(args[name] ?? fallback);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const address = DELIVERY_ADDRESS;

async function main(): Promise<void> {
  const config = inProcessConfig();
  const server = createOnkureServer(config, { logger: false, rateLimits: 'unlimited' });
  await server.ready;
  const origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const t = { server } as unknown as TestServer;
  const s = server.services();
  const db = server.store();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error_code?: number } };
  };
  const as = (u: TestUser, extra: object) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
  /** This week's free-delivery ticket granted and used: every request here pays. */
  const noTicket = (u: TestUser) =>
    db.query(
      "INSERT INTO delivery_tickets (user_id, week_start, granted_at, used_at) VALUES ($1, date_trunc('week', now() + interval '9 hours') - interval '9 hours', now(), now())",
      [u.user_id],
    );
  /** A player with `freeTc`, an address (or none), no free-delivery ticket and two crane prizes. */
  const aPlayer = async (freeTc: number, withAddress: boolean) => {
    const u = await createTestUser(t, {}, freeTc > 0 ? { freeTc } : {});
    await noTicket(u);
    const answer = withAddress
      ? await setUp(
          post('/api/account/address/register', as(u, { address })),
          `address/register of player ${u.user_id}`,
        )
      : null;
    const addressId = (answer?.address as { id: number } | undefined)?.id ?? 0;
    const ids = [
      await s.prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: 'ねこまる クッション' }),
      await s.prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: 'ぴよぴよ マスコット' }),
    ];
    return { u, addressId, ids };
  };
  let ok = true;
  try {
    // 1. Many players at once.
    const players = await Promise.all(Array.from({ length: n('players', 200) }, () => aPlayer(20_000, true)));
    const times: number[] = [];
    let started = performance.now();
    const answers = await Promise.all(
      players.map(async (p, i) => {
        const t0 = performance.now();
        const a = await post(
          '/api/delivery/request',
          as(p.u, {
            delivery_request: { request_id: `bench-${i}-req`, play_history_ids: p.ids, address_id: p.addressId },
          }),
        );
        times.push(performance.now() - t0);
        return a;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const balances = await Promise.all(players.map((p) => s.ledger.balance(p.u.user_id)));
    console.log(`1. ${players.length} players request delivery of two crane prizes at once`);
    console.table({
      'p50 ms': Math.round(pct(times, 0.5)),
      'p95 ms': Math.round(pct(times, 0.95)),
      'requests/s': Math.round(players.length / seconds),
      'answered 200': answers.filter((a) => a.status === 200).length,
      'charged 16,000 once': balances.filter((b) => b.tc_all === 4_000).length,
    });
    console.log(`   refused as (HTTP status, error_code): ${refusalsOf(answers)}`);
    ok &&= answers.every((a) => a.status === 200) && balances.every((b) => b.tc_all === 4_000);

    // 2. The same prizes, many times at once.
    const one = await aPlayer(100_000, true);
    const many = await Promise.all(
      Array.from({ length: n('same', 100) }, (_, i) =>
        post(
          '/api/delivery/request',
          as(one.u, {
            delivery_request: {
              request_id: i % 2 === 0 ? 'bench-same-id' : `bench-other-${i}`,
              play_history_ids: one.ids,
              address_id: one.addressId,
            },
          }),
        ),
      ),
    );
    const ids = new Set(
      many.filter((a) => a.status === 200).map((a) => (a.json.delivery as { delivery_id: number }).delivery_id),
    );
    const left = (await s.ledger.balance(one.u.user_id)).tc_all;
    console.log(`2. ${many.length} requests at once for the same two prizes`);
    console.table({ 'requests made': ids.size, 'TC left': left, 'must be': 84_000 });
    console.log(`   refused as (HTTP status, error_code): ${refusalsOf(many)}`);
    ok &&= ids.size === 1 && left === 84_000;

    // 3. The storage deadline over many lapsing players.
    const lapsing = await Promise.all(
      Array.from({ length: n('lapsing', 1000) }, (_, i) => aPlayer(i % 2 === 0 ? 20_000 : 0, i % 2 === 0)),
    );
    const all = lapsing.flatMap((p) => p.ids);
    await db.query(
      "UPDATE won_prizes SET keep_until = now() - interval '1 minute' WHERE play_history_id = ANY($1::int[])",
      [all],
    );
    started = performance.now();
    const handled = await s.prizeStorage.runDue();
    const runSeconds = (performance.now() - started) / 1000;
    const [state] = await db.query<{ requested: number; expired: number; both: number }>(
      `SELECT count(*) FILTER (WHERE i.play_history_id IS NOT NULL)::int AS requested,
              count(*) FILTER (WHERE p.expired_at IS NOT NULL)::int AS expired,
              count(*) FILTER (WHERE i.play_history_id IS NOT NULL AND p.expired_at IS NOT NULL)::int AS both
         FROM won_prizes p LEFT JOIN delivery_request_items i ON i.play_history_id = p.play_history_id
        WHERE p.play_history_id = ANY($1::int[])`,
      [all],
    );
    console.log(`3. the storage deadline over ${lapsing.length} players (${all.length} prizes) lapsing at once`);
    console.table({
      'players handled': handled,
      'run s': Number(runSeconds.toFixed(2)),
      'prizes/s': Math.round(all.length / runSeconds),
      requested: state!.requested,
      expired: state!.expired,
      'both (must be 0)': state!.both,
    });
    ok &&= state!.requested === all.length / 2 && state!.expired === all.length / 2 && state!.both === 0;
  } finally {
    await server.close();
  }
  console.log(ok ? 'OK' : 'FAILED');
  if (!ok) process.exitCode = 1;
}

main().catch(benchFailed);
