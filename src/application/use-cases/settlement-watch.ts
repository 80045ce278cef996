import { firstValueFrom } from 'rxjs';
import type { Settlement } from '../../domain';
import type { ClockPort } from '../ports/clock.port';
import type { WalletPort } from '../ports/wallet.port';
import type { TrackEvent } from './track-event.use-case';

/** How often, and how many times, a pending settlement is read again after the provider sent the player back. */
export const SETTLEMENT_CHECK_INTERVAL_MS = 1_000;
export const SETTLEMENT_CHECKS = 15;

const wait = (clock: ClockPort, ms: number) => new Promise<void>((done) => clock.setTimeout(done, ms));

/**
 * Reads a settlement until it is no longer pending (the provider's callback usually lands before the
 * player is sent back; a slow one is waited for a little). Answers the last reading: still pending
 * after every check means the service has not heard from the provider yet.
 */
export async function settlementAfterPayment(
  wallet: Pick<WalletPort, 'settlement'>,
  clock: ClockPort,
  id: string,
  isCurrent: () => boolean = () => true,
): Promise<Settlement> {
  let s = await firstValueFrom(wallet.settlement(id));
  for (let i = 1; s.status === 'pending' && i < SETTLEMENT_CHECKS && isCurrent(); i += 1) {
    await wait(clock, SETTLEMENT_CHECK_INTERVAL_MS);
    s = await firstValueFrom(wallet.settlement(id));
  }
  return s;
}

/**
 * Sends a completed purchase's analytics: buy_tc with its price, and conversion for the first
 * purchase, each exactly once per settlement — the service hands the right to report out once, so a
 * reload, a second tab or a repeated callback sends nothing more. A failure is dropped (analytics never
 * reach the player).
 */
export async function reportPurchase(
  wallet: Pick<WalletPort, 'settlementReport'>,
  track: Pick<TrackEvent, 'track'>,
  settlement: Settlement,
): Promise<void> {
  if (settlement.status !== 'completed') return;
  try {
    const report = await firstValueFrom(wallet.settlementReport(settlement.productSettlementId));
    if (report.buyTc) track.track('buy_tc', { price: report.buyTc.price });
    if (report.buyTc && report.conversion) track.track('conversion', {});
  } catch {
    // Analytics are best effort.
  }
}
