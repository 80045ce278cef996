import { useEffect, useRef, useState } from 'react';
import { TOKENS } from '../../application';
import type { UnreadKind, WonPrize } from '../../domain';
import { useNow } from '../hooks/use-now';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { DELIVERY as D } from './delivery.messages';
import { LoadStatus } from './load-status';
import { PrizeLine } from './prize-line';

export type PrizeKindName = 'digital' | 'direct' | 'arrival';

const OF_KIND: Record<PrizeKindName, (p: WonPrize) => boolean> = {
  digital: (p) => p.prize_type === 'digital',
  direct: (p) => p.prize_type === 'direct',
  // Pre-orders waiting for stock: not shipped yet.
  arrival: (p) =>
    p.is_reservation_delivery === 1 &&
    !['shipped', 'delivered', 'cancelled', 'returned', 'expired'].includes(p.delivery_status),
};
const SEEN: Record<PrizeKindName, readonly UnreadKind[]> = { digital: ['digital'], direct: ['direct'], arrival: [] };

/**
 * The digital, direct and arrival modals (spec §2.5): digital prizes viewed in the app, prizes the
 * maker ships directly with their own lead time, and pre-orders waiting for stock with the expected
 * days. Opening the digital or direct one clears its unread mark.
 */
export default function PrizeKindModal({ props }: ModalComponentProps<{ readonly kind: PrizeKindName }>) {
  const box = useScopedUseCase(TOKENS.PrizeBox);
  const state = useObservableState(box.state$, box.snapshot);
  const now = useNow(false);
  const [shown, setShown] = useState<WonPrize | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'prize-kind-title');
  useEffect(() => void box.start(SEEN[props.kind]), [box, props.kind]);
  const prizes = state.prizes.filter(OF_KIND[props.kind]);
  return (
    <div ref={ref} className="modal__body prize-kind" data-testid={`prize-kind-${props.kind}`}>
      <h2 id="prize-kind-title" className="dialog__title">
        {D.kindTitle[props.kind]}
      </h2>
      <p className="purchase__note">{D.kindLead[props.kind]}</p>
      <LoadStatus status={state.status} error={state.error} />
      {state.status === 'ready' && prizes.length === 0 ? <p>{D.kindEmpty[props.kind]}</p> : null}
      {shown ? (
        <figure className="prize-kind__digital" data-testid="digital-view">
          <img src={shown.digital_url} alt={D.digitalAlt(shown.product_name)} />
          <figcaption>{shown.product_name}</figcaption>
        </figure>
      ) : null}
      <ul className="prize-box__list">
        {prizes.map((p) => (
          <PrizeLine key={p.play_history_id} prize={p} now={now} />
        ))}
      </ul>
      {props.kind === 'digital'
        ? prizes
            .filter((p) => p.digital_url)
            .map((p) => (
              <button
                key={p.play_history_id}
                type="button"
                className="button button--secondary"
                onClick={() => setShown(p)}
              >
                {D.viewDigital(p.product_name)}
              </button>
            ))
        : null}
      {props.kind === 'direct'
        ? prizes.map((p) => (
            <p key={p.play_history_id} className="purchase__note">
              {p.product_name}: {D.directLead(p.add_delivery_days)}
            </p>
          ))
        : null}
      {props.kind === 'arrival'
        ? prizes.map((p) => (
            <p key={p.play_history_id} className="purchase__note">
              {p.product_name}: {D.arrivalDays(p.add_delivery_days)}
            </p>
          ))
        : null}
    </div>
  );
}
