import { inject, injectable } from 'inversify';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { AuditRow, OperatorApiPort } from './ports/operator-api.port';

/** The audit log (right `audit`, admin only): newest first, optionally one operator's. */
@injectable()
export class OperatorAudit extends OperatorScreen<{ readonly login: string; readonly rows: readonly AuditRow[] }> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: Pick<OperatorApiPort, 'audit'>,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, { login: '', rows: [] });
  }

  read(login = ''): Promise<void> {
    const who = login.trim();
    return this.load(async () => ({ login: who, rows: await this.api.audit(who || null) }));
  }
}
