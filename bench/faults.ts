/**
 * The fault campaign, bigger than its test (test/server/fault-campaign.test.ts,
 * test/server/kill-campaign.test.ts), printing what it counted. Against the real server: HTTP
 * and socket.io on loopback, the real store and ledger; time on a manual clock for the first two
 * parts, real time and a real process for the third.
 *
 *   npm run bench:faults [-- cycles=3000 players=24 stations=8 stormStations=20 faults=200 kills=3 kujiKills=3]
 *
 * Smallest (npm test's smoke run): cycles=5 players=2 stations=1 stormStations=1 faults=2 kills=1 kujiKills=1.
 *
 * 1. Disconnect/reconnect cycles at random moments of paid plays: lost plays, double charges,
 *    bad refunds, ledgers that are not the sum of their rows (all must be 0).
 * 2. Fault injections fired all at once at playing stations: each play refunded exactly once.
 * 3. `kill -9` with a station in every phase of the turn, then a start on the same data, `kills` times.
 * 4. `kill -9` with kuji boxes in a draw window and in the middle of draws, `kujiKills` times: every
 *    draw charged and recorded once, its request id answering the same draw after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { disconnectCampaign, faultStorm, type CampaignServer } from '../test/support/fault-campaign';
import { killInEveryPhase, outcomeHolds } from '../test/support/kill-campaign';
import { killKujiBoxes } from '../test/support/kuji-kill-campaign';
import { freePort, ServerProcess } from '../test/support/server-process';
import { InProcessAgent } from '../test/support/in-process-agent';
import { ManualServerClock } from '../test/support/manual-server-clock';
import { benchFailed, inProcessConfig } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const n = (name: string, fallback: number) => Number(args[name] ?? fallback);
const TOKEN = 'operator-token-for-the-fault-benchmark-0123';

async function inProcess(): Promise<{ s: CampaignServer; close: () => Promise<void> }> {
  const clock = new ManualServerClock(new Date('2026-11-24T12:00:00+09:00'));
  const config = inProcessConfig({
    // The operator's shared token (the fault injections) is a development call.
    ONKURE_DEV_CALLS: '1',
    ONKURE_OPERATOR_TOKEN: TOKEN,
    ONKURE_FEED: 'jpg',
  });
  const server = createOnkureServer(config, { logger: false, rateLimits: 'unlimited', clock });
  await server.ready;
  const origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  // The stations' machines: the reference agent with its sim driver, in process on the same clock.
  const agent = await InProcessAgent.start({ server, origin }, { clock });
  return {
    s: { server, origin, clock, operatorToken: TOKEN, settle: () => agent.settle() },
    close: async () => {
      await agent.stop();
      await server.close();
    },
  };
}

async function main(): Promise<void> {
  let ok = true;
  const { s, close } = await inProcess();
  try {
    let started = performance.now();
    const run = await disconnectCampaign(s, {
      players: n('players', 24),
      stations: n('stations', 8),
      cycles: n('cycles', 3000),
      seed: n('seed', 7),
    });
    console.log(`1. disconnect campaign (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    console.table({ cycles: run.cycles, steps: run.steps, ...run.audit });
    // The players' refused calls are outcomes of the load (a turn lapsed while away, a press too late).
    console.log(
      `   refused calls: ${
        Object.entries(run.refused)
          .map(([call, count]) => `${call} ×${count}`)
          .join(', ') || 'none'
      }`,
    );
    ok &&= run.audit.lostPlays + run.audit.doubleCharges + run.audit.badRefunds + run.audit.ledgerMismatches === 0;

    started = performance.now();
    const storm = await faultStorm(s, { stations: n('stormStations', 20), faults: n('faults', 200), seed: 3 });
    console.log(`2. fault storm (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    console.table({
      refundedAnswers: storm.refundedAnswers,
      refusedFaults: storm.refusedFaults,
      playsStopped: storm.playsStopped,
      ...storm.audit,
    });
    ok &&= storm.refundedAnswers === storm.playsStopped && storm.audit.refunds === storm.playsStopped;
    ok &&=
      storm.audit.lostPlays + storm.audit.doubleCharges + storm.audit.badRefunds + storm.audit.ledgerMismatches === 0;
  } finally {
    await close();
  }

  for (let k = 0; k < n('kills', 3); k += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-kill-'));
    // The stations on the demo's reference agent, a process of its own that outlives each kill.
    const server = new ServerProcess(await freePort(), dataDir, {}, undefined, { agent: true });
    try {
      const started = performance.now();
      const report = await killInEveryPhase(server, dataDir, `bench${k}`);
      console.log(`3.${k + 1} kill -9 in every phase (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      console.table(report.outcomes.map((o) => ({ ...o })));
      console.log(
        `   ledger mismatches ${report.ledgerMismatches}, first answers after the restart ${report.restartMs} ms`,
      );
      ok &&= report.ledgerMismatches === 0 && report.outcomes.every(outcomeHolds);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (let k = 0; k < n('kujiKills', 3); k += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-kuji-kill-'));
    const server = new ServerProcess(await freePort(), dataDir);
    try {
      const started = performance.now();
      // Each run kills at other moments of the draws: after the first answer, and then later.
      const report = await killKujiBoxes(server, dataDir, `bk${k}`, [k * 10, 40 + k * 20, 100 + k * 40]);
      console.log(`4.${k + 1} kill -9 with kuji boxes held (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      console.table([{ killed: 'in a draw window', ...report.window }]);
      console.table(report.rounds.map((r) => ({ ...r })));
      console.log(
        `   bad draws ${report.badDraws}, request ids drawn twice ${report.doubleDraws}, tickets drawn twice ${report.doubleTickets}, ledger mismatches ${report.ledgerMismatches}`,
      );
      ok &&=
        report.window.status === 'confirm' &&
        report.window.lineIntact &&
        report.window.replayed &&
        report.rounds.every((r) => r.changedAnswers === 0 && r.lineIntact && r.landedBefore >= r.answeredBefore) &&
        report.badDraws + report.doubleDraws + report.doubleTickets + report.ledgerMismatches === 0;
    } finally {
      await server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(ok ? 'every count as it must be' : 'FAILED: a count is off (see above)');
  process.exit(ok ? 0 : 1);
}

main().catch(benchFailed);
