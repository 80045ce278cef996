import type { Charged, PlayCurrency, RoomWrite } from '../../../src/domain';
import type { SqlExecutor } from '../../store/store';
import type { Ledger } from '../../wallet/ledger';
import type { PlayLedger } from './play-ports';

/**
 * A play's money in the TC and ticket ledgers. The charge carries the key `play:<id>` and the
 * refund `refund:play:<id>`, so a retried step, a second fault or a restart can neither charge nor
 * refund a play twice; the refund gives back exactly what the charge took from each half.
 */
export class LedgerPlayLedger implements PlayLedger {
  constructor(private readonly ledger: Ledger) {}

  async charge(
    tx: SqlExecutor,
    userId: number,
    playId: number,
    currency: PlayCurrency,
    price: number,
  ): Promise<Charged> {
    const entry = { amount: price, reason: 'play', reference: `play:${playId}`, idempotencyKey: `play:${playId}` };
    if (currency === 'tc' && price > 0) {
      const { taken } = await this.ledger.debit(userId, entry, tx);
      return taken;
    }
    if (currency === 'ticket') {
      await this.ledger.debitTickets(userId, entry, tx);
      return { free: 0, toll: 0 };
    }
    return { free: 0, toll: 0 };
  }

  async refund(tx: SqlExecutor, refund: Extract<RoomWrite, { kind: 'refund' }>): Promise<void> {
    const entry = (amount: number) => ({
      amount,
      reason: 'refund',
      reference: `play:${refund.playId}`,
      idempotencyKey: `refund:play:${refund.playId}`,
    });
    if (refund.currency === 'tc') {
      if (refund.charged.free > 0) await this.ledger.credit(refund.userId, 'free', entry(refund.charged.free), tx);
      if (refund.charged.toll > 0) await this.ledger.credit(refund.userId, 'toll', entry(refund.charged.toll), tx);
    } else if (refund.currency === 'ticket') {
      await this.ledger.creditTickets(refund.userId, entry(refund.price), tx);
    }
  }
}
