import { DELIVERY_FEE_TC, deliveryCharge, KUJI_PER_DELIVERY_PARCEL, type DeliveryLine } from '../../domain';
import { DocList, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

/**
 * Example requests: one of each kind, the kuji parcel's edges (a full parcel, one more, two full),
 * a mixed request, and a delivery ticket with and without normal crane prizes [R9-1, R5-3].
 */
const EXAMPLES: readonly { readonly lines: readonly DeliveryLine[]; readonly ticket: boolean }[] = [
  { lines: [{ kind: 'crane', count: 1 }], ticket: false },
  { lines: [{ kind: 'crane', count: 3 }], ticket: false },
  { lines: [{ kind: 'orderMade', count: 1 }], ticket: false },
  { lines: [{ kind: 'kuji', count: 1 }], ticket: false },
  { lines: [{ kind: 'kuji', count: KUJI_PER_DELIVERY_PARCEL }], ticket: false },
  { lines: [{ kind: 'kuji', count: KUJI_PER_DELIVERY_PARCEL + 1 }], ticket: false },
  { lines: [{ kind: 'kuji', count: 2 * KUJI_PER_DELIVERY_PARCEL }], ticket: false },
  {
    lines: [
      { kind: 'crane', count: 2 },
      { kind: 'kuji', count: KUJI_PER_DELIVERY_PARCEL - 5 },
    ],
    ticket: false,
  },
  {
    lines: [
      { kind: 'crane', count: 2 },
      { kind: 'kuji', count: KUJI_PER_DELIVERY_PARCEL - 5 },
    ],
    ticket: true,
  },
  { lines: [{ kind: 'kuji', count: KUJI_PER_DELIVERY_PARCEL - 5 }], ticket: true },
];

const M = DOCUMENT_MESSAGES;

function linesText(lines: readonly DeliveryLine[]): string {
  return lines
    .map((l) =>
      l.kind === 'crane'
        ? M.shippingCrane(l.count)
        : l.kind === 'orderMade'
          ? M.shippingOrderMade(l.count)
          : M.shippingKuji(l.count),
    )
    .join(M.shippingJoin);
}

/**
 * 送料について (spec §2.5 shipping cost): the delivery charge rule of §9 and the ticket waiver of §5,
 * with an example table the domain's deliveryCharge computes (no fee written by hand).
 */
export default function ShippingCostModal() {
  const rules = { deliveryFeeTc: DELIVERY_FEE_TC, kujiPerParcel: KUJI_PER_DELIVERY_PARCEL };
  return (
    <DocumentModal name="shippingCost">
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.shippingRulesHeading}</h3>
        <DocList items={M.shippingRules(rules)} />
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.shippingTicketHeading}</h3>
        <p className="document-modal__text">{M.shippingTicket}</p>
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.shippingExamplesHeading}</h3>
        <table className="document-modal__table" data-testid="shipping-examples">
          <caption>{M.shippingExamplesCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{M.shippingColumnPrizes}</th>
              <th scope="col">{M.shippingColumnTicket}</th>
              <th scope="col">{M.shippingColumnFee}</th>
            </tr>
          </thead>
          <tbody>
            {EXAMPLES.map((example) => {
              const charge = deliveryCharge(example.lines, example.ticket);
              const prizes = linesText(example.lines);
              return (
                <tr key={`${prizes}-${example.ticket}`}>
                  <th scope="row">{prizes}</th>
                  <td>{example.ticket ? M.shippingWithTicket : M.shippingWithoutTicket}</td>
                  <td className="document-modal__number">
                    {charge.waived ? M.shippingFree(charge.baseFeeTc) : M.shippingFee(charge.feeTc)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </DocumentModal>
  );
}
