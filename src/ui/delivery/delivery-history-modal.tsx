import { useEffect, useRef, useState } from 'react';
import { CHANGEABLE_STATUSES, TOKENS } from '../../application';
import {
  formatJstDateTime,
  formatThousands,
  groupDeliveryDetail,
  isAddressPresent,
  LEAD_TIMES,
  UNSENT_PLACEHOLDER,
  type AddressForm,
  type DeliveryView,
} from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { AddressCard } from './address-list-modal';
import { DELIVERY as D } from './delivery.messages';
import { LoadStatus } from './load-status';

type Step = { kind: 'list' } | { kind: 'detail'; id: number } | { kind: 'change'; id: number };

const shippedAt = (v: string) => (v === UNSENT_PLACEHOLDER ? v : formatJstDateTime(Date.parse(v)));

/**
 * The delivery history, detail and change (spec §2.5 delivery): the player's requests newest
 * first; the detail groups its prizes by kuji_name with count, extra days and pre-order mark
 * [R3-14] and shows the tracking number and shipping date ('-' until shipped) [R3-15]; a request
 * not yet shipped can move to another address or time slot.
 */
export default function DeliveryHistoryModal(_: ModalComponentProps<Record<never, never>>) {
  const history = useScopedUseCase(TOKENS.DeliveryHistory);
  const state = useObservableState(history.state$, history.snapshot);
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'delivery-history-title');
  useEffect(() => void history.start(), [history]);
  const current = step.kind === 'list' ? null : (state.list.find((d) => d.delivery_id === step.id) ?? null);
  const title = step.kind === 'list' ? D.historyTitle : step.kind === 'detail' ? D.detailTitle : D.changeTitle;
  return (
    <div ref={ref} className="modal__body delivery-history" data-testid="delivery-history" data-step={step.kind}>
      <h2 id="delivery-history-title" className="dialog__title">
        {title}
      </h2>
      <LoadStatus status={state.status} error={state.error} />
      {state.status === 'ready' && step.kind === 'list' ? (
        <>
          {state.list.length === 0 ? <p>{D.historyEmpty}</p> : null}
          <ul className="delivery-history__list">
            {state.list.map((d) => {
              const at = formatJstDateTime(Date.parse(d.requested_at));
              return (
                <li key={d.delivery_id} data-testid="delivery-row" data-status={d.delivery_status}>
                  <button
                    type="button"
                    className="delivery-history__row"
                    onClick={() => setStep({ kind: 'detail', id: d.delivery_id })}
                  >
                    <span className="delivery-history__status">{D.status[d.delivery_status]}</span>
                    <span>{D.prizesSummary(d.prizeData[0]?.product_name ?? '', d.prizeData.length - 1)}</span>
                    <small>{D.requestedAt(at)}</small>
                    <span className="visually-hidden">{D.detailOpen}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {current && step.kind === 'detail' ? (
        <DeliveryDetail
          delivery={current}
          onBack={() => setStep({ kind: 'list' })}
          onChange={() => setStep({ kind: 'change', id: current.delivery_id })}
          changed={state.changed}
        />
      ) : null}
      {current && step.kind === 'change' ? (
        <DeliveryChange
          key={current.delivery_id}
          delivery={current}
          addresses={state.addresses}
          busy={state.busy}
          error={state.error}
          onCancel={() => setStep({ kind: 'detail', id: current.delivery_id })}
          onSave={(change) =>
            void history.change(current.delivery_id, change).then(() => {
              if (history.snapshot.changed) setStep({ kind: 'detail', id: current.delivery_id });
            })
          }
        />
      ) : null}
    </div>
  );
}

function DeliveryDetail({
  delivery: d,
  onBack,
  onChange,
  changed,
}: {
  delivery: DeliveryView;
  onBack: () => void;
  onChange: () => void;
  changed: boolean;
}) {
  return (
    <div className="delivery-detail" data-testid="delivery-detail">
      <dl className="delivery-detail__facts">
        <dt>{D.statusLabel}</dt>
        <dd data-testid="delivery-detail-status">{D.status[d.delivery_status]}</dd>
        <dt>{D.trackingLabel}</dt>
        <dd data-testid="delivery-tracking">{d.prize_contact_number || UNSENT_PLACEHOLDER}</dd>
        <dt>{D.shippedAtLabel}</dt>
        <dd data-testid="delivery-shipped-at">{shippedAt(d.prize_shipmented_at)}</dd>
        <dt>{D.feeLabel}</dt>
        <dd>{d.waived === 1 ? D.waivedLabel : D.fee(formatThousands(d.fee_tc))}</dd>
        <dt>{D.leadTimeLabel}</dt>
        <dd>{d.lead_times || D.leadTimeAny}</dd>
      </dl>
      {d.auto_requested === 1 ? <p className="purchase__note">{D.autoRequested}</p> : null}
      {d.cancel_reason ? <p role="note">{D.cancelReason(d.cancel_reason)}</p> : null}
      {changed ? <p role="status">{D.changed}</p> : null}
      <div className="address-card">
        <AddressCard
          address={{
            id: 0,
            isMain: false,
            lastName: d.address.last_name,
            firstName: d.address.first_name,
            zip: d.address.zip,
            address1: d.address.address1,
            address2: d.address.address2,
            address3: d.address.address3,
            tel: d.address.tel,
            email: d.address.email,
            leadTimes: d.lead_times,
          }}
        />
      </div>
      {groupDeliveryDetail(d.prizeData).map((g) => (
        <section key={g.kuji_name} className="delivery-detail__group" data-testid="delivery-detail-group">
          <h3 className="purchase__heading">{g.kuji_name || D.noKuji}</h3>
          <ul>
            {g.prizes.map((p, i) => (
              <li key={`${p.product_name}-${i}`}>
                {p.product_name} ×{D.kujiCount(p.prize_count)}
                {p.add_delivery_days > 0 ? `${D.separator}${D.addDays(p.add_delivery_days)}` : ''}
                {p.is_reservation_delivery === 1 ? `${D.separator}${D.reservationNote}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <div className="panel__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          {D.back}
        </button>
        {CHANGEABLE_STATUSES.includes(d.delivery_status) ? (
          <button type="button" className="button" data-testid="delivery-change" onClick={onChange}>
            {D.change}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function DeliveryChange({
  delivery,
  addresses,
  busy,
  error,
  onCancel,
  onSave,
}: {
  delivery: DeliveryView;
  addresses: readonly AddressForm[];
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onSave: (change: { addressId?: number; leadTimes: string }) => void;
}) {
  const [addressId, setAddressId] = useState<number | null>(null);
  const [leadTimes, setLeadTimes] = useState(delivery.lead_times);
  return (
    <form
      className="delivery-change"
      data-testid="delivery-change-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ ...(addressId !== null ? { addressId } : {}), leadTimes });
      }}
    >
      <fieldset className="delivery-request__addresses">
        <legend className="purchase__heading">{D.addressHeading}</legend>
        {addresses.map((a) => (
          <label key={a.id} className="delivery-request__address">
            <input
              type="radio"
              name="change-address"
              value={a.id}
              checked={addressId === a.id}
              disabled={
                !isAddressPresent({ zip: a.zip, address1: a.address1, address2: a.address2, address3: a.address3 })
              }
              onChange={() => setAddressId(a.id)}
            />
            <AddressCard address={a} />
          </label>
        ))}
      </fieldset>
      <label className="address-form__field">
        <span>{D.leadTimeLabel}</span>
        <select name="change-lead-times" value={leadTimes} onChange={(e) => setLeadTimes(e.target.value)}>
          {LEAD_TIMES.map((t) => (
            <option key={t} value={t}>
              {t === '' ? D.leadTimeAny : t}
            </option>
          ))}
        </select>
      </label>
      {error ? <p role="alert">{error}</p> : null}
      <div className="panel__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {D.cancel}
        </button>
        <button type="submit" className="button" disabled={busy} data-testid="delivery-change-save">
          {D.changeSave}
        </button>
      </div>
    </form>
  );
}
