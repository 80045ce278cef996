import { inject, injectable } from 'inversify';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { NumbersRow, OperatorApiPort } from './ports/operator-api.port';

export interface NumbersData {
  readonly from: string;
  readonly to: string;
  readonly rows: readonly NumbersRow[];
  /** The sums over the rows (win rate: wins ÷ plays, 0 when no play). */
  readonly total: Omit<NumbersRow, 'day' | 'station_id' | 'station_name'>;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Sums of a numbers table. */
export function sumNumbers(rows: readonly NumbersRow[]): NumbersData['total'] {
  const t = { plays: 0, wins: 0, win_rate: 0, tc_taken: 0, refunds: 0, refunded_tc: 0, assist_payouts: 0 };
  for (const r of rows) {
    t.plays += r.plays;
    t.wins += r.wins;
    t.tc_taken += r.tc_taken;
    t.refunds += r.refunds;
    t.refunded_tc += r.refunded_tc;
    t.assist_payouts += r.assist_payouts;
  }
  t.win_rate = t.plays === 0 ? 0 : t.wins / t.plays;
  return t;
}

/** Plays, wins, win rate, TC taken, refunds and assist payouts per station per day (right `numbers`). */
@injectable()
export class OperatorNumbers extends OperatorScreen<NumbersData> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: Pick<OperatorApiPort, 'numbers'>,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, { from: '', to: '', rows: [], total: sumNumbers([]) });
  }

  /** Reads the days from `from` to `to` (JST days, YYYY-MM-DD, both included). */
  read(from: string, to: string): Promise<void> {
    if (!ISO_DAY.test(from) || !ISO_DAY.test(to)) return Promise.resolve();
    const [a, b] = from <= to ? [from, to] : [to, from];
    return this.load(async () => {
      const rows = await this.api.numbers(a, b);
      return { from: a, to: b, rows, total: sumNumbers(rows) };
    });
  }
}
