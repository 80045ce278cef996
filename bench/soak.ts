/**
 * The soak (issue 46; test/support/soak-campaign.ts): the two-instance cluster on PostgreSQL behind
 * HAProxy for an hour with no fault, under 500 sockets (pushes timed every 5 s), 20 players playing
 * paid plays, steady purchases through the provider's page and delivery requests. Prints push
 * p50/p99/max and each instance's memory per 5 minutes; after it, the store audited.
 *
 *   npm run bench:soak [-- minutes=60 sockets=500 players=20 buyers=2 deliveries=12 period=300 probe=5 sample=10 tolerance=0.1]
 *
 * npm test runs size=test (5 minutes, a line a minute) in test/serial/soak.test.ts. Exits 1 when
 * memory is not flat within the tolerance (last period over the second), on any failed answer,
 * dropped socket, missing push, error line or restart, or when the store's audit finds anything.
 */
import { benchFailed } from './support';
import { formatSoakReport, runSoak, soakOptionsFrom } from '../test/support/soak-campaign';

async function main(): Promise<void> {
  // Stopped from outside: exit through the campaign's exit handler (PostgreSQL, HAProxy, the namespace).
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and
  // with no listener left the second would kill it in the middle of the exit handler's clean-up.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  const options = soakOptionsFrom(process.argv.slice(2));
  console.log(
    `soak: ${options.minutes} min, ${options.sockets} sockets, ${options.players} players, ${options.buyers} buyers, ${options.deliveries} deliveries; machine ${process.platform}, node ${process.versions.node} (PostgreSQL, both instances, HAProxy and the load share it)`,
  );
  const started = Date.now();
  const report = await runSoak(options, (line) => console.log(line));
  console.log(`\n${formatSoakReport(report)}`);
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(report.violations.length === 0 ? 0 : 1);
}

main().catch(benchFailed);
