import { expect, it } from 'vitest';
import { formatChaosReport, runChaosCampaign, SMALLEST_CHAOS } from '../support/chaos-campaign';
import { partitionUnavailable } from '../support/netns-partition';

/*
 * Issue 46: the chaos campaign at its smallest size (npm run bench:chaos runs it bigger): the
 * two-instance cluster behind HAProxy on a throwaway PostgreSQL, players, a buyer and deliveries
 * running through PostgreSQL restarted, the leader killed, delay and loss between instance B and
 * PostgreSQL, and B partitioned for 10 s. After each: no paid play lost, none charged twice, every
 * balance the sum of its ledger, the money reconciliation empty, every recovery measured.
 */
const unavailable = partitionUnavailable();
if (unavailable) console.warn(`chaos-campaign.test.ts: the delay/loss and the partition are skipped: ${unavailable}`);

it(
  '[issue 46] chaos on two instances: 0 lost paid plays, 0 double charges, the reconciliation empty, every recovery measured',
  { timeout: 240_000 },
  async () => {
    const lines: string[] = [];
    const report = await runChaosCampaign(SMALLEST_CHAOS, (line) => lines.push(line));
    const printed = `${lines.join('\n')}\n${formatChaosReport(report)}`;
    console.info(printed);
    expect(report.violations, printed).toEqual([]);
    const ran = report.faults.filter((f) => !f.skipped).map((f) => f.fault);
    expect(ran).toEqual(
      unavailable
        ? ['baseline', 'postgres-restart', 'instance-kill']
        : ['baseline', 'postgres-restart', 'instance-kill', 'pg-delay-loss', 'partition'],
    );
    for (const f of report.faults.filter((x) => x.recovery)) {
      expect(f.recovery!.apiMs, f.fault).not.toBeNull();
      expect(f.recovery!.roomsMs, f.fault).not.toBeNull();
    }
    // The load really ran: plays were charged and purchases completed.
    const final = report.faults.findLast((f) => f.audit)!.audit!;
    expect(final.charges).toBeGreaterThan(0);
    expect(final.purchases).toBeGreaterThan(0);
  },
);
