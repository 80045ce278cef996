import { DELIVERY_FEE_TC, KUJI_PER_DELIVERY_PARCEL } from '../constants';
import type { DeliveryLine, DeliveryPrizeKind } from './delivery.entity';

/**
 * Delivery charge in TC for `count` prizes of one kind [R9-1]: 8000 per crane or order-made
 * prize; kuji ship 15 to a parcel, ceil(count / 15) × 8000. Throws RangeError for a count that is
 * not a whole, non-negative number.
 */
export function deliveryFeeTc(kind: DeliveryPrizeKind, count: number): number {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`A prize count is a whole, non-negative number (got ${count})`);
  if (kind === 'kuji') return Math.ceil(count / KUJI_PER_DELIVERY_PARCEL) * DELIVERY_FEE_TC;
  return count * DELIVERY_FEE_TC;
}

/** The charge for one delivery request. */
export interface DeliveryCharge {
  /** The charge before any waiver. */
  readonly baseFeeTc: number;
  /** What the player pays. */
  readonly feeTc: number;
  readonly waived: boolean;
}

/**
 * The charge of a delivery request [R9-1, R5-3]. Kuji lines are added up before rounding (20 kuji
 * from two lines is two parcels, not two half-empty ones). The whole charge is waived when the
 * player holds a delivery ticket and the request contains normal crane prizes.
 */
export function deliveryCharge(lines: readonly DeliveryLine[], hasDeliveryTicket: boolean): DeliveryCharge {
  const total = (kind: DeliveryPrizeKind): number =>
    lines.filter((l) => l.kind === kind).reduce((n, l) => n + l.count, 0);
  const baseFeeTc =
    deliveryFeeTc('crane', total('crane')) +
    deliveryFeeTc('orderMade', total('orderMade')) +
    deliveryFeeTc('kuji', total('kuji'));
  const waived = isDeliveryFeeWaived(hasDeliveryTicket, total('crane'));
  return { baseFeeTc, feeTc: waived ? 0 : baseFeeTc, waived };
}

/** The delivery fee is waived when a delivery ticket is held and normal cranes exist [R5-3]. */
export function isDeliveryFeeWaived(hasDeliveryTicket: boolean, normalCraneCount: number): boolean {
  return hasDeliveryTicket && normalCraneCount > 0;
}
