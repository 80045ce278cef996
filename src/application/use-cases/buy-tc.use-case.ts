import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import {
  purchaseModalEntry,
  refusalText,
  type PayMethodOption,
  type Settlement,
  type TcInfo,
  type TcProduct,
} from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { SessionPort } from '../ports/session.port';
import type { ProductList, WalletPort } from '../ports/wallet.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/** The pay method that leaves the page for the provider's own start page (/purchase/{slug}). */
export const ACCOUNT_PAYMENT_METHOD = 'account_payment';

export type BuyTcState =
  | { readonly kind: 'loading' }
  /** Buying needs a signed-in player [R2.5-4, R6-1]. */
  | { readonly kind: 'signIn' }
  /** No birth date registered: the age step comes first [R2.5-5]. */
  | { readonly kind: 'age'; readonly busy: boolean; readonly error: string | null }
  | {
      readonly kind: 'shop';
      readonly balance: TcInfo;
      readonly methods: readonly PayMethodOption[];
      readonly method: string;
      readonly list: ProductList | null;
      /** The product list's load error: the service's error_info [R8-9]. */
      readonly productError: string | null;
      readonly busy: boolean;
      readonly error: string | null;
    }
  /** The account-based payment continues on its start page with the chosen product. */
  | { readonly kind: 'handOff'; readonly productId: number }
  | { readonly kind: 'done'; readonly settlement: Settlement; readonly balance: TcInfo; readonly product: TcProduct }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Buying TC (the settlement page): the signed-in player's balance, the pay methods of the build
 * target, the products offered with the chosen method, and the purchase, made safe to resend by a
 * request id. With no birth date the age step comes first. Page-scoped.
 */
@injectable()
export class BuyTc extends StateStore<BuyTcState> {
  private requestSeq = 0;

  constructor(
    @inject(TOKENS.WalletPort)
    private readonly wallet: Pick<WalletPort, 'balance' | 'payMethods' | 'products' | 'purchase'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'setProfile'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ kind: 'loading' });
  }

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState({ kind: 'signIn' });
      return;
    }
    try {
      const [balance, methods, list] = await Promise.all([
        firstValueFrom(this.wallet.balance()),
        firstValueFrom(this.wallet.payMethods()),
        this.productsOf(undefined),
      ]);
      const entry = purchaseModalEntry({ signedIn: true, registeredBirth: list.value?.registeredBirth ?? true });
      if (entry === 'age') {
        this.setState({ kind: 'age', busy: false, error: null });
        return;
      }
      const method = methods[0]?.id ?? '';
      const forMethod = method ? await this.productsOf(method) : list;
      this.setState({
        kind: 'shop',
        balance,
        methods,
        method,
        list: forMethod.value,
        productError: forMethod.error,
        busy: false,
        error: null,
      });
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }

  /** The age step: registers the birth date ('YYYY-MM-DD'), then opens the shop. */
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
    const shop = this.shop();
    if (!shop || shop.busy || !shop.methods.some((m) => m.id === method)) return;
    this.setState({ ...shop, method, busy: true, error: null });
    const list = await this.productsOf(method);
    const now = this.shop();
    if (now && now.method === method)
      this.setState({ ...now, list: list.value, productError: list.error, busy: false });
  }

  /** Buys `productId` with the chosen method; the account-based payment hands off to its start page. */
  async buy(productId: number): Promise<void> {
    const shop = this.shop();
    const product = shop?.list?.products.find((p) => p.productId === productId);
    if (!shop || shop.busy || !product) return;
    if (shop.method === ACCOUNT_PAYMENT_METHOD) {
      this.setState({ kind: 'handOff', productId });
      return;
    }
    this.setState({ ...shop, busy: true, error: null });
    try {
      const result = await firstValueFrom(this.wallet.purchase(productId, shop.method, this.requestId()));
      this.setState({ kind: 'done', settlement: result.settlement, balance: result.tc, product });
    } catch (error) {
      this.setState({ ...shop, busy: false, error: refusalText(error) });
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
    return `buy-${Date.now().toString(36)}-${this.requestSeq}-${random}`;
  }

  private shop(): Extract<BuyTcState, { kind: 'shop' }> | null {
    return this.snapshot.kind === 'shop' ? this.snapshot : null;
  }
}
