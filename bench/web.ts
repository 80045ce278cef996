/**
 * Web performance benchmark (`npm run bench:web`), issue 11. Builds the app for production, starts
 * the reference server as its own process (its own store, jpg stills), and prints:
 *
 * 1. Lighthouse (mobile preset, its default simulated throttling, Debian's Chromium), three runs
 *    each on the top page, a character page, a play screen and the kuji page: the median
 *    performance score, LCP and CLS beside their budgets (bench/web-budgets.json), and TBT, which must
 *    be within its budget in every run (each run's printed).
 * 2. The initial JavaScript of each page, gzipped: the entry, its preloaded chunks and the page's
 *    own chunk, read from the built files (what a first visit downloads before the page is live).
 * 3. Server throughput at 16 concurrent clients for 8 s each: the server-rendered top page
 *    against the JSON top-page call (requests per second, p50 and p99 latency).
 *
 * It exits 1 when a budget is missed (the numbers are still printed).
 *
 *   npx tsx bench/web.ts [runs=3] [--only=<page>[,<page>…]] [--detail] [--load-ms=8000] [--reuse-build] [--budgets=report]
 *
 * --load-ms: each throughput round's length; --reuse-build: no build when dist/client holds one
 * already (whatever built it).
 * Smallest: 1 --only=top --reuse-build --load-ms=500 (≈ 38 s). npm test runs it after its build on
 * the top page and the play screen (the heaviest page's initial JavaScript) with --budgets=report
 * (test/serial/built-bench-smoke.test.ts).
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from '@playwright/test';
import { failWithRefusals, freePort, setUp } from './support';

failWithRefusals();

const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 3);
/** `--detail`: after each page's first run, print where its time went (LCP phases, long tasks, scripts). */
const detail = process.argv.includes('--detail');
/** `--only=<page name>[,<page name>…]`: measure these pages (e.g. `--only=top` or `--only=top,play screen`). */
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const CLIENTS = 16;
const LOAD_MS = Number(process.argv.find((a) => a.startsWith('--load-ms='))?.slice('--load-ms='.length) ?? 8_000);
const reuseBuild = process.argv.includes('--reuse-build');
/**
 * `--budgets=report`: a missed Lighthouse budget (score, LCP, CLS, TBT) is printed (MISSED) but does
 * not fail the run; the initial JavaScript's budget, a property of the build, and any failed answer
 * of the throughput rounds still do. npm test's smoke run uses it: one Lighthouse run of one page is
 * not a measurement of the budgets (three runs of every page in a plain `npm run bench:web` are).
 */
const budgetsReported = process.argv.includes('--budgets=report');
/** The budgets live in a file of their own (bench/web-budgets.json), so a change to them is a reviewed change. */
const BUDGET = (
  JSON.parse(readFileSync(new URL('./web-budgets.json', import.meta.url), 'utf8')) as {
    budgets: { score: number; lcpMs: number; cls: number; tbtMs: number; initialJsKb: number };
  }
).budgets;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// ---- build and start -------------------------------------------------------------------------

if (reuseBuild && existsSync('dist/client/index.html')) console.log('reusing the app built in dist/client');
else {
  console.log('building the app (production)…');
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-web-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR: 'dist/client',
    LOG_LEVEL: 'warn',
    ONKURE_FEED: 'jpg',
    ONKURE_DEV_CALLS: '0',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);
