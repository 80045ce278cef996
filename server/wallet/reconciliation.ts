import { JST_OFFSET_MS, jstIsoDate, type ReconciliationMismatch, type ReconciliationReport } from '../../src/domain';

export type { ReconciliationReport } from '../../src/domain';
import { DueTimer, type Clock } from '../clock';
import type { SqlExecutor } from '../store/store';
import type { PaymentProvider } from './purchase.service';

/** A Japanese calendar day, 'YYYY-MM-DD'. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60_000;
/** The leader reconciles the day before at 00:30 JST (late callbacks and expiries have landed). */
export const RECONCILE_AFTER_MIDNIGHT_MS = 30 * 60_000;

/** The instants a Japanese day runs between; throws on a malformed day. */
export function jstDayBounds(day: string): { from: Date; to: Date } {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`not a day (YYYY-MM-DD): ${day}`);
  const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - JST_OFFSET_MS);
  if (jstIsoDate(from.getTime()) !== day) throw new RangeError(`not a day (YYYY-MM-DD): ${day}`);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

const num = (value: unknown): number => Number(value ?? 0);

/**
 * The money reconciliation (issue 46; docs/operations.md "Money reconciliation"): for one Japanese
 * calendar day, the settlements completed, the ledger's purchase credits, the provider's own report
 * of its payments and the delivery fees, side by side, with every entry that one source has and
 * another does not, or has with another amount. Reads only; a run is kept per day.
 */
