import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { refusalText, type SpendingLimitInfo } from '../../domain';
import type { SessionPort } from '../ports/session.port';
import type { WalletPort } from '../ports/wallet.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface SpendingLimitState {
  readonly signedOut: boolean;
  readonly limit: SpendingLimitInfo | null;
  readonly busy: boolean;
  readonly error: string | null;
  /** The last save went through (the screen says so). */
  readonly saved: boolean;
}

/**
 * The player's own monthly spending limit in the config modal [R10-3]: read it, set it (lowering is
 * at once, raising or removing waits 24 hours — the service decides and answers the limit as it
 * stands), remove it. Scoped to the modal.
 */
@injectable()
export class SpendingLimitSetting extends StateStore<SpendingLimitState> {
  constructor(
    @inject(TOKENS.WalletPort) private readonly wallet: Pick<WalletPort, 'spendingLimit' | 'setSpendingLimit'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ signedOut: false, limit: null, busy: false, error: null, saved: false });
  }

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, signedOut: true }));
      return;
    }
    this.setState((s) => ({ ...s, busy: true }));
    try {
      const limit = await firstValueFrom(this.wallet.spendingLimit());
      this.setState((s) => ({ ...s, limit, busy: false, error: null }));
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
    }
  }

  /** Sets the limit in yen (null removes it). */
  async save(limitYen: number | null): Promise<void> {
    if (this.snapshot.busy || this.snapshot.signedOut) return;
    this.setState((s) => ({ ...s, busy: true, error: null, saved: false }));
    try {
      const limit = await firstValueFrom(this.wallet.setSpendingLimit(limitYen));
      this.setState((s) => ({ ...s, limit, busy: false, saved: true }));
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
    }
  }
}
