import { inject, injectable } from 'inversify';
import { verifyKujiBox, type KujiBoxStatus, type KujiVerification } from '../../domain';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { KujiBoxView, OperatorApiPort } from './ports/operator-api.port';

export type KujiActionName = 'status' | 'stock';

/**
 * Kuji boxes (right `kuji`): stock per rank, opening and ending a sale, the stock set before a box
 * opens, and the published commitment and seed, checked in the browser with the same verification
 * the players' page uses (`verifyKujiBox`).
 */
@injectable()
export class OperatorKuji extends OperatorScreen<readonly KujiBoxView[], KujiActionName> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused'>,
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
 * Checks a box's published seed against its commitment (the box's full stock, no draws needed:
 * the order the seed fixes must hash to what was published). Null until the seed is published.
 */
export function checkKujiSeed(box: KujiBoxView): KujiVerification | null {
  if (!box.seed || !box.commitment) return null;
  return verifyKujiBox({
    boxId: box.box_id,
    seed: box.seed,
    commitment: box.commitment,
    stock: box.prizes.map((p) => ({ rank: p.rank, quantity: p.quantity })),
    draws: [],
  });
}
