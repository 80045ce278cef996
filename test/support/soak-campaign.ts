import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { CHANNELS, REALTIME_PATH } from '../../src/contract/realtime';
import {
  DEFAULT_CHAOS,
  runChaosCampaign,
  type ChaosOptions,
  type ChaosReport,
  type ClusterView,
} from './chaos-campaign';
import { timeStatusPush } from './status-push-timing';

/*
 * The soak (issue 46): the chaos campaign's cluster (a throwaway PostgreSQL, instances A and B
 * behind HAProxy, the reference agent's sim cabinets) and its loads — players playing paid plays,
 * buyers paying through the provider's hosted page, delivery requests — held for an hour with no
 * fault, and beside them:
 *
 *   - `sockets` socket.io clients through the balancer, each on the top channel and every other one
 *     on a played station's channel too (a spectator of the plays);
 *   - a push probe: every `probeSeconds` the operator flips a station nobody plays between
 *     maintenance and open, and the time from the call to each socket's `update` is taken;
 *   - each instance's resident memory (/proc/<pid>/status VmRSS) every `sampleSeconds`.
 *
 * Every `periodSeconds` a line: the pushes' p50/p99/max and any that never came, each instance's
 * memory, the answers so far. Verdict: memory flat (each instance's mean over the last period at most
 * `memoryTolerance` above its mean over the second, the first being the warm-up; a shrink is printed), no error (no failed
 * answer, no socket dropped, no push missing, no instance restarted or logging an error) and the
 * chaos campaign's audit of the store after it (no paid play lost or charged twice, the ledger and
 * the reconciliation clean).
 */

export interface SoakOptions {
  readonly minutes: number;
  readonly sockets: number;
  /** Players playing paid plays (two per station). */
  readonly players: number;
  readonly buyers: number;
  /** Delivery requests spread over the soak. */
  readonly deliveries: number;
  readonly periodSeconds: number;
  readonly probeSeconds: number;
  readonly sampleSeconds: number;
  /** Allowed growth of an instance's memory, last period over the second (0.1: 10 %). */
  readonly memoryTolerance: number;
}

export const DEFAULT_SOAK: SoakOptions = {
  minutes: 60,
  sockets: 500,
  players: 20,
  buyers: 2,
  deliveries: 12,
  periodSeconds: 300,
  probeSeconds: 5,
  sampleSeconds: 10,
  memoryTolerance: 0.1,
};

/** npm test's version: 5 minutes, the same crowd, a line a minute. */
export const TEST_SOAK: SoakOptions = { ...DEFAULT_SOAK, minutes: 5, periodSeconds: 60, deliveries: 3 };

