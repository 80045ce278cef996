/**
 * The contract fuzz at full size (issue 46): requests generated from the zod contract across every
 * route the server answers (test/support/contract-fuzz.ts; its test sends 3,000), against the real
 * server in process (Fastify inject, the embedded store). Prints the answers by route and status
 * and every finding; exits 1 on any.
 *
 *   npm run bench:fuzz [-- requests=100000 seed=46 fingerprintEvery=25]
 */
import { performance } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { contractFuzz } from '../test/support/contract-fuzz';
import { inProcessConfig } from './support';
import { ManualServerClock } from '../test/support/manual-server-clock';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const n = (name: string, fallback: number) => Number(args[name] ?? fallback);
const TOKEN = 'operator-token-for-the-fuzz-benchmark-0123';

const config = inProcessConfig({ ONKURE_DEV_CALLS: '1', ONKURE_OPERATOR_TOKEN: TOKEN, ONKURE_FEED: 'jpg' });
// Time stands still (a clock nobody moves): nothing falls due between a refusal's two fingerprints
// (a play's end, a lapse), so a store that changed was changed by the refused request.
const clock = new ManualServerClock();
const server = createOnkureServer(config, { logger: false, rateLimits: 'unlimited', clock });
await server.ready;
await server.app.ready();
const started = performance.now();
const report = await contractFuzz(
  { server, config },
  {
    requests: n('requests', 100_000),
    seed: n('seed', 46),
    operatorToken: TOKEN,
    fingerprintEvery: n('fingerprintEvery', 25),
    clock,
  },
);
const seconds = (performance.now() - started) / 1000;
await server.close();

const statuses = new Map<number, number>();
for (const counts of report.byRoute.values())
  for (const [status, count] of counts) statuses.set(status, (statuses.get(status) ?? 0) + count);
console.log(
  `contract fuzz: ${report.requests} requests over ${report.byRoute.size} routes in ${seconds.toFixed(1)} s (${(report.requests / seconds).toFixed(0)}/s)`,
);
console.log(
  `  accepted ${report.accepted}, refused ${report.refused} (${report.checkedRefusals} compared with the store), new players ${report.newPlayers}, held requests answered once the clock moved ${report.held}`,
);
console.table(
  Object.fromEntries([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => [status, { count }])),
);
console.log(`  routes with no declared schema (random bodies): ${report.undeclared.length}`);
const server5xx = [...report.byRoute].filter(([, counts]) => [...counts.keys()].some((s) => s >= 500));
for (const [route, counts] of server5xx)
  console.log(`  5xx at ${route}: ${JSON.stringify(Object.fromEntries(counts))}`);
console.log(`findings: ${report.findings.length}`);
// One example of each rule broken at each route, with how often.
const kinds = new Map<string, { count: number; example: (typeof report.findings)[number] }>();
for (const finding of report.findings) {
  const kind = `${finding.rule} at ${finding.request.split(' ').slice(0, 2).join(' ')} (${finding.status})`;
  const seen = kinds.get(kind);
  if (seen) seen.count += 1;
  else kinds.set(kind, { count: 1, example: finding });
}
for (const [kind, { count, example }] of kinds)
  console.log(`  ${count} × ${kind}: ${example.request.slice(0, 300)} → ${example.answer.slice(0, 200)}`);
process.exit(report.findings.length === 0 ? 0 : 1);