export class Reconciliation {
  private last: { day: string; mismatches: number; ranAt: Date } | null = null;
  private readonly timer: DueTimer;

  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
    private readonly provider: Pick<PaymentProvider, 'report'>,
    log: (message: string, error?: unknown) => void,
    /** Told each finished run (the metrics' gauges, the log). */
    private readonly onRun: (run: { day: string; mismatches: number; ranAt: Date }) => void = () => undefined,
  ) {
    this.timer = new DueTimer(
      clock,
      async () => this.nextDue(),
      async () => void (await this.run(this.yesterday())),
      log,
      'money reconciliation',
    );
  }

  /** The leader's daily run: yesterday's once it is 00:30 JST, and at once if yesterday has none. */
  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** Resolves once the daily timer's read or run in progress is done (tests step a manual clock). */
  settled(): Promise<void> {
    return this.timer.settled();
  }

  /** The latest run this instance knows of (the metrics read it). */
  latest(): { day: string; mismatches: number; ranAt: Date } | null {
    return this.last;
  }

  private yesterday(): string {
    return jstIsoDate(this.clock.now().getTime() - RECONCILE_AFTER_MIDNIGHT_MS - DAY_MS);
  }

  private async nextDue(): Promise<Date> {
    const day = this.yesterday();
    const [done] = await this.db.query<{ day: string; mismatches: number; ran_at: Date | string }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, mismatches, ran_at FROM reconciliation_runs ORDER BY day DESC LIMIT 1",
    );
    if (done) this.last = { day: done.day, mismatches: done.mismatches, ranAt: new Date(done.ran_at) };
    if (!done || done.day < day) return this.clock.now();
    // The next day's run: 00:30 JST the day after tomorrow's "yesterday".
    return new Date(jstDayBounds(day).to.getTime() + DAY_MS + RECONCILE_AFTER_MIDNIGHT_MS);
  }

  /** Reconciles `day` and keeps the run (replacing an earlier run of the day). */
  async run(day: string): Promise<ReconciliationReport> {
    const report = await this.report(day);
    const ranAt = this.clock.now();
    await this.db.query(
      `INSERT INTO reconciliation_runs (day, ran_at, mismatches, report) VALUES ($1, $2, $3, $4)
       ON CONFLICT (day) DO UPDATE SET ran_at = EXCLUDED.ran_at, mismatches = EXCLUDED.mismatches, report = EXCLUDED.report`,
      [day, ranAt.toISOString(), report.mismatches.length, JSON.stringify(report)],
    );
    if (!this.last || this.last.day <= day) this.last = { day, mismatches: report.mismatches.length, ranAt };
    this.onRun({ day, mismatches: report.mismatches.length, ranAt });
    return report;
  }

  /** A kept run, or null. */
  async stored(day: string): Promise<{ ranAt: string; report: ReconciliationReport } | null> {
    jstDayBounds(day);
    const [row] = await this.db.query<{ ran_at: Date | string; report: ReconciliationReport | string }>(
      'SELECT ran_at, report FROM reconciliation_runs WHERE day = $1',
      [day],
    );
    if (!row) return null;
    const report = typeof row.report === 'string' ? (JSON.parse(row.report) as ReconciliationReport) : row.report;
    return { ranAt: new Date(row.ran_at).toISOString(), report };
  }

  /** The latest kept runs, newest first. */
  async runs(limit: number): Promise<{ day: string; ranAt: string; mismatches: number }[]> {
    const rows = await this.db.query<{ day: string; ran_at: Date | string; mismatches: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, ran_at, mismatches FROM reconciliation_runs ORDER BY day DESC LIMIT $1",
      [limit],
    );
    return rows.map((r) => ({ day: r.day, ranAt: new Date(r.ran_at).toISOString(), mismatches: r.mismatches }));
  }

  /** The day's sources side by side and their mismatches (reads only). */
  async report(day: string): Promise<ReconciliationReport> {
    const { from, to } = jstDayBounds(day);
    const window = [from.toISOString(), to.toISOString()];
    const mismatches: ReconciliationMismatch[] = [];

    // 1. Settlements completed in the day, with what the ledger credited under their key.
    const completed = await this.db.query<{
      id: string;
      user_id: number;
      price: number;
      toll_tc: number;
      free_tc: number;
      bonus_ticket: number;
      provider_payment_id: string | null;
      toll: string | number | null;
      free: string | number | null;
      tickets: string | number | null;
    }>(
      `SELECT s.product_settlement_id AS id, s.user_id, s.price, s.toll_tc, s.free_tc, s.bonus_ticket, s.provider_payment_id,
              (SELECT sum(delta) FROM tc_ledger l WHERE l.user_id = s.user_id AND l.idempotency_key = 'settlement:' || s.product_settlement_id AND l.kind = 'toll') AS toll,
              (SELECT sum(delta) FROM tc_ledger l WHERE l.user_id = s.user_id AND l.idempotency_key = 'settlement:' || s.product_settlement_id AND l.kind = 'free') AS free,
              (SELECT sum(delta) FROM ticket_ledger l WHERE l.user_id = s.user_id AND l.idempotency_key = 'settlement:' || s.product_settlement_id) AS tickets
         FROM product_settlements s
        WHERE s.status = 'completed' AND s.completed_at >= $1 AND s.completed_at < $2
        ORDER BY s.completed_at`,
      window,
    );
    for (const s of completed) {
      for (const [unit, expected, found] of [
        ['tc', s.toll_tc, num(s.toll)],
        ['tc', s.free_tc, num(s.free)],
        ['ticket', s.bonus_ticket, num(s.tickets)],
      ] as const)
        if (expected !== found)
          mismatches.push({
            kind: 'settlement_not_credited',
            reference: s.id,
            userId: s.user_id,
            expected,
            found,
            unit,
          });
    }
    const [counts] = await this.db.query<{ opened: string; failed: string; cancelled: string }>(
      `SELECT count(*) AS opened,
              count(*) FILTER (WHERE status = 'failed') AS failed,
              count(*) FILTER (WHERE status = 'cancelled') AS cancelled
         FROM product_settlements WHERE created_at >= $1 AND created_at < $2`,
      window,
    );

    // 2. Purchase credits in the day whose settlement is not completed (credited without a sale).
    const credits = await this.db.query<{
      reference: string | null;
      user_id: number;
      kind: string;
      delta: number;
      status: string | null;
    }>(
      `SELECT l.reference, l.user_id, l.kind, l.delta, s.status FROM (
          SELECT reference, user_id, kind, delta FROM tc_ledger WHERE reason = 'purchase' AND created_at >= $1 AND created_at < $2
          UNION ALL
          SELECT reference, user_id, 'ticket' AS kind, delta FROM ticket_ledger WHERE reason = 'purchase' AND created_at >= $1 AND created_at < $2
        ) l LEFT JOIN product_settlements s ON s.product_settlement_id = l.reference`,
      window,
    );
    const sumOf = (kind: string) => credits.filter((c) => c.kind === kind).reduce((sum, c) => sum + c.delta, 0);
    for (const c of credits)
      if (c.status !== 'completed')
        mismatches.push({
          kind: 'credit_without_settlement',
          reference: c.reference ?? '(none)',
          userId: c.user_id,
          expected: 0,
          found: c.delta,
          unit: c.kind === 'ticket' ? 'ticket' : 'tc',
        });

    // 3. The provider's report: every payment finished in the day, and those of the day's completed settlements.
    const report = await this.provider.report(
      from,
      to,
      completed.flatMap((s) => (s.provider_payment_id ? [s.provider_payment_id] : [])),
    );
    const byPayment = new Map(report.map((p) => [p.payment_id, p]));
    for (const s of completed) {
      const paid = s.provider_payment_id ? byPayment.get(s.provider_payment_id) : undefined;
      if (!paid || paid.status !== 'paid' || paid.amount !== s.price)
        mismatches.push({
          kind: 'completed_not_paid',
          reference: s.id,
          userId: s.user_id,
          expected: s.price,
          found: paid?.status === 'paid' ? paid.amount : 0,
          unit: 'yen',
        });
    }
    const finishedToday = report.filter((p) => {
      const at = p.finished_at ? new Date(p.finished_at).getTime() : NaN;
      return at >= from.getTime() && at < to.getTime();
    });
    const paidToday = finishedToday.filter((p) => p.status === 'paid');
    const references = paidToday.map((p) => p.merchant_reference);
    const settlementsOf = references.length
      ? await this.db.query<{ id: string; user_id: number; status: string; price: number }>(
          'SELECT product_settlement_id AS id, user_id, status, price FROM product_settlements WHERE product_settlement_id = ANY($1::text[])',
          [references],
        )
      : [];
    const settlementById = new Map(settlementsOf.map((s) => [s.id, s]));
    for (const p of paidToday) {
      const s = settlementById.get(p.merchant_reference);
      // Paid at the provider and not credited (a deleted account's: to refund), or for another amount.
      if (!s || s.status !== 'completed' || s.price !== p.amount)
        mismatches.push({
          kind: 'paid_not_completed',
          reference: p.merchant_reference,
          userId: s?.user_id ?? null,
          expected: p.amount,
          found: s?.status === 'completed' ? s.price : 0,
          unit: 'yen',
        });
    }

    // 4. Delivery requests of the day, with what the ledger charged and gave back under their keys.
    const deliveries = await this.db.query<{
      delivery_id: number;
      user_id: number;
      fee_tc: number;
      charged: string | number | null;
      refunded: string | number | null;
    }>(
      `SELECT d.delivery_id, d.user_id, d.fee_tc,
              (SELECT -sum(delta) FROM tc_ledger l WHERE l.user_id = d.user_id AND l.idempotency_key = 'delivery:' || d.delivery_id) AS charged,
              (SELECT sum(delta) FROM tc_ledger l WHERE l.user_id = d.user_id AND l.idempotency_key = 'delivery-refund:' || d.delivery_id) AS refunded
         FROM delivery_requests d WHERE d.requested_at >= $1 AND d.requested_at < $2 ORDER BY d.delivery_id`,
      window,
    );
    for (const d of deliveries) {
      if (num(d.charged) !== d.fee_tc)
        mismatches.push({
          kind: 'delivery_fee_not_charged',
          reference: `delivery:${d.delivery_id}`,
          userId: d.user_id,
          expected: d.fee_tc,
          found: num(d.charged),
          unit: 'tc',
        });
      if (num(d.refunded) > num(d.charged))
        mismatches.push({
          kind: 'delivery_refund_over_fee',
          reference: `delivery:${d.delivery_id}`,
          userId: d.user_id,
          expected: num(d.charged),
          found: num(d.refunded),
          unit: 'tc',
        });
    }
    const strayFees = await this.db.query<{ reference: string | null; user_id: number; delta: number }>(
      `SELECT l.reference, l.user_id, l.delta FROM tc_ledger l
        WHERE l.reason = 'delivery_fee' AND l.created_at >= $1 AND l.created_at < $2
          AND NOT EXISTS (SELECT 1 FROM delivery_requests d WHERE 'delivery:' || d.delivery_id = l.reference AND d.user_id = l.user_id)`,
      window,
    );
    for (const f of strayFees)
      mismatches.push({
        kind: 'fee_without_delivery',
        reference: f.reference ?? '(none)',
        userId: f.user_id,
        expected: 0,
        found: -f.delta,
        unit: 'tc',
      });
    const [fees] = await this.db.query<{ fee: string | null }>(
      "SELECT -sum(delta) AS fee FROM tc_ledger WHERE reason = 'delivery_fee' AND created_at >= $1 AND created_at < $2",
      window,
    );

    return {
      day,
      from: window[0]!,
      to: window[1]!,
      settlements: {
        completed: {
          count: completed.length,
          yen: completed.reduce((sum, s) => sum + s.price, 0),
          tollTc: completed.reduce((sum, s) => sum + s.toll_tc, 0),
          freeTc: completed.reduce((sum, s) => sum + s.free_tc, 0),
          tickets: completed.reduce((sum, s) => sum + s.bonus_ticket, 0),
        },
        opened: num(counts?.opened),
        failed: num(counts?.failed),
        cancelled: num(counts?.cancelled),
      },
      provider: {
        paid: { count: paidToday.length, yen: paidToday.reduce((sum, p) => sum + p.amount, 0) },
        unpaid: finishedToday.length - paidToday.length,
      },
      ledger: {
        purchaseTollTc: sumOf('toll'),
        purchaseFreeTc: sumOf('free'),
        purchaseTickets: sumOf('ticket'),
        deliveryFeeTc: num(fees?.fee),
      },
      deliveries: {
        requests: deliveries.length,
        feeTc: deliveries.reduce((sum, d) => sum + d.fee_tc, 0),
        refundedTc: deliveries.reduce((sum, d) => sum + num(d.refunded), 0),
      },
      mismatches,
    };
  }
}
