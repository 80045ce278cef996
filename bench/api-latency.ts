/**
 * API latency benchmark: starts the reference server (in-memory store, seeded), then measures
 * POST /contents/top_page_prize over real HTTP on loopback — sequentially and with concurrent
 * clients — and prints latency percentiles, throughput and answer size.
 *
 *   npx tsx bench/api-latency.ts [requests=500] [concurrency=16]
 *
 * Smallest (npm test's smoke run): 20 2.
 */
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { readServerConfig } from '../server/config';
import { checkSetUp, failWithRefusals } from './support';

failWithRefusals();

const total = Number(process.argv[2] ?? 500);
const concurrency = Number(process.argv[3] ?? 16);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(url: string, body: string, count: number, parallel: number) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        const t0 = performance.now();
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times.at(-1)!,
    rps: count / elapsed,
  };
}

const config = readServerConfig({ PORT: '0', DATA_DIR: ':memory:', STATIC_DIR: '', LOG_LEVEL: 'silent' });
const server = createOnkureServer(config, { logger: false });
await server.ready;
const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address}/api/contents/top_page_prize`;
const body = JSON.stringify({ shop_id: 1, is_top_page: 1 });

const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const sample = await first.text();
// The answer measured: a refusal here would time refusals.
checkSetUp('the top page (POST /contents/top_page_prize)', first.status, JSON.parse(sample) as object);
await run(url, body, 50, 4); // warm-up
const sequential = await run(url, body, Math.min(total, 200), 1);
const parallel = await run(url, body, total, concurrency);
await server.close();

const fmt = (n: number) => n.toFixed(1).padStart(7);
console.log(
  `POST /contents/top_page_prize — answer ${Buffer.byteLength(sample)} bytes (${gzipSync(sample).length} gzipped)`,
);
console.log(
  `  sequential  p50 ${fmt(sequential.p50)} ms  p95 ${fmt(sequential.p95)} ms  p99 ${fmt(sequential.p99)} ms  max ${fmt(sequential.max)} ms  ${sequential.rps.toFixed(0)} req/s`,
);
console.log(
  `  ${String(concurrency).padStart(2)} clients  p50 ${fmt(parallel.p50)} ms  p95 ${fmt(parallel.p95)} ms  p99 ${fmt(parallel.p99)} ms  max ${fmt(parallel.max)} ms  ${parallel.rps.toFixed(0)} req/s`,
);
