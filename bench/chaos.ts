/**
 * Chaos on the two-instance cluster (issue 46; test/support/chaos-campaign.ts): PostgreSQL restarted,
 * the leading instance killed, 300 ms delay and 5 % loss between an instance and PostgreSQL, a 10 s
 * partition of one instance, each under players' paid plays, purchases and deliveries through
 * HAProxy; after each, the store audited and the day's money reconciled.
 *
 *   npm run bench:chaos [-- players=8 buyers=2 deliveries=4 lead=5 pgDown=5 impair=15 partition=10 delay=300 loss=5 drain=90 recover=120 faults=postgres-restart,instance-kill,pg-delay-loss,partition]
 *
 * Smallest (test/serial/chaos-campaign.test.ts): size=smallest, i.e. players=2 buyers=1
 * deliveries=1 lead=2 pgDown=1 impair=4 (the partition stays 10 s).
 *
 * Root, `ip` and `nft` make the network namespace; without them the delay/loss and the partition
 * are skipped, and the output says so. Exits 1 on any violation (a lost paid play, a double charge,
 * a balance off its ledger, a reconciliation mismatch, a recovery that never came).
 */
import { benchFailed } from './support';
import { chaosOptionsFrom, formatChaosReport, runChaosCampaign } from '../test/support/chaos-campaign';

async function main(): Promise<void> {
  // Stopped from outside (Ctrl-C, `timeout`): exit through the campaign's exit handler, which stops
  // PostgreSQL and HAProxy and removes the namespace (the instances end with this process).
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and
  // with no listener left the second would kill it in the middle of the exit handler's clean-up.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  const options = chaosOptionsFrom(process.argv.slice(2));
  console.log(
    `chaos: ${options.players} players, ${options.buyers} buyers, ${options.deliveries} deliveries per fault; faults ${options.faults.join(', ')}; machine ${process.platform}, node ${process.versions.node} (PostgreSQL, both instances, HAProxy and the load share it)`,
  );
  const started = Date.now();
  const report = await runChaosCampaign(options, (line) => console.log(line));
  console.log(`\n${formatChaosReport(report)}`);
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(report.violations.length === 0 ? 0 : 1);
}

main().catch(benchFailed);
