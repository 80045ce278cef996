import type { Charged, PlayCurrency, RoomWrite } from '../../../src/domain';
import type { SqlExecutor } from '../../store/store';
import type { DailyFreePlays } from '../../wallet/daily-free-plays';
import type { Ledger } from '../../wallet/ledger';
import type { PlayLedger } from './play-ports';

/**
 * A play's money in the TC and ticket ledgers. The charge carries the key `play:<id>` and the
 * refund `refund:play:<id>`, so a retried step, a second fault or a restart can neither charge nor
 * refund a play twice; the refund gives back exactly what the charge took: its paid TC, and its free
 * TC into the lots it came from [R11-7].
 */
export class LedgerPlayLedger implements PlayLedger {
  constructor(
    private readonly ledger: Ledger,
    private readonly dailyFree: DailyFreePlays,
  ) {}

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
      // The day's free play pays before any ticket [R11-8].
      if (price === 1 && (await this.dailyFree.use(tx, userId, playId))) return { free: 0, toll: 0 };
      await this.ledger.debitTickets(userId, entry, tx);
      return { free: 0, toll: 0 };
    }
    return { free: 0, toll: 0 };
  }

  async refund(tx: SqlExecutor, refund: Extract<RoomWrite, { kind: 'refund' }>): Promise<void> {
    const entry = {
      reason: 'refund',
      reference: `play:${refund.playId}`,
      idempotencyKey: `refund:play:${refund.playId}`,
    };
    if (refund.currency === 'tc') {
      // The free TC back into the lots the charge took it from [R11-7].
      const back = await this.ledger.refund(refund.userId, `play:${refund.playId}`, entry, tx);
      if (back.free !== refund.charged.free || back.toll !== refund.charged.toll)
        throw new Error(
          `play ${refund.playId}: the ledger refunds ${back.free}+${back.toll}, the room charged ${refund.charged.free}+${refund.charged.toll}`,
        );
    } else if (refund.currency === 'ticket') {
      // A free play comes back usable while its day lasts; after it, as a ticket [R11-8].
      if ((await this.dailyFree.restore(tx, refund.playId)) === 'restored') return;
      await this.ledger.creditTickets(refund.userId, { ...entry, amount: refund.price }, tx);
    }
  }
}
