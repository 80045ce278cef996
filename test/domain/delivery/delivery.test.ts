import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATUSES,
  deliveryCharge,
  deliveryFeeTc,
  deliveryGroup,
  groupDeliveries,
  groupDeliveryDetail,
  isDeliveryFeeWaived,
  isOrderMadeDeliveryFlagged,
  unsentPrize,
  type DeliveryDetailPrize,
  type DeliveryLine,
} from '../../../src/domain';

const count = fc.integer({ min: 0, max: 10_000 });

describe('delivery fee', () => {
  it('[R9-1] charges 8000 TC per crane or order-made prize, for every count', () => {
    fc.assert(
      fc.property(count, (n) => {
        expect(deliveryFeeTc('crane', n)).toBe(n * 8000);
        expect(deliveryFeeTc('orderMade', n)).toBe(n * 8000);
      }),
    );
  });

  it('[R9-1] charges ceil(n/15) × 8000 TC for kuji, for every count', () => {
    fc.assert(
      fc.property(count, (n) => {
        const fee = deliveryFeeTc('kuji', n);
        expect(fee).toBe(Math.ceil(n / 15) * 8000);
        expect(fee % 8000).toBe(0);
        // One parcel more holds 15 more kuji: the fee never exceeds what the count needs.
        expect((fee / 8000) * 15).toBeGreaterThanOrEqual(n);
        expect((fee / 8000 - 1) * 15).toBeLessThan(Math.max(n, 1));
      }),
    );
    expect([0, 1, 15, 16, 30, 31].map((n) => deliveryFeeTc('kuji', n))).toEqual([0, 8000, 8000, 16000, 16000, 24000]);
  });

  it('[R9-1] refuses counts that are not whole and non-negative', () => {
    expect(() => deliveryFeeTc('kuji', -1)).toThrow(RangeError);
    expect(() => deliveryFeeTc('crane', 1.5)).toThrow(RangeError);
  });

  it('[R9-1] a request adds kuji lines before rounding up to parcels', () => {
    const lines: DeliveryLine[] = [
      { kind: 'kuji', count: 10 },
      { kind: 'kuji', count: 10 },
      { kind: 'orderMade', count: 1 },
    ];
    expect(deliveryCharge(lines, false)).toEqual({ baseFeeTc: 2 * 8000 + 8000, feeTc: 24000, waived: false });
  });

  it('[R5-3] the fee is waived when a delivery ticket is held and normal cranes exist', () => {
    fc.assert(
      fc.property(fc.boolean(), count, count, count, (ticket, cranes, kuji, orderMade) => {
        const lines: DeliveryLine[] = [
          { kind: 'crane', count: cranes },
          { kind: 'kuji', count: kuji },
          { kind: 'orderMade', count: orderMade },
        ];
        const charge = deliveryCharge(lines, ticket);
        const waived = ticket && cranes > 0;
        expect(charge.waived).toBe(waived);
        expect(isDeliveryFeeWaived(ticket, cranes)).toBe(waived);
        expect(charge.feeTc).toBe(waived ? 0 : charge.baseFeeTc);
      }),
    );
  });
});

describe('delivery lists', () => {
  it('[R4.5-1] statuses group into before, after and invalid lists, keeping order', () => {
    // A requested prize is on its way ("after"); "before" is a prize not yet requested (the prize box).
    expect(DELIVERY_STATUSES.map(deliveryGroup)).toEqual(['after', 'after', 'after', 'after', 'invalid', 'invalid']);
    expect(deliveryGroup('unknown-status')).toBe('invalid');
    const items = [
      { id: 1, delivery_status: 'shipped' },
      { id: 2, delivery_status: 'requested' },
      { id: 3, delivery_status: 'returned' },
      { id: 4, delivery_status: 'preparing' },
      { id: 5, delivery_status: 'delivered' },
      { id: 6, delivery_status: 'cancelled' },
    ] as const;
    const g = groupDeliveries(items);
    expect(g.before.map((i) => i.id)).toEqual([]);
    expect(g.after.map((i) => i.id)).toEqual([1, 2, 4, 5]);
    expect(g.invalid.map((i) => i.id)).toEqual([3, 6]);
  });

  it('[R4.5-1] every item lands in exactly one list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...DELIVERY_STATUSES).map((delivery_status) => ({ delivery_status }))),
        (items) => {
          const g = groupDeliveries(items);
          expect(g.before.length + g.after.length + g.invalid.length).toBe(items.length);
        },
      ),
    );
  });

  it('[R3-14] the delivery detail groups prizeData by kuji_name in order of first appearance', () => {
    const p = (kuji_name: string, product_name: string): DeliveryDetailPrize => ({
      kuji_name,
      product_name,
      prize_count: 1,
      add_delivery_days: 0,
      is_reservation_delivery: 0,
    });
    const data = [p('春くじ', 'A賞'), p('', 'ぬいぐるみ'), p('春くじ', 'B賞'), p('夏くじ', 'C賞')];
    expect(groupDeliveryDetail(data)).toEqual([
      { kuji_name: '春くじ', prizes: [data[0], data[2]] },
      { kuji_name: '', prizes: [data[1]] },
      { kuji_name: '夏くじ', prizes: [data[3]] },
    ]);
    expect(groupDeliveryDetail([])).toEqual([]);
  });

  it('[R3-15] an unsent prize shows prize_shipmented_at as "-" until it is set', () => {
    expect(unsentPrize({ prize_contact_number: 'C-1' })).toEqual({
      prize_contact_number: 'C-1',
      prize_shipmented_at: '-',
    });
    expect(unsentPrize({ prize_contact_number: 'C-1', prize_shipmented_at: null }).prize_shipmented_at).toBe('-');
    expect(unsentPrize({ prize_contact_number: 'C-1', prize_shipmented_at: ' ' }).prize_shipmented_at).toBe('-');
    expect(unsentPrize({ prize_contact_number: 'C-2', prize_shipmented_at: '2026-01-05' }).prize_shipmented_at).toBe(
      '2026-01-05',
    );
  });

  it('[R5-4] the order-made check is flagged when the unsent list for the item is longer than the current count', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), (unsent, current) => {
        expect(isOrderMadeDeliveryFlagged(Array.from({ length: unsent }), current)).toBe(unsent > current);
      }),
    );
  });
});
