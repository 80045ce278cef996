/**
 * The money reconciliation of a Japanese calendar day (docs/operations.md "Money reconciliation"),
 * on the store the server uses (DATABASE_URL, or the embedded store in DATA_DIR, which must not be
 * open in a running server):
 *
 *   npm run reconcile -- [YYYY-MM-DD] [--json]
 *
 * The day defaults to yesterday (JST). Prints the day's settlements, the provider's payments, the
 * ledger's purchase credits and the delivery fees side by side and every mismatch; keeps the run
 * (the console shows it); exits 1 when anything does not add up, 0 when all does.
 */
import { systemClock } from '../server/clock';
import { readServerConfig, ServerConfigError } from '../server/config';
import { SimulatedPaymentProvider } from '../server/payment/provider/simulated-provider';
import { DataDirLockedError } from '../server/store/data-dir-lock';
import { migrate } from '../server/store/migrate';
import { Reconciliation, type ReconciliationReport } from '../server/wallet/reconciliation';
import { jstIsoDate } from '../src/domain';
import { CommandStoreError, openCommandStore } from './lib/command-store';

const USAGE = 'usage: npm run reconcile -- [YYYY-MM-DD] [--json]';

function print(r: ReconciliationReport): void {
  const rows: [string, string | number][] = [
    ['settlements completed', `${r.settlements.completed.count} (${r.settlements.completed.yen} yen)`],
    ['provider: paid', `${r.provider.paid.count} (${r.provider.paid.yen} yen)`],
    ['provider: ended unpaid', r.provider.unpaid],
    [
      'settlements opened / failed / cancelled',
      `${r.settlements.opened} / ${r.settlements.failed} / ${r.settlements.cancelled}`,
    ],
    ['paid TC sold / credited', `${r.settlements.completed.tollTc} / ${r.ledger.purchaseTollTc}`],
    ['bonus TC sold / credited', `${r.settlements.completed.freeTc} / ${r.ledger.purchaseFreeTc}`],
    ['bonus tickets sold / credited', `${r.settlements.completed.tickets} / ${r.ledger.purchaseTickets}`],
    ['delivery requests', r.deliveries.requests],
    [
      'delivery fees asked / charged / refunded (TC)',
      `${r.deliveries.feeTc} / ${r.ledger.deliveryFeeTc} / ${r.deliveries.refundedTc}`,
    ],
  ];
  console.log(`money reconciliation ${r.day} (${r.from} – ${r.to})`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(46)} ${value}`);
  if (r.mismatches.length === 0) {
    console.log('no mismatch');
    return;
  }
  console.log(`${r.mismatches.length} mismatch(es):`);
  for (const m of r.mismatches)
    console.log(
      `  ${m.kind.padEnd(26)} ${m.reference}  user ${m.userId ?? '-'}  expected ${m.expected} ${m.unit}, found ${m.found}`,
    );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const positional = args.filter((a) => !a.startsWith('--'));
  if (positional.length > 1 || args.some((a) => a.startsWith('--') && a !== '--json')) {
    console.error(USAGE);
    process.exit(2);
  }
  const day = positional[0] ?? jstIsoDate(Date.now() - 24 * 60 * 60_000);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = readServerConfig();
  const { store, release } = await openCommandStore();
  try {
    await migrate(store);
    const provider = new SimulatedPaymentProvider(store, systemClock, config.payment.providerSecret);
    const report = await new Reconciliation(store, systemClock, provider, () => undefined).run(day);
    if (json) console.log(JSON.stringify(report, null, 2));
    else print(report);
    process.exitCode = report.mismatches.length === 0 ? 0 : 1;
  } finally {
    await store.close();
    release();
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof RangeError ||
    error instanceof CommandStoreError ||
    error instanceof ServerConfigError ||
    error instanceof DataDirLockedError
  ) {
    console.error(`onkure reconcile: ${error.message}`);
    process.exit(2);
  }
  throw error;
});
