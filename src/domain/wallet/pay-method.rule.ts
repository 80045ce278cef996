import type { BuildTarget } from '../build-target';

/** Pay method rank: 0 to 3 [R3-12, R9-6]. Methods the client adds itself get rank 3. */
export type PayMethodRank = 0 | 1 | 2 | 3;

export const PAY_METHOD_RANKS: readonly PayMethodRank[] = [0, 1, 2, 3];

/**
 * The kind of a pay method. The spec shows the order of kinds but no identifiers, so `kind` is our
 * addition to the wire record: the server names each method's kind, the client orders by it.
 */
export const PAY_METHOD_KINDS = [
  'credit_card',
  'credit_card_3ds',
  'device_wallet',
  'account_payment',
  'mobile_payment',
  'carrier_billing',
  'e_money',
] as const;
export type PayMethodKind = (typeof PAY_METHOD_KINDS)[number];

/** A pay method (spec §3): name, info, imgUrl, rank_id 0–3, plus our `kind` [R3-12]. */
export interface PayMethod {
  readonly kind: PayMethodKind;
  readonly name: string;
  readonly info: string;
  readonly imgUrl: string;
  readonly rank_id: PayMethodRank;
}

export function isPayMethodRank(value: unknown): value is PayMethodRank {
  return value === 0 || value === 1 || value === 2 || value === 3;
}

const WEB_ORDER: readonly PayMethodKind[] = PAY_METHOD_KINDS;

/**
 * The order of pay-method kinds on a target [R9-6, R6-7]. web: credit card, 3-D Secure credit
 * card, device wallet, account-based payment, then mobile payment, carrier billing and e-money.
 * ios: the same without the device wallet. android, yahoo, mobage (the spec does not show theirs):
 * without the device wallet and the account-based payment, which are offered only on web (and ios).
 */
export function payMethodOrder(target: BuildTarget): readonly PayMethodKind[] {
  if (target === 'web') return WEB_ORDER;
  if (target === 'ios') return WEB_ORDER.filter((k) => k !== 'device_wallet');
  return WEB_ORDER.filter((k) => k !== 'device_wallet' && k !== 'account_payment');
}

/** Display data of the methods the client adds itself (from configuration). */
export interface AddedPayMethods {
  readonly accountPayment: Pick<PayMethod, 'name' | 'info' | 'imgUrl'>;
  readonly deviceWallet: Pick<PayMethod, 'name' | 'info' | 'imgUrl'>;
  /** Whether the browser offers a device wallet (checked by an adapter). */
  readonly deviceWalletAvailable: boolean;
}

/**
 * The list a target shows [R9-6, R6-7]: the server's methods, plus the account-based payment (web,
 * ios) and the device wallet (web, when available) with rank 3, keeping only kinds the target
 * allows, ordered by `payMethodOrder` (stable within a kind). A method the server already lists
 * is not added twice.
 */
export function arrangePayMethods(
  serverList: readonly PayMethod[],
  target: BuildTarget,
  added: AddedPayMethods,
): readonly PayMethod[] {
  const order = payMethodOrder(target);
  const has = (kind: PayMethodKind): boolean => serverList.some((m) => m.kind === kind);
  const extra: PayMethod[] = [];
  if ((target === 'web' || target === 'ios') && !has('account_payment')) {
    extra.push({ kind: 'account_payment', ...added.accountPayment, rank_id: 3 });
  }
  if (target === 'web' && added.deviceWalletAvailable && !has('device_wallet')) {
    extra.push({ kind: 'device_wallet', ...added.deviceWallet, rank_id: 3 });
  }
  return [...serverList, ...extra]
    .filter((m) => order.includes(m.kind) && (m.kind !== 'device_wallet' || added.deviceWalletAvailable))
    .map((m, i) => ({ m, i }))
    .sort((a, b) => order.indexOf(a.m.kind) - order.indexOf(b.m.kind) || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The account-based payment's path segment (§2.1 /purchase/{account-payment-slug}): the provider's
 * own name, which the spec does not print; ours is this. Any other slug is the 404 page [R2.1-5].
 */
export const ACCOUNT_PAYMENT_SLUG = 'account-pay';

/** The settlement ids the service issues (UUIDs); the result route's validation rule [R2.1-5]. */
export function isSettlementId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}
