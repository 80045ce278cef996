import { useEffect, useState, type FormEvent } from 'react';
import {
  OPERATOR_TOKENS,
  type ActionState,
  type FulfilmentActionName,
  type OperatorDelivery,
  type OperatorFulfilment,
} from '../../application/operator';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { ActionOutcome, LoadState, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const D = OP.fulfilment;
/** The tracking number's form (the contract's rule), as an input pattern (the v flag: the hyphen escaped). */
const TRACKING_PATTERN = '[A-Za-z0-9\\-]{4,40}';

function describe(action: ActionState<FulfilmentActionName>): string {
  const id = (action.result as { delivery_id: number }).delivery_id;
  return action.name === 'ship' ? D.shipped(id) : D.cancelled(id);
}

/** 発送: the delivery queue by status, mark shipped with a tracking number, cancel with refund. */
export function FulfilmentScreen() {
  useScreenTitle(D.title);
  const fulfilment = useScopedUseCase(OPERATOR_TOKENS.OperatorFulfilment);
  const state = useObservableState(fulfilment.state$, fulfilment.snapshot);
  const [filter, setFilter] = useState<DeliveryStatus | ''>(fulfilment.statusFilter ?? '');
  useEffect(() => void fulfilment.refresh(), [fulfilment]);
  return (
    <section aria-labelledby="op-fulfilment-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-fulfilment-title">{D.title}</h1>
        <label className="op-field op-field--inline">
          <span>{D.filter}</span>
          <select
            value={filter}
            onChange={(e) => {
              const next = e.target.value as DeliveryStatus | '';
              setFilter(next);
              void fulfilment.refresh(next || null);
            }}
          >
            <option value="">{D.all}</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {D.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="op-button" onClick={() => void fulfilment.refresh()}>
          {OP.reload}
        </button>
      </div>
      <ActionOutcome action={state.action} describe={describe} onDismiss={() => fulfilment.dismissAction()} />
      {state.data.length === 0 || state.status === 'error' ? (
        <LoadState state={state} onRetry={() => void fulfilment.refresh()} />
      ) : null}
      {state.status === 'ready' && state.data.length === 0 ? <p>{OP.empty}</p> : null}
      <ul className="op-cards">
        {state.data.map((d) => (
          <li key={d.delivery_id} className="op-card" data-testid="op-delivery">
            <DeliveryCard delivery={d} fulfilment={fulfilment} busy={state.action.status === 'running'} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function DeliveryCard({
  delivery: d,
  fulfilment,
  busy,
}: {
  delivery: OperatorDelivery;
  fulfilment: OperatorFulfilment;
  busy: boolean;
}) {
  const confirm = useConfirm();
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  const open = d.delivery_status === 'requested' || d.delivery_status === 'preparing';
  const headingId = `op-delivery-${d.delivery_id}`;
  const ship = async (event: FormEvent) => {
    event.preventDefault();
    if (await confirm({ body: D.confirmShip(d.delivery_id, tracking.trim()) }))
      await fulfilment.ship(d.delivery_id, tracking);
  };
  const cancel = async (event: FormEvent) => {
    event.preventDefault();
    if (await confirm({ body: D.confirmCancel(d.delivery_id), danger: true }))
      await fulfilment.cancel(d.delivery_id, reason);
  };
  const a = d.address;
  return (
    <article aria-labelledby={headingId}>
      <h2 id={headingId}>
        {D.delivery(d.delivery_id)} <span className="op-badge">{D.statuses[d.delivery_status]}</span>
      </h2>
      <dl className="op-facts">
        <dt>{D.userLabel}</dt>
        <dd>#{d.user_id}</dd>
        <dt>{D.requestedAt}</dt>
        <dd>{OP.at(d.requested_at)}</dd>
        <dt>{D.address}</dt>
        <dd>
          {[`〒${a.zip}`, a.address1, a.address2, a.address3, a.last_name, a.first_name, a.tel]
            .filter(Boolean)
            .join(' ')}
        </dd>
        <dt>{D.prizes}</dt>
        <dd>
          <ul className="op-plain-list">
            {d.prizeData.map((p) => (
              <li key={p.play_history_id}>
                {p.kuji_name ? `${p.kuji_name} ` : ''}
                {p.product_name} ×{p.prize_count}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{D.fee}</dt>
        <dd>
          {OP.tc(d.fee_tc)}
          {d.waived ? OP.inParens(D.waived) : ''}
        </dd>
        {d.prize_contact_number ? (
          <>
            <dt>{D.tracking}</dt>
            <dd>{d.prize_contact_number}</dd>
          </>
        ) : null}
      </dl>
      {open ? (
        <>
          <form className="op-inline-form" onSubmit={(e) => void ship(e)}>
            <label className="op-field">
              <span>{D.tracking}</span>
              <input
                required
                pattern={TRACKING_PATTERN}
                title={D.trackingHint}
                autoComplete="off"
                value={tracking}
                onChange={(e) => setTracking(e.target.value)}
              />
            </label>
            <button type="submit" className="op-button op-button--primary" disabled={busy}>
              {D.ship}
            </button>
          </form>
          <form className="op-inline-form" onSubmit={(e) => void cancel(e)}>
            <label className="op-field">
              <span>{D.reason}</span>
              <input required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
            </label>
            <button type="submit" className="op-button op-button--danger" disabled={busy}>
              {D.cancel}
            </button>
          </form>
        </>
      ) : null}
    </article>
  );
}
