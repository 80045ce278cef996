import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { refusalText, type Settlement, type TcInfo, type TcProduct } from '../../domain';
import type { SessionPort } from '../ports/session.port';
import type { WalletPort } from '../ports/wallet.port';
import type { ClockPort } from '../ports/clock.port';
import type { NavigatorPort } from '../ports/navigator.port';
import type { CurrentUser } from './current-user.use-case';
import { reportPurchase, settlementAfterPayment } from './settlement-watch';
import type { TrackEvent } from './track-event.use-case';
import { TOKENS } from '../tokens';
import { ACCOUNT_PAYMENT_METHOD } from './buy-tc.use-case';
import { StateStore } from './state-store';

export type AccountPaymentState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'signIn' }
  /** The start page: the product to pay for by account transfer. */
  | { readonly kind: 'confirm'; readonly product: TcProduct; readonly busy: boolean; readonly error: string | null }
  /** The settlement is open: the player is on their way to the provider's bank pages. */
  | { readonly kind: 'redirecting'; readonly paymentUrl: string }
  /** The result page: one of the player's settlements (another player's id is refused by the service). */
  | { readonly kind: 'result'; readonly settlement: Settlement; readonly balance: TcInfo | null }
  /** No such product with the account payment, or no such settlement of this player. */
  | { readonly kind: 'notFound' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The account-based payment's two pages (§2.1 /purchase/{slug} and its result): confirm the product,
 * open the settlement (made safe to resend by a request id) and go to the provider's bank pages,
 * which send the player back to the result page; it reads the settlement until the provider's
 * callback has decided it, and reports a completed purchase once. Page-scoped.
 */
@injectable()
export class AccountPayment extends StateStore<AccountPaymentState> {
  private readonly requestId = `acct-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

  constructor(
    @inject(TOKENS.WalletPort)
    private readonly wallet: Pick<WalletPort, 'products' | 'purchase' | 'settlement' | 'balance' | 'settlementReport'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
    @inject(TOKENS.NavigatorPort) private readonly navigator: Pick<NavigatorPort, 'goTo'>,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.TrackEvent) private readonly analytics: Pick<TrackEvent, 'track'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
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
      const url = result.settlement.paymentUrl;
      if (result.settlement.status === 'pending' && url) {
        this.setState({ kind: 'redirecting', paymentUrl: url });
        // The provider's bank pages are whole pages; they send the player back to the result page.
        this.navigator.goTo(url);
      } else this.setState({ ...s, busy: false, error: result.settlement.failureInfo ?? refusalText(null) });
    } catch (error) {
      this.setState({ ...s, busy: false, error: refusalText(error) });
    }
  }

  /** The result page of `productSettlementId`. */
  async result(productSettlementId: string): Promise<void> {
    if (!this.signedIn()) return;
    try {
      const settlement = await settlementAfterPayment(
        this.wallet,
        this.clock,
        productSettlementId,
        () => !this.disposed,
      );
      const balance = await firstValueFrom(this.wallet.balance()).catch(() => null);
      if (settlement.status === 'completed') {
        this.currentUser.reload();
        await reportPurchase(this.wallet, this.analytics, settlement);
      }
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