export function soakOptionsFrom(args: readonly string[], base: SoakOptions = DEFAULT_SOAK): SoakOptions {
  const given = Object.fromEntries(args.map((a) => a.split('=') as [string, string]));
  const from = given.size === 'test' ? TEST_SOAK : base;
  const known: Record<string, keyof SoakOptions> = {
    minutes: 'minutes',
    sockets: 'sockets',
    players: 'players',
    buyers: 'buyers',
    deliveries: 'deliveries',
    period: 'periodSeconds',
    probe: 'probeSeconds',
    sample: 'sampleSeconds',
    tolerance: 'memoryTolerance',
  };
  const out: Record<string, number> = { ...from };
  for (const [key, value] of Object.entries(given)) {
    if (key === 'size') continue;
    const field = known[key];
    if (!field) throw new Error(`unknown argument ${key} (known: size, ${Object.keys(known).join(', ')})`);
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${key}=${value}: not a positive number`);
    out[field] = n;
  }
  const options = out as unknown as SoakOptions;
  // The first period is the warm-up, the second the memory's baseline: a third is the least to compare.
  if (options.periodSeconds * 3 > options.minutes * 60)
    throw new Error('the soak needs at least three periods (the first is the warm-up, the second the baseline)');
  return options;
}

export interface SoakPeriod {
  readonly index: number;
  readonly pushes: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly missing: number;
  /** Mean resident memory over the period, by instance (MiB). */
  readonly rssMiB: Readonly<Record<string, number>>;
  readonly ok: number;
  readonly failed: number;
}

export interface SoakReport {
  readonly options: SoakOptions;
  readonly connectSeconds: number;
  readonly periods: readonly SoakPeriod[];
  /** Each instance's growth, last period over the second (0.05: 5 %). */
  readonly memoryGrowth: Readonly<Record<string, number>>;
  readonly disconnects: readonly string[];
  readonly errorLines: readonly string[];
  readonly restarts: number;
  readonly chaos: ChaosReport;
  readonly violations: readonly string[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (xs: readonly number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Resident memory of a process in MiB (null: gone). */
function rssMiB(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Pino lines at level error or fatal (50, 60). */
const errorLinesOf = (log: string) => log.split('\n').filter((l) => /"level":(50|60)\b/.test(l));

/** Connects `count` sockets into `sockets` (the caller closes them, however this ends). */
async function connectCrowd(
  view: ClusterView,
  sockets: Socket[],
  count: number,
  disconnects: string[],
  isOver: () => boolean,
): Promise<void> {
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => {
      const n = i + j;
      const socket = io(view.origin, {
        path: REALTIME_PATH,
        transports: ['websocket'],
        reconnection: false,
        timeout: 20_000,
        extraHeaders: { 'x-forwarded-for': view.nextIp() },
      });
      sockets.push(socket);
      socket.on('disconnect', (reason) => {
        if (!isOver()) disconnects.push(`socket ${n}: ${reason}`);
      });
      const channels: string[] = [CHANNELS.top];
      if (n % 2 === 1) channels.push(CHANNELS.station(view.playedStations[n % view.playedStations.length]!));
      return new Promise<void>((resolve, reject) => {
        socket.once('connect', () => {
          void Promise.all(channels.map((c) => socket.timeout(10_000).emitWithAck('join', c))).then(
            () => resolve(),
            (error: unknown) => reject(new Error(`socket ${n} not joined within 10 s: ${String(error)}`)),
          );
        });
        socket.once('connect_error', (error) => reject(new Error(`socket ${n} did not connect: ${error.message}`)));
      });
    });
    await Promise.all(batch);
  }
}

/** One probe: the operator's flip of the spare station, timed to every socket's `update`. */
function probe(view: ClusterView, sockets: readonly Socket[], status: string): Promise<(number | null)[]> {
  return timeStatusPush(
    sockets,
    view.spareStation,
    status,
    async () => {
      const answer = await view.operator('station_status', { station_id: view.spareStation, station_status: status });
      if (answer.status !== 200 || (answer.json.error_code ?? 200) !== 200)
        view.tally().add('probe', `${answer.status}/${String(answer.json.error_code)}`);
    },
    10_000,
  );
}

/** Runs the soak; `log` gets each line as it comes. */
export async function runSoak(options: SoakOptions, log: (line: string) => void): Promise<SoakReport> {
  const periods: SoakPeriod[] = [];
  const disconnects: string[] = [];
  const errorLines: string[] = [];
  let restarts = 0;
  let connectSeconds = 0;
  const chaosOptions: ChaosOptions = {
    ...DEFAULT_CHAOS,
    players: options.players,
    buyers: options.buyers,
    // ≈ 800 TC a minute a player was seen (a first hour's run ran dry at 12 minutes): 2,000 a minute.
    playerTc: options.minutes * 2_000,
    deliveries: options.deliveries,
    leadSeconds: options.minutes * 60,
    faults: [],
  };
  const chaos = await runChaosCampaign(chaosOptions, log, {
    baseline: async (view) => {
      let over = false;
      const logStart = view.instances.map((i) => i.log().length);
      const restarts0 = view.instances.map((i) => i.restarts());
      const sockets: Socket[] = [];
      try {
        const t0 = performance.now();
        await connectCrowd(view, sockets, options.sockets, disconnects, () => over);
        connectSeconds = (performance.now() - t0) / 1000;
        log(
          `soak: ${sockets.length} sockets through the balancer in ${round1(connectSeconds)} s (all on the top channel, half on a played station's too); pushes timed on station ${view.spareStation} every ${options.probeSeconds} s; ${options.minutes} min in periods of ${options.periodSeconds} s`,
        );
        const totalPeriods = Math.floor((options.minutes * 60) / options.periodSeconds);
        let periodStart = performance.now();
        let latencies: number[] = [];
        let missing = 0;
        let rss: Record<string, number[]> = Object.fromEntries(view.instances.map((i) => [i.name, []]));
        let okBefore = 0;
        let failedBefore = 0;
        let flip = 0;
        let nextProbe = performance.now();
        let nextSample = performance.now();
        for (;;) {
          // A period closes before the probe due at its end, which belongs to the next one.
          if (performance.now() - periodStart >= options.periodSeconds * 1_000) {
            const tally = view.tally();
            const ok = tally.total('ok');
            const failed = tally.total('failed');
            const period: SoakPeriod = {
              index: periods.length + 1,
              pushes: latencies.length,
              p50Ms: round1(pct(latencies, 0.5)),
              p99Ms: round1(pct(latencies, 0.99)),
              maxMs: round1(latencies.length ? latencies.reduce((a, b) => Math.max(a, b), -Infinity) : Number.NaN),
              missing,
              rssMiB: Object.fromEntries(Object.entries(rss).map(([k, xs]) => [k, round1(mean(xs))])),
              ok: ok - okBefore,
              failed: failed - failedBefore,
            };
            periods.push(period);
            log(formatPeriod(period, options.periodSeconds));
            if (periods.length >= totalPeriods) break;
            [okBefore, failedBefore] = [ok, failed];
            latencies = [];
            missing = 0;
            rss = Object.fromEntries(view.instances.map((i) => [i.name, []]));
            periodStart += options.periodSeconds * 1_000;
          }
          const now = performance.now();
          if (now >= nextSample) {
            nextSample += options.sampleSeconds * 1_000;
            for (const i of view.instances) {
              const mib = rssMiB(i.pid());
              if (mib !== null) rss[i.name]!.push(mib);
            }
          }
          if (now >= nextProbe) {
            nextProbe += options.probeSeconds * 1_000;
            flip += 1;
            for (const t of await probe(view, sockets, flip % 2 === 1 ? 'maintenance' : 'open')) {
              if (t === null) missing += 1;
              else latencies.push(t);
            }
          }
          const due = Math.min(nextProbe, nextSample, periodStart + options.periodSeconds * 1_000);
          await pause(Math.max(0, due - performance.now()));
        }
      } finally {
        over = true;
        for (const socket of sockets) socket.close();
        view.instances.forEach((i, k) => {
          errorLines.push(...errorLinesOf(i.log().slice(logStart[k])).map((l) => `${i.name}: ${l.slice(0, 400)}`));
          restarts += i.restarts() - restarts0[k]!;
        });
      }
    },
  });
  const violations: string[] = [...chaos.violations];
  const memoryGrowth: Record<string, number> = {};
  const second = periods[1];
  const last = periods[periods.length - 1];
  if (!second || !last) violations.push(`only ${periods.length} periods measured: memory not compared`);
  else
    for (const [name, baseline] of Object.entries(second.rssMiB)) {
      const growth = last.rssMiB[name]! / baseline - 1;
      memoryGrowth[name] = growth;
      // Growth is what a leak makes; a shrink (the start-up's heap handed back) is printed, not held against it.
      if (!(growth <= options.memoryTolerance))
        violations.push(
          `instance ${name}'s memory not flat: ${baseline} MiB in period 2, ${last.rssMiB[name]} MiB in period ${last.index} (${(growth * 100).toFixed(1)} %)`,
        );
    }
  // A 409 is a race the load expects (a control after the claw stopped, a finish of a play another
  // call finished): the players' loop takes it as an answer. Anything else failed is an error.
  const tally = chaos.faults.find((f) => f.fault === 'baseline')?.tally;
  const failedAnswers = [...(tally?.failed ?? [])].filter(([kind]) => !/ 409\//.test(kind));
  if (failedAnswers.length > 0)
    violations.push(`failed answers: ${failedAnswers.map(([kind, n]) => `${kind} ×${n}`).join(', ')}`);
  if (disconnects.length)
    violations.push(`${disconnects.length} sockets dropped: ${disconnects.slice(0, 5).join('; ')}`);
  const missing = periods.reduce((n, p) => n + p.missing, 0);
  if (missing) violations.push(`${missing} pushes never arrived (10 s)`);
  if (errorLines.length)
    violations.push(`${errorLines.length} error lines logged: ${errorLines.slice(0, 3).join(' | ')}`);
  if (restarts) violations.push(`instances restarted ${restarts} times`);
  return { options, connectSeconds, periods, memoryGrowth, disconnects, errorLines, restarts, chaos, violations };
}

