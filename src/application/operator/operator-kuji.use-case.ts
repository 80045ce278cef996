import { inject, injectable } from 'inversify';
import { verifyKujiBox, type KujiBoxStatus, type KujiFairnessRecord, type KujiVerification } from '../../domain';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { KujiBoxView, OperatorApiPort } from './ports/operator-api.port';

export type KujiActionName = 'status' | 'stock' | 'verify';

/**
 * Kuji boxes (right `kuji`): stock per rank, opening and ending a sale, the stock set before a box
 * opens, and the published commitment and seed, checked in the browser with the same verification
 * the players' page uses (`verifyKujiBox`).
 */
@injectable()
export class OperatorKuji extends OperatorScreen<readonly KujiBoxView[], KujiActionName> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, []);
  }

  refresh(): Promise<void> {
    return this.load(() => this.api.kujiBoxes());
  }

  async setStatus(boxId: number, status: KujiBoxStatus): Promise<KujiBoxStatus | null> {
    const done = await this.act('status', () => this.api.kujiBoxStatus(boxId, status));
    if (done !== null) await this.refresh();
    return done;
  }

  /**
   * Checks a box in the browser: reads its published fairness record and verifies it with the
   * players' own check (the seed re-derives an order hashing to the commitment, every draw got the
   * rank at its position). Resolves with the verification, or null when the seed is not published
   * yet or the record could not be read.
   */
  verify(boxId: number): Promise<KujiVerification | null> {
    return this.act('verify', async () => checkKujiFairness(await this.api.kujiFairness(boxId)));
  }

  async setStock(boxId: number, prizes: readonly { rank: string; quantity: number }[]): Promise<boolean> {
    const done = await this.act('stock', async () => {
      await this.api.kujiBoxStock(boxId, prizes);
      return true;
    });
    if (done) await this.refresh();
    return done === true;
  }
}

/**
 * Verifies a box's fairness record with the domain's `verifyKujiBox` (the check the players' page
 * runs): the stock it opened with, the seed, the commitment and every draw. Null until the seed is
 * published.
 */
export function checkKujiFairness(record: KujiFairnessRecord): KujiVerification | null {
  if (!record.seed) return null;
  return verifyKujiBox({
    boxId: record.box_id,
    seed: record.seed,
    commitment: record.commitment,
    stock: record.stock,
    draws: record.draws,
  });
}
