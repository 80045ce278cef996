import { useEffect, useRef, useState } from 'react';
import { TOKENS } from '../../application';
import {
  formatThousands,
  groupDeliveryDetail,
  isAddressPresent,
  LEAD_TIMES,
  type AddressForm,
  type WonPrize,
} from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { AddressEditor, EMPTY_ADDRESS } from './address-editor';
import { AddressCard } from './address-list-modal';
import { DELIVERY as D } from './delivery.messages';

export interface DeliveryRequestProps {
  /** The prizes chosen in the prize box. */
  readonly prizes: readonly WonPrize[];
  /** Told once the request is made (the prize box reads its lists again). */
  readonly onDone?: () => void;
}

const complete = (a: AddressForm) =>
  isAddressPresent({ zip: a.zip, address1: a.address1, address2: a.address2, address3: a.address3 });

/**
 * The delivery request and its done step (spec §2.5 delivery): the address (choose, or add one in
 * place), the time slot, the fee as the service computes it [R9-1, R5-3] against the balance, and
 * the confirmation. Too little TC offers the purchase modal in this modal's place [R10-4].
 */
export default function DeliveryRequestModal({ props, close, swap }: ModalComponentProps<DeliveryRequestProps>) {
  const flow = useScopedUseCase(TOKENS.DeliveryRequestFlow);
  const book = useScopedUseCase(TOKENS.AddressBook);
  const state = useObservableState(flow.state$, flow.snapshot);
  const bookState = useObservableState(book.state$, book.snapshot);
  const [adding, setAdding] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'delivery-request-title');
  useEffect(() => void flow.start(props.prizes.map((p) => p.play_history_id)), [flow, props.prizes]);
  useEffect(() => {
    if (state.step === 'done') props.onDone?.();
  }, [state.step, props]);

  if (state.step === 'done') {
    const d = state.delivery;
    return (
      <div ref={ref} className="modal__body delivery-request" data-testid="delivery-done">
        <h2 id="delivery-request-title" className="dialog__title">
          {D.doneTitle}
        </h2>
        <p>{D.doneBody}</p>
        <p data-testid="delivery-done-fee">{d.waived === 1 ? D.doneWaived : D.donePaid(formatThousands(d.fee_tc))}</p>
        <p className="purchase__balance">{D.doneBalance(formatThousands(state.tcAll))}</p>
        <div className="panel__actions">
          <button type="button" className="button button--secondary" onClick={close}>
            {MESSAGES.close}
          </button>
          <button type="button" className="button" onClick={() => swap('deliveryHistory')}>
            {D.toHistory}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div ref={ref} className="modal__body delivery-request" data-testid="delivery-request">
      <h2 id="delivery-request-title" className="dialog__title">
        {D.requestTitle}
      </h2>
      {state.step === 'loading' ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.step === 'error' ? <p role="alert">{state.error}</p> : null}
      {state.step === 'review' ? (
        <>
          <h3 className="purchase__heading">{D.prizesHeading(props.prizes.length)}</h3>
          {groupDeliveryDetail(
            props.prizes.map((p) => ({
              kuji_name: p.kuji_name,
              product_name: p.product_name,
              prize_count: p.prize_count,
              add_delivery_days: p.add_delivery_days,
              is_reservation_delivery: p.is_reservation_delivery,
            })),
          ).map((g) => (
            <div key={g.kuji_name}>
              {g.kuji_name ? <p className="purchase__note">{g.kuji_name}</p> : null}
              <ul className="delivery-request__prizes" data-testid="delivery-request-prizes">
                {g.prizes.map((p, i) => (
                  <li key={`${p.product_name}-${i}`}>
                    {p.product_name}
                    {p.prize_count > 1 ? ` ×${D.kujiCount(p.prize_count)}` : ''}
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <fieldset className="delivery-request__addresses">
            <legend className="purchase__heading">{D.addressHeading}</legend>
            {state.addresses.length === 0 && !adding ? <p>{D.noAddress}</p> : null}
            {state.addresses.map((a) => (
              <label key={a.id} className="delivery-request__address" data-testid="delivery-address">
                <input
                  type="radio"
                  name="delivery-address"
                  value={a.id}
                  checked={state.addressId === a.id}
                  disabled={!complete(a)}
                  onChange={() => flow.chooseAddress(a.id)}
                />
                <AddressCard address={a} />
                {!complete(a) ? <small>{D.addressIncomplete}</small> : null}
              </label>
            ))}
            {adding ? (
              <AddressEditor
                lookup={book.lookupZip}
                initial={{ ...EMPTY_ADDRESS, isMain: state.addresses.length === 0 }}
                state={bookState}
                onCancel={() => setAdding(false)}
                onSave={(form) =>
                  void book.save(form).then((saved) => {
                    if (!saved) return;
                    flow.addressesChanged(book.snapshot.list, saved.id);
                    setAdding(false);
                  })
                }
              />
            ) : (
              <button
                type="button"
                className="button button--secondary"
                data-testid="delivery-add-address"
                onClick={() => {
                  book.resetForm();
                  setAdding(true);
                }}
              >
                {D.addAddress}
              </button>
            )}
          </fieldset>
          <label className="address-form__field">
            <span>{D.leadTimeLabel}</span>
            <select
              name="delivery-lead-times"
              value={state.leadTimes}
              onChange={(e) => flow.setLeadTimes(e.target.value)}
            >
              {LEAD_TIMES.map((t) => (
                <option key={t} value={t}>
                  {t === '' ? D.leadTimeAny : t}
                </option>
              ))}
            </select>
          </label>
          <section className="delivery-request__fee" aria-labelledby="delivery-fee-title" data-testid="delivery-fee">
            <h3 id="delivery-fee-title" className="purchase__heading">
              {D.feeHeading}
            </h3>
            <p className="purchase__note">{D.feeRule()}</p>
            {state.quote.waived ? (
              <p data-testid="delivery-fee-waived">
                <s>{D.feeBase(formatThousands(state.quote.baseFeeTc))}</s> {D.feeWaived}
              </p>
            ) : (
              <p className="delivery-request__amount" data-testid="delivery-fee-amount">
                {D.fee(formatThousands(state.quote.feeTc))}
              </p>
            )}
            <p>
              {D.balance(formatThousands(state.quote.tcAll))}
              {state.quote.enough ? ` → ${D.balanceAfter(formatThousands(state.quote.tcAll - state.quote.feeTc))}` : ''}
            </p>
          </section>
          {state.needTc ? (
            <div className="delivery-request__need-tc" role="alert" data-testid="delivery-need-tc">
              <p>{D.needTc}</p>
              <button type="button" className="button" onClick={() => swap('purchase')}>
                {D.buyTc}
              </button>
            </div>
          ) : null}
          {state.error && !state.needTc ? <p role="alert">{state.error}</p> : null}
          <div className="panel__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              {D.cancel}
            </button>
            <button
              type="button"
              className="button"
              data-testid="delivery-confirm"
              disabled={state.sending || state.addressId === null || state.needTc || adding}
              onClick={() => void flow.confirm()}
            >
              {state.sending ? D.sending : D.confirm(state.quote.feeTc, formatThousands(state.quote.feeTc))}
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}
