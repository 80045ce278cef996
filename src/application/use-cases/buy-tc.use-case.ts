import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import {
  PURCHASE_MESSAGES,
  purchaseModalEntry,
  refusalText,
  settlementFailureText,
  type PayMethodOption,
  type Settlement,
  type SpendingLimitInfo,
  type TcInfo,
  type TcProduct,
} from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { ClockPort } from '../ports/clock.port';
import type { SessionPort } from '../ports/session.port';
import type { ProductList, WalletPort } from '../ports/wallet.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import { reportPurchase, settlementAfterPayment } from './settlement-watch';
import { StateStore } from './state-store';
import type { TrackEvent } from './track-event.use-case';

/** The pay method that leaves the page for the provider's own start page (/purchase/{slug}). */
export const ACCOUNT_PAYMENT_METHOD = 'account_payment';

export type BuyTcState =
  | { readonly kind: 'loading' }
  /** Buying needs a signed-in player [R2.5-4, R6-1]. */
  | { readonly kind: 'signIn' }
  /** No birth date registered: the age step comes first [R2.5-5]. */
  | { readonly kind: 'age'; readonly busy: boolean; readonly error: string | null }
  /** The top step: balance, pay methods, products, the month's cap. */
  | {
      readonly kind: 'top';
      readonly balance: TcInfo;
      readonly methods: readonly PayMethodOption[];
      readonly method: string;
      readonly list: ProductList | null;
      /** The product list's load error: the service's error_info [R8-9]. */
      readonly productError: string | null;
      /** The player's spending limit and the month's caps [R10-3]; null if it could not be read. */
      readonly limit: SpendingLimitInfo | null;
      readonly busy: boolean;
      readonly error: string | null;
    }
  /** The account-based payment continues on its start page with the chosen product. */
  | { readonly kind: 'handOff'; readonly productId: number }
  /** The iframe step: the provider's page for this settlement. `checking` once the provider sent the player back. */
  | {
      readonly kind: 'paying';
      readonly settlement: Settlement;
      readonly product: TcProduct;
      readonly checking: boolean;
    }
  /** TC added: the new balance and the bonus tickets. */
  | {
      readonly kind: 'complete';
      readonly settlement: Settlement;
      readonly balance: TcInfo;
      readonly product: TcProduct;
    }
  /** The player cancelled at the provider, or the payment expired. */
  | { readonly kind: 'cancelled'; readonly message: string }
  /** The provider or the service refused or failed: its Japanese message. */
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Buying TC: the purchase modal's steps (spec §2.5 purchase: age, top, iframe, complete, cancel,
 * error). Login first [R2.5-4]; with no birth date the age step [R2.5-5]; then the balance, the pay
 * methods of the build target in rank order, the products offered with the chosen one with their
 * bonus labels, and this month's cap. Buying opens a settlement (a request id makes a resend safe)
 * and shows the provider's page; when the provider sends the player back, the settlement's end
 * decides complete, cancel or error. A completed purchase refreshes the player's data (balance,
 * VIP) and reports buy_tc / conversion once. Scoped to one modal.
 */
@injectable()
export class BuyTc extends StateStore<BuyTcState> {
  private requestSeq = 0;