function formatPeriod(p: SoakPeriod, seconds: number): string {
  const memory = Object.entries(p.rssMiB)
    .map(([k, v]) => `${k} ${v} MiB`)
    .join(', ');
  return `period ${p.index} (${((p.index - 1) * seconds) / 60}–${(p.index * seconds) / 60} min): pushes ${p.pushes}, p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, never arrived ${p.missing}; memory ${memory}; answers ok ${p.ok}, failed ${p.failed}`;
}

export function formatSoakReport(report: SoakReport): string {
  const lines = [
    '  period   pushes   p50 ms   p99 ms   max ms  missing  ' +
      Object.keys(report.periods[0]?.rssMiB ?? {})
        .map((k) => `RSS ${k} MiB`.padStart(11))
        .join('  ') +
      '      ok  failed',
  ];
  for (const p of report.periods)
    lines.push(
      `  ${String(p.index).padStart(6)}  ${String(p.pushes).padStart(7)}  ${String(p.p50Ms).padStart(7)}  ${String(p.p99Ms).padStart(7)}  ${String(p.maxMs).padStart(7)}  ${String(p.missing).padStart(7)}  ` +
        Object.values(p.rssMiB)
          .map((v) => String(v).padStart(11))
          .join('  ') +
        `  ${String(p.ok).padStart(6)}  ${String(p.failed).padStart(6)}`,
    );
  const growth = Object.entries(report.memoryGrowth)
    .map(([k, g]) => `${k} ${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)} %`)
    .join(', ');
  const baseline = report.chaos.faults.find((f) => f.fault === 'baseline');
  const audit = baseline?.audit;
  lines.push(
    `memory, last period over the second: ${growth || '—'} (growth allowed: ${report.options.memoryTolerance * 100} %)`,
    `sockets dropped ${report.disconnects.length}; error lines ${report.errorLines.length}; instances restarted ${report.restarts}`,
    audit
      ? `store: ${audit.plays} paid plays (${audit.results} with a result, ${audit.refunds} refunded), ${audit.purchases} purchases completed, ${audit.deliveries} deliveries; lost ${audit.lostPlays.length}, double charges ${audit.doubleCharges.length}, ledger mismatches ${audit.ledgerMismatches.length}, reconciliation mismatches ${audit.mismatches}`
      : 'store: not audited',
    report.violations.length === 0
      ? 'VERDICT: OK — memory flat, no error, every push arrived, the store audited clean'
      : `VERDICT: FAILED\n${report.violations.map((v) => `  - ${v}`).join('\n')}`,
  );
  return lines.join('\n');
}
