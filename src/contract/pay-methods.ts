import { payMethodOrder, type BuildTarget, type PayMethodKind, type PayMethodRank } from '../domain';
import { PAY_METHOD_TEXTS } from './messages';
import type { PayMethodEntry, PayMethodId } from './purchase.schema';

interface PayMethodDef {
  readonly id: PayMethodId;
  readonly kind: PayMethodKind;
  readonly rank: PayMethodRank;
}

/**
 * The service's pay methods, in the web order of R9-6 (one table for the server and the client).
 * Generic names only (no provider brands). Ranks: 0 cards, 1 mobile payment, 2 carrier billing and
 * e-money, 3 the two web/app-specific methods that R9-6 adds with rank 3.
 */
export const PAY_METHODS: readonly PayMethodDef[] = [
  { id: 'credit_card', kind: 'credit_card', rank: 0 },
  { id: 'credit_card_3ds', kind: 'credit_card_3ds', rank: 0 },
  { id: 'device_wallet', kind: 'device_wallet', rank: 3 },
  { id: 'account_payment', kind: 'account_payment', rank: 3 },
  { id: 'mobile_payment_a', kind: 'mobile_payment', rank: 1 },
  { id: 'mobile_payment_b', kind: 'mobile_payment', rank: 1 },
  { id: 'carrier_billing_a', kind: 'carrier_billing', rank: 2 },
  { id: 'carrier_billing_b', kind: 'carrier_billing', rank: 2 },
  { id: 'carrier_billing_c', kind: 'carrier_billing', rank: 2 },
  { id: 'emoney_a', kind: 'e_money', rank: 2 },
  { id: 'emoney_b', kind: 'e_money', rank: 2 },
];

/** The image key of a pay method's icon (served as `${apiPrefix}/images/${key}.svg`). */
export function payMethodImageKey(id: PayMethodId): string {
  return `pay-${id.replace(/_/g, '-')}`;
}

/**
 * The pay methods of a build target, in display order [R9-6][R3-12], by the domain's
 * payMethodOrder: web: credit card, 3-D Secure card, device wallet, account-based payment, then
 * mobile payment, carrier billing and e-money; ios omits the device wallet (account-based stays);
 * android, yahoo and mobage have neither (R6-7). The device wallet is listed on web; whether this
 * browser has one is the client's check (the domain's arrangePayMethods drops it when unavailable).
 */
export function payMethodsFor(target: BuildTarget, imageUrl: (id: PayMethodId) => string): PayMethodEntry[] {
  const order = payMethodOrder(target);
  return PAY_METHODS.filter((d) => order.includes(d.kind))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((d) => ({ id: d.id, kind: d.kind, ...PAY_METHOD_TEXTS[d.id], imgUrl: imageUrl(d.id), rank_id: d.rank }));
}

/** Whether `id` names a pay method the target offers [R9-6, R6-7]. */
export function isPayMethodOf(target: BuildTarget, id: string): id is PayMethodId {
  return payMethodsFor(target, () => '').some((m) => m.id === id);
}

/** Whether a pay method is carrier billing (capped at CARRIER_BILLING_MAX_PRICE a purchase). */
export const isCarrierBilling = (id: string): boolean => id.startsWith('carrier_billing_');
