import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { refusalText, type Settlement, type TcInfo, type TcProduct } from '../../domain';
import type { SessionPort } from '../ports/session.port';
import type { WalletPort } from '../ports/wallet.port';
import { TOKENS } from '../tokens';
import { ACCOUNT_PAYMENT_METHOD } from './buy-tc.use-case';
import { StateStore } from './state-store';

export type AccountPaymentState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'signIn' }
  /** The start page: the product to pay for by account transfer. */
  | { readonly kind: 'confirm'; readonly product: TcProduct; readonly busy: boolean; readonly error: string | null }
  /** Paid: the service's settlement id names the result page. */
  | { readonly kind: 'paid'; readonly productSettlementId: string }
  /** The result page: one of the player's settlements (another player's id is refused by the service). */
  | { readonly kind: 'result'; readonly settlement: Settlement; readonly balance: TcInfo | null }
  /** No such product with the account payment, or no such settlement of this player. */
  | { readonly kind: 'notFound' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The account-based payment's two pages (§2.1 /purchase/{slug} and its result): confirm the product,
 * pay with the account payment method (made safe to resend by a request id), then read the result by
 * its settlement id. Page-scoped.
 */
@injectable()
export class AccountPayment extends StateStore<AccountPaymentState> {
  private readonly requestId = `acct-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

  constructor(
    @inject(TOKENS.WalletPort)
    private readonly wallet: Pick<WalletPort, 'products' | 'purchase' | 'settlement' | 'balance'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ kind: 'loading' });
  }

  /** The start page for `productId` (a product offered with the account payment). */
  async open(productId: number): Promise<void> {
    if (!this.signedIn()) return;
    try {
      const list = await firstValueFrom(this.wallet.products(ACCOUNT_PAYMENT_METHOD));
      const product = list.products.find((p) => p.productId === productId);
      this.setState(product ? { kind: 'confirm', product, busy: false, error: null } : { kind: 'notFound' });
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }

  async pay(): Promise<void> {
    const s = this.snapshot;
    if (s.kind !== 'confirm' || s.busy) return;
    this.setState({ ...s, busy: true, error: null });
    try {
      const result = await firstValueFrom(
        this.wallet.purchase(s.product.productId, ACCOUNT_PAYMENT_METHOD, this.requestId),
      );
      this.setState({ kind: 'paid', productSettlementId: result.settlement.productSettlementId });
    } catch (error) {
      this.setState({ ...s, busy: false, error: refusalText(error) });
    }
  }

  /** The result page of `productSettlementId`. */
  async result(productSettlementId: string): Promise<void> {
    if (!this.signedIn()) return;
    try {
      const settlement = await firstValueFrom(this.wallet.settlement(productSettlementId));
      const balance = await firstValueFrom(this.wallet.balance()).catch(() => null);
      this.setState({ kind: 'result', settlement, balance });
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }

  private signedIn(): boolean {
    if (this.session.current() !== null) return true;
    this.setState({ kind: 'signIn' });
    return false;
  }
}