  constructor(
    @inject(TOKENS.WalletPort)
    private readonly wallet: Pick<
      WalletPort,
      'balance' | 'payMethods' | 'products' | 'purchase' | 'settlement' | 'settlementReport' | 'spendingLimit'
    >,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'setProfile'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.TrackEvent) private readonly analytics: Pick<TrackEvent, 'track'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ kind: 'loading' });
  }

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState({ kind: 'signIn' });
      return;
    }
    this.setState({ kind: 'loading' });
    try {
      const [balance, methods, list, limit] = await Promise.all([
        firstValueFrom(this.wallet.balance()),
        firstValueFrom(this.wallet.payMethods()),
        this.productsOf(undefined),
        this.limitNow(),
      ]);
      const entry = purchaseModalEntry({ signedIn: true, registeredBirth: list.value?.registeredBirth ?? true });
      if (entry === 'age') {
        this.setState({ kind: 'age', busy: false, error: null });
        return;
      }
      const method = methods[0]?.id ?? '';
      const forMethod = method ? await this.productsOf(method) : list;
      this.setState({
        kind: 'top',
        balance,
        methods,
        method,
        list: forMethod.value,
        productError: forMethod.error,
        limit,
        busy: false,
        error: null,
      });
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }

  /** The age step: registers the birth date ('YYYY-MM-DD'), then opens the top step. */
  async registerBirth(birth: string): Promise<void> {
    if (this.snapshot.kind !== 'age' || this.snapshot.busy) return;
    this.setState({ kind: 'age', busy: true, error: null });
    try {
      await firstValueFrom(this.account.setProfile({ birth }));
      await this.start();
    } catch (error) {
      this.setState({ kind: 'age', busy: false, error: refusalText(error) });
    }
  }

  /** Chooses a pay method and loads the products offered with it. */
  async chooseMethod(method: string): Promise<void> {
    const top = this.top();
    if (!top || top.busy || !top.methods.some((m) => m.id === method)) return;
    this.setState({ ...top, method, busy: true, error: null });
    const list = await this.productsOf(method);
    const now = this.top();
    if (now && now.method === method)
      this.setState({ ...now, list: list.value, productError: list.error, busy: false });
  }

  /**
   * Buys `productId` with the chosen method: the account-based payment hands off to its start page;
   * the others open the provider's page (the iframe step). A refusal (a cap, no birth date) stays on
   * the top step with the service's message, before any provider is called.
   */
  async buy(productId: number): Promise<void> {
    const top = this.top();
    const product = top?.list?.products.find((p) => p.productId === productId);
    if (!top || top.busy || !product) return;
    if (top.method === ACCOUNT_PAYMENT_METHOD) {
      this.setState({ kind: 'handOff', productId });
      return;
    }
    this.setState({ ...top, busy: true, error: null });
    try {
      const { settlement } = await firstValueFrom(this.wallet.purchase(productId, top.method, this.requestId()));
      if (settlement.status === 'pending' && settlement.paymentUrl)
        this.setState({ kind: 'paying', settlement, product, checking: false });
      else await this.ended(settlement, product);
    } catch (error) {
      const now = this.top();
      if (now) this.setState({ ...now, busy: false, error: refusalText(error) });
    }
  }

  /** The provider sent the player back to the shop (the iframe reached the return page): how did it end? */
  async returned(): Promise<void> {
    const s = this.snapshot;
    if (s.kind !== 'paying' || s.checking) return;
    this.setState({ ...s, checking: true });
    try {
      const settlement = await settlementAfterPayment(
        this.wallet,
        this.clock,
        s.settlement.productSettlementId,
        () => !this.disposed,
      );
      await this.ended(settlement, s.product);
    } catch (error) {
      this.setState({ kind: 'failed', message: refusalText(error) });
    }
  }

  private async ended(settlement: Settlement, product: TcProduct): Promise<void> {
    if (settlement.status === 'completed') {
      const balance = await firstValueFrom(this.wallet.balance()).catch(() => null);
      this.currentUser.reload();
      await reportPurchase(this.wallet, this.analytics, settlement);
      this.setState({
        kind: 'complete',
        settlement,
        product,
        balance: balance ?? { tc_all: 0, tc_free: 0, tc_toll: 0 },
      });
      return;
    }
    if (settlement.status === 'cancelled') {
      this.setState({ kind: 'cancelled', message: settlement.failureInfo ?? settlementFailureText('cancelled') });
      return;
    }
    if (settlement.status === 'failed') {
      this.setState({ kind: 'failed', message: settlement.failureInfo ?? settlementFailureText(null) });
      return;
    }
    // Still pending: the provider has not told the service yet.
    this.setState({ kind: 'failed', message: PURCHASE_MESSAGES.stillPending });
  }

  /** The month's cap for the top step; without it the step still works (the service checks anyway). */
  private async limitNow(): Promise<SpendingLimitInfo | null> {
    try {
      return await firstValueFrom(this.wallet.spendingLimit());
    } catch {
      return null;
    }
  }

  private async productsOf(method: string | undefined): Promise<{ value: ProductList | null; error: string | null }> {
    try {
      return { value: await firstValueFrom(this.wallet.products(method)), error: null };
    } catch (error) {
      return { value: null, error: refusalText(error) };
    }
  }

  /** One id per purchase attempt, so a resend never buys twice. */
  private requestId(): string {
    this.requestSeq += 1;
    const random = Math.random().toString(36).slice(2, 12);
    return `buy-${this.clock.now().toString(36)}-${this.requestSeq}-${random}`;
  }

  private top(): Extract<BuyTcState, { kind: 'top' }> | null {
    return this.snapshot.kind === 'top' ? this.snapshot : null;
  }
}