for (let i = 0; i < 600; i += 1) {
  if (
    await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await sleep(100);
}

/** The pages' set-up reads (a character, a station): a refusal stops the bench with it. */
const api = async <T extends object>(path: string, body: object): Promise<T> =>
  setUp<T>(
    fetch(`${origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    path,
  );
const characters = (await api<{ character: { list: { slug: string }[] } }>('contents/character', {})).character;
const top = await api<{ sale_list: { list: { station_id: number }[] }[] }>('contents/top_page_prize', {
  shop_id: 1,
  is_top_page: 1,
});
const pages = [
  { name: 'top', path: '/' },
  { name: 'character', path: `/${characters.list[0]!.slug}` },
  { name: 'play screen', path: `/game/${top.sale_list[0]!.list[0]!.station_id}` },
  { name: 'kuji', path: '/kuji' },
];

// ---- each page goes live ----------------------------------------------------------------------

// A page that never hydrates scores well (no script work at all), so the numbers below would say
// nothing: each page must reach <html data-ready> (src/main/browser.tsx) in a plain browser first.
{
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    for (const page of pages.filter((p) => !only || only.includes(p.name))) {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`${origin}${page.path}`);
      const live = await tab
        .waitForSelector('html[data-ready]', { state: 'attached', timeout: 30_000 })
        .then(() => true)
        .catch(() => false);
      if (!live) {
        console.error(`${page.name} (${page.path}) never went live (no html[data-ready]): ${errors.join('; ')}`);
        process.exit(1);
      }
      await tab.close();
    }
  } finally {
    await browser.close();
  }
}

// ---- initial JavaScript from the built files -------------------------------------------------

const assets = join('dist', 'client');
const shell = readFileSync(join(assets, 'index.html'), 'utf8');
const gz = (file: string) => gzipSync(readFileSync(join(assets, file)), { level: 9 }).length;
/** The entry and the chunks the page preloads: every page downloads these first. */
const shellScripts = [...shell.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
/** One of Lighthouse's network records (the `network-requests` audit); times in ms from the document's request. */
interface NetworkRequest {
  readonly url: string;
  readonly resourceType?: string;
  readonly rendererStartTime?: number;
}
/**
 * A page's initial scripts: the shell's, and those Chromium started to fetch before the page was
 * live (its load event or the app's ready mark, whichever came later; Lighthouse's network records).
 */
function initialJsKb(requests: NetworkRequest[], loadMs: number): number {
  const files = new Set(shellScripts);
  for (const r of requests) {
    const path = new URL(r.url).pathname.slice(1);
    // Lighthouse times a request from the first one (the document's), in ms; a request without a
    // start time is counted.
    if (r.resourceType === 'Script' && path.startsWith('assets/') && (r.rendererStartTime ?? 0) <= loadMs)
      files.add(path);
  }
  return [...files].reduce((sum, file) => sum + gz(file), 0) / 1024;
}

// ---- Lighthouse ------------------------------------------------------------------------------

interface PageResult {
  score: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  initialJsKb: number;
  scriptTransferKb: number;
}
const results = new Map<string, PageResult[]>();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
/**
 * One Lighthouse run of `path`. A run whose trace Lighthouse could not record (a runtime error such
 * as NO_NAVSTART, which asks to "run Lighthouse again") measured nothing: it is run again, at most
 * twice, and said so. A recorded run is never repeated, whatever it measured.
 */
async function recordedRun(path: string) {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await lighthouse(`${origin}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = answer!.lhr;
    if (!lhr.runtimeError) return lhr;
    const error = `Lighthouse on ${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt === 3) throw new Error(error);
    console.warn(`  ${error} — not recorded; running it again`);
  }
}
try {
  for (const page of pages.filter((p) => !only || only.includes(p.name))) {
    for (let run = 0; run < runs; run += 1) {
      const lhr = await recordedRun(page.path);
      const audit = (id: string) => lhr.audits[id]!;
      for (const id of [
        'metrics',
        'network-requests',
        'resource-summary',
        'largest-contentful-paint',
        'user-timings',
      ]) {
        if (audit(id).errorMessage) console.warn(`  ${page.name}: ${id}: ${audit(id).errorMessage}`);
      }
      if (detail && run === 0) printDetail(page.name, audit);
      const requests =
        (audit('network-requests').details as unknown as { items?: NetworkRequest[] } | undefined)?.items ?? [];
      const loadMs =
        (audit('metrics').details as unknown as { items?: { observedLoad?: number }[] } | undefined)?.items?.[0]
          ?.observedLoad ?? Number.POSITIVE_INFINITY;
      // The page is live when the app says so (src/main/browser.tsx marks `onkure:ready`).
      const readyMs =
        (
          audit('user-timings').details as unknown as { items?: { name: string; startTime: number }[] } | undefined
        )?.items?.find((item) => item.name === 'onkure:ready')?.startTime ?? Number.POSITIVE_INFINITY;
      const summary =
        (
          audit('resource-summary').details as unknown as
            { items?: { resourceType: string; transferSize: number }[] } | undefined
        )?.items ?? [];
      results.set(page.name, [
        ...(results.get(page.name) ?? []),
        {
          score: Math.round((lhr.categories.performance!.score ?? 0) * 100),
          lcpMs: audit('largest-contentful-paint').numericValue ?? NaN,
          cls: audit('cumulative-layout-shift').numericValue ?? NaN,
          tbtMs: audit('total-blocking-time').numericValue ?? NaN,
          initialJsKb: initialJsKb(requests, Math.max(loadMs, readyMs)),
          scriptTransferKb: (summary.find((i) => i.resourceType === 'script')?.transferSize ?? 0) / 1024,
        },
      ]);
    }
  }
} finally {
  await chrome.kill();
}

/** Where a page's time went, from one Lighthouse run's audits (`--detail`). */
function printDetail(name: string, audit: (id: string) => { details?: unknown; displayValue?: string }) {
  type Table = { items?: Record<string, unknown>[] };
  const items = (id: string) => ((audit(id).details as Table | undefined)?.items ?? []) as Record<string, unknown>[];
  console.log(`\n— ${name}: where the time went (first run)`);
  const lcp = items('largest-contentful-paint-element');
  for (const table of lcp) {
    for (const row of ((table as Table).items ?? []) as Record<string, unknown>[]) {
      const node = row.node as { snippet?: string } | undefined;
      if (node?.snippet) console.log(`  LCP element: ${node.snippet.slice(0, 160)}`);
      if (typeof row.phase === 'string') console.log(`  LCP ${row.phase}: ${Number(row.timing).toFixed(0)} ms`);
    }
  }
  for (const row of items('long-tasks').slice(0, 12))
    console.log(
      `  long task ${Number(row.duration).toFixed(0)} ms at ${Number(row.startTime).toFixed(0)} ms: ${String(row.url).slice(-60)}`,
    );
  for (const row of items('bootup-time').slice(0, 8))
    console.log(
      `  script ${String(row.url).slice(-50)}: total ${Number(row.total).toFixed(0)} ms, evaluation ${Number(row.scripting).toFixed(0)} ms, parse ${Number(row.scriptParseCompile).toFixed(0)} ms`,
    );
  for (const row of items('mainthread-work-breakdown'))
    console.log(`  main thread ${String(row.groupLabel)}: ${Number(row.duration).toFixed(0)} ms`);
  for (const row of items('network-requests').filter((r) => Number(r.transferSize) > 2000))
    console.log(
      `  request ${String(row.url).slice(-60)} ${(Number(row.transferSize) / 1024).toFixed(1)} KB ${String(row.priority)} ${Number(row.networkRequestTime).toFixed(0)}→${Number(row.networkEndTime).toFixed(0)} ms`,
    );
}

let missed = 0;
/** Budgets of what is built, not measured on a machine (the initial JavaScript): missed fails even with --budgets=report. */
let missedBuilt = 0;
const check = (ok: boolean, built = false) => {
  if (!ok) {
    missed += 1;
    if (built) missedBuilt += 1;
  }
  return ok ? 'ok' : 'MISSED';
};
/** Throughput answers that were not 200: a failure whatever the budgets mode. */
let failedAnswers = 0;
console.log(`\nLighthouse, mobile preset (simulated throttling), median of ${runs} runs`);
console.log('page          score   LCP ms   CLS     TBT ms   initial JS (gz KB)   scripts as served (KB)');
for (const page of pages) {
  const r = results.get(page.name);
  if (!r) continue;
  const m = (key: keyof PageResult) => median(r.map((x) => x[key]));
  // TBT is held in every run, not only the median (issue 46: ≤ 100 ms on every page in 3 runs in a row).
  const tbts = r.map((x) => x.tbtMs);
  console.log(
    `${page.name.padEnd(12)}  ${String(m('score')).padStart(5)}  ${m('lcpMs').toFixed(0).padStart(7)}  ${m('cls').toFixed(3).padStart(6)}  ${m('tbtMs').toFixed(0).padStart(7)}  ${m('initialJsKb').toFixed(1).padStart(19)}  ${m('scriptTransferKb').toFixed(1).padStart(22)}`,
  );
  console.log(
    `  budgets: score ≥ ${BUDGET.score} ${check(m('score') >= BUDGET.score)}, LCP ≤ ${BUDGET.lcpMs} ${check(m('lcpMs') <= BUDGET.lcpMs)}, CLS ≤ ${BUDGET.cls} ${check(m('cls') <= BUDGET.cls)}, TBT ≤ ${BUDGET.tbtMs} in every run ${check(Math.max(...tbts) <= BUDGET.tbtMs)} (${tbts.map((t) => t.toFixed(0)).join(' / ')} ms), initial JS ≤ ${BUDGET.initialJsKb} KB ${check(m('initialJsKb') <= BUDGET.initialJsKb, true)}`,
  );
}

// ---- server throughput ----------------------------------------------------------------------

/** `CLIENTS` loops sending `request` back to back for LOAD_MS: requests per second, p50 and p99. */
async function load(
  request: () => Promise<Response>,
): Promise<{ rps: number; p50: number; p99: number; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + LOAD_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const res = await request().catch(() => null);
        if (!res?.ok) failed += 1;
        await res?.arrayBuffer();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { rps: latencies.length / (LOAD_MS / 1000), p50: pct(latencies, 50), p99: pct(latencies, 99), failed };
}
const headers = { 'accept-encoding': 'br, gzip' };
console.log(`\nServer throughput, ${CLIENTS} concurrent clients, ${LOAD_MS / 1000} s each (brotli accepted)`);
for (const [name, request] of [
  ['server-rendered top page (GET /)', () => fetch(`${origin}/`, { headers: { ...headers, accept: 'text/html' } })],
  [
    'JSON top page (POST /api/contents/top_page_prize)',
    () =>
      fetch(`${origin}/api/contents/top_page_prize`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"shop_id":1,"is_top_page":1}',
      }),
  ],
] as const) {
  await load(request); // warm-up round, not counted
  const r = await load(request);
  failedAnswers += r.failed;
  console.log(
    `${name.padEnd(52)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms${r.failed ? `   ${r.failed} failed` : ''}`,
  );
}

stop();
if (missed > 0 && budgetsReported)
  console.log(
    `${missed} budgets missed (--budgets=report: only the initial JavaScript's, ${missedBuilt}, fails the run)`,
  );
if (failedAnswers > 0) console.log(`${failedAnswers} throughput answers were not 200`);
process.exit(failedAnswers > 0 || missedBuilt > 0 || (missed > 0 && !budgetsReported) ? 1 : 0);
