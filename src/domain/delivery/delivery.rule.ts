import {
  DELIVERY_STATUS_GROUP,
  type DeliveryDetailPrize,
  type DeliveryGroup,
  type DeliveryListItem,
  type DeliveryStatus,
  type UnsentPrize,
  type UnsentPrizeWire,
} from './delivery.entity';

/** The group of a status [R4.5-1]; a status this client does not know counts as invalid. */
export function deliveryGroup(status: DeliveryStatus | string): DeliveryGroup {
  return (DELIVERY_STATUS_GROUP as Readonly<Record<string, DeliveryGroup>>)[status] ?? 'invalid';
}

/** Delivery history split into before, after and invalid lists, each in the original order [R4.5-1]. */
export function groupDeliveries<T extends Pick<DeliveryListItem, 'delivery_status'>>(
  items: readonly T[],
): Readonly<Record<DeliveryGroup, readonly T[]>> {
  return {
    before: items.filter((i) => deliveryGroup(i.delivery_status) === 'before'),
    after: items.filter((i) => deliveryGroup(i.delivery_status) === 'after'),
    invalid: items.filter((i) => deliveryGroup(i.delivery_status) === 'invalid'),
  };
}

/** One kuji_name group of a delivery detail. */
export interface DeliveryDetailGroup {
  readonly kuji_name: string;
  readonly prizes: readonly DeliveryDetailPrize[];
}

/** prizeData grouped by kuji_name, groups in order of first appearance, prizes in order [R3-14]. */
export function groupDeliveryDetail(prizeData: readonly DeliveryDetailPrize[]): readonly DeliveryDetailGroup[] {
  const groups = new Map<string, DeliveryDetailPrize[]>();
  for (const prize of prizeData) {
    const list = groups.get(prize.kuji_name);
    if (list) list.push(prize);
    else groups.set(prize.kuji_name, [prize]);
  }
  return [...groups].map(([kuji_name, prizes]) => ({ kuji_name, prizes }));
}

/** The value shown for an unsent prize's missing fields [R3-15]. */
export const UNSENT_PLACEHOLDER = '-';

/** An unsent prize with prize_shipmented_at defaulting to '-' [R3-15]; a missing contact number becomes ''. */
export function unsentPrize(wire: UnsentPrizeWire): UnsentPrize {
  const shipped = wire.prize_shipmented_at;
  return {
    prize_contact_number: wire.prize_contact_number ?? '',
    prize_shipmented_at:
      shipped === null || shipped === undefined || shipped.trim() === '' ? UNSENT_PLACEHOLDER : shipped,
  };
}

/**
 * Order-made prize delivery check [R5-4]: flagged when the unsent list for the chosen item is
 * longer than the current count (the player would leave some of it behind).
 */
export function isOrderMadeDeliveryFlagged(unsentForItem: readonly unknown[], currentCount: number): boolean {
  return unsentForItem.length > currentCount;
}
