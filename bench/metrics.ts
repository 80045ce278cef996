/**
 * What the metrics cost in production (issue 46; docs/operations.md "Metrics"):
 *
 * 1. The hot path, in this process: what one answer's counting and timing costs (the onResponse
 *    hook's counter and histogram, labelled by method, route template and status over 40 routes),
 *    one store statement's timer, one push's counter and latency histogram: nanoseconds each.
 * 2. A real instance (server/main.ts as a process of its own, METRICS_TOKEN set, the seeded
 *    catalogue): its CPU per top-page answer under load (/proc), then per scrape of /metrics after
 *    that load (the series every station's gauges and every seen route make), the scrape's size and
 *    time; what the hot path and a scrape every 15 s come to beside the answers' own work.
 *
 *   npm run bench:metrics [-- observations=200000 requests=3000 concurrency=8 scrapes=100]
 *
 * Smallest (npm test's smoke run): observations=2000 requests=40 concurrency=2 scrapes=3.
 */
import { performance } from 'node:perf_hooks';
import { ServerMetrics } from '../server/metrics/server-metrics';
import { freePort, ServerProcess } from '../test/support/server-process';
import { benchFailed, cpuSeconds, pct, setUp } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const known = ['observations', 'requests', 'concurrency', 'scrapes'];
for (const key of Object.keys(args))
  if (!known.includes(key)) throw new Error(`unknown argument ${key} (known: ${known.join(', ')})`);
const observations = Number(args.observations ?? 200_000);
const requests = Number(args.requests ?? 3_000);
const concurrency = Number(args.concurrency ?? 8);
const scrapes = Number(args.scrapes ?? 100);
const TOKEN = 'bench-metrics-token-0123456789abcdef';
const SCRAPE_EVERY_S = 15;

/** ns per call of `work(i)` over `n` calls, after a warm-up of a tenth. */
function nsPer(n: number, work: (i: number) => void): number {
  for (let i = 0; i < Math.max(100, n / 10); i += 1) work(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) work(i);
  return Number(process.hrtime.bigint() - started) / n;
}

function hotPath() {
  const metrics = new ServerMetrics('bench');
  const routes = Array.from({ length: 40 }, (_, i) => `/api/v2/route-${i}`);
  const statuses = ['200', '200', '200', '200', '400', '404'];
  const answer = nsPer(observations, (i) => {
    const route = routes[i % routes.length]!;
    metrics.httpRequests.inc({ method: 'POST', route, status: statuses[i % statuses.length]! });
    metrics.httpDuration.observe({ method: 'POST', route }, ((i % 97) + 1) / 1000);
  });
  const statement = nsPer(observations, (i) => {
    const end = metrics.storeDuration.startTimer({ kind: i % 5 === 0 ? 'transaction' : 'query' });
    end({ outcome: 'ok' });
  });
  const push = nsPer(observations, (i) => {
    metrics.pushes.inc({ event: i % 3 === 0 ? 'update' : 'play' });
    metrics.pushLatency.observe({ hop: 'local' }, ((i % 13) + 1) / 10_000);
  });
  return { answer, statement, push };
}

async function main(): Promise<void> {
  const hot = hotPath();
  console.log(
    `machine: ${process.platform}, node ${process.versions.node}\n\n1. the hot path, ${observations} calls each (this process)`,
  );
  console.log(
    `  an answer counted and timed (counter + histogram, 40 routes)   ${hot.answer.toFixed(0).padStart(6)} ns`,
  );
  console.log(
    `  a store statement timed (histogram timer)                      ${hot.statement.toFixed(0).padStart(6)} ns`,
  );
  console.log(`  a push counted and its latency observed                        ${hot.push.toFixed(0).padStart(6)} ns`);

  const server = new ServerProcess(await freePort(), ':memory:', {
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: 'error',
  });
  try {
    await server.start();
    const pid = server.pid!;
    const body = JSON.stringify({ shop_id: 1, is_top_page: 1 });
    const topPage = () =>
      fetch(`${server.origin}/api/contents/top_page_prize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body,
      });
    await setUp(
      topPage().then(async (r) => ({ status: r.status, json: (await r.json()) as { error_code?: number } })),
      'the top page',
    );
    // Warm-up (JIT, the rendered catalogue's cache), then the measured load.
    const load = async (count: number) => {
      let next = 0;
      let failed = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            next += 1;
            const res = await topPage();
            await res.arrayBuffer();
            if (!res.ok) failed += 1;
          }
        }),
      );
      return failed;
    };
    await load(Math.min(200, requests));
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    const failed = await load(requests);
    const seconds = (performance.now() - t0) / 1000;
    const perAnswerUs = ((cpuSeconds(pid) - cpu0) / requests) * 1e6;
    if (failed > 0) throw new Error(`${failed} top-page answers were not 200`);

    const scrape = async () => {
      const res = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`set-up refused: /metrics answered ${res.status} ${text.slice(0, 200)}`);
      return text;
    };
    const first = await scrape();
    const series = first.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
    const times: number[] = [];
    const cpu1 = cpuSeconds(pid);
    for (let i = 0; i < scrapes; i += 1) {
      const started = performance.now();
      await scrape();
      times.push(performance.now() - started);
    }
    const perScrapeMs = ((cpuSeconds(pid) - cpu1) / scrapes) * 1e3;
    const cpuTicksNote = '(/proc counts CPU in 10 ms ticks: small runs round)';
    console.log(`\n2. an instance (server/main.ts, its own process, the seeded catalogue) ${cpuTicksNote}`);
    console.log(
      `  the top page, ${requests} answers at concurrency ${concurrency}: ${(requests / seconds).toFixed(0)} answers/s, the instance's CPU ${perAnswerUs.toFixed(0)} µs per answer`,
    );
    console.log(
      `    of which counting and timing it: ${(hot.answer / 1000).toFixed(2)} µs (${((hot.answer / 1000 / perAnswerUs) * 100).toFixed(2)} %)`,
    );
    console.log(
      `  a scrape of /metrics: ${Buffer.byteLength(first)} bytes, ${series} series; p50 ${pct(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${scrapes}; the instance's CPU ${perScrapeMs.toFixed(1)} ms per scrape`,
    );
    console.log(
      `    one scrape every ${SCRAPE_EVERY_S} s: ${((perScrapeMs / 1000 / SCRAPE_EVERY_S) * 100).toFixed(3)} % of a core, as much CPU as ${(perScrapeMs / (perAnswerUs / 1000) / SCRAPE_EVERY_S).toFixed(2)} top-page answers a second`,
    );
  } finally {
    await server.kill('SIGTERM');
  }
}

main().catch(benchFailed);
