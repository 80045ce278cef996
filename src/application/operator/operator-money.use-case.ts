import { inject, injectable } from 'inversify';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { OperatorApiPort, ReconciliationView } from './ports/operator-api.port';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The money reconciliation (right `money`, admins; docs/operations.md "Money reconciliation"): a
 * day's settlements, the provider's report, the ledger's purchase credits and the delivery fees side
 * by side with every mismatch, as the leader kept it each morning, or reconciled again on demand.
 */
@injectable()
export class OperatorMoney extends OperatorScreen<ReconciliationView | null> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: Pick<OperatorApiPort, 'reconciliation'>,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, null);
  }

  /** The kept run of `day` (YYYY-MM-DD; null: yesterday's). */
  read(day: string | null): Promise<void> {
    if (day !== null && !ISO_DAY.test(day)) return Promise.resolve();
    return this.load(() => this.api.reconciliation(day, false));
  }

  /** Reconciles `day` again now (the kept run is replaced) and shows it. */
  runAgain(day: string): Promise<void> {
    if (!ISO_DAY.test(day)) return Promise.resolve();
    return this.load(() => this.api.reconciliation(day, true));
  }
}
