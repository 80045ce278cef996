import { useEffect, useRef, useState } from 'react';
import { TOKENS } from '../../application';
import { formatZip, type AddressForm } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { AddressEditor, EMPTY_ADDRESS } from './address-editor';
import { DELIVERY as D } from './delivery.messages';
import { LoadStatus } from './load-status';

type Step = { kind: 'list' } | { kind: 'form'; address: AddressForm } | { kind: 'delete'; address: AddressForm };

/** One address as a card: name, postal code, the address lines and the phone. */
export function AddressCard({ address }: { address: AddressForm }) {
  return (
    <div className="address-card__text">
      <strong>{D.honorific(address.lastName, address.firstName)}</strong>
      {address.isMain ? <span className="badge">{D.main}</span> : null}
      <span>
        〒{address.zip ? formatZip(address.zip) : ''} {address.address1}
        {address.address2}
        {address.address3}
      </span>
      <span>{address.tel}</span>
    </div>
  );
}

/**
 * The address modals in one (spec §2.5 address: list, registration, change, delete check): the
 * saved addresses with the main one first, a form to register or change one, and the check
 * before deleting.
 */
export default function AddressListModal(_: ModalComponentProps<Record<never, never>>) {
  const book = useScopedUseCase(TOKENS.AddressBook);
  const state = useObservableState(book.state$, book.snapshot);
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'address-list-title');
  useEffect(() => void book.start(), [book]);
  const toForm = (address: AddressForm) => {
    book.resetForm();
    setStep({ kind: 'form', address });
  };
  const title =
    step.kind === 'list'
      ? D.addressesTitle
      : step.kind === 'delete'
        ? D.deleteTitle
        : step.address.id === 0
          ? D.registerTitle
          : D.editTitle;
  return (
    <div ref={ref} className="modal__body address-list" data-testid="address-list" data-step={step.kind}>
      <h2 id="address-list-title" className="dialog__title">
        {title}
      </h2>
      <LoadStatus status={state.status} error={state.error} />
      {state.status === 'ready' && step.kind === 'list' ? (
        <>
          {state.list.length === 0 ? <p>{D.addressesEmpty}</p> : null}
          <ul className="address-list__items">
            {state.list.map((a) => {
              const name = `${a.lastName} ${a.firstName}`;
              return (
                <li key={a.id} className="address-card" data-testid="address-card">
                  <AddressCard address={a} />
                  <div className="address-card__actions">
                    <button
                      type="button"
                      className="button button--secondary"
                      aria-label={D.edit(name)}
                      onClick={() => toForm(a)}
                    >
                      {D.editShort}
                    </button>
                    <button
                      type="button"
                      className="button button--secondary"
                      aria-label={D.remove(name)}
                      onClick={() => {
                        book.resetForm();
                        setStep({ kind: 'delete', address: a });
                      }}
                    >
                      {D.removeShort}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            className="button"
            data-testid="address-new"
            onClick={() => toForm({ ...EMPTY_ADDRESS, isMain: state.list.length === 0 })}
          >
            {D.addressNew}
          </button>
        </>
      ) : null}
      {step.kind === 'form' ? (
        <AddressEditor
          lookup={book.lookupZip}
          key={step.address.id}
          initial={step.address}
          state={state}
          onCancel={() => setStep({ kind: 'list' })}
          onSave={(form) =>
            void book.save(form).then((saved) => {
              if (saved) setStep({ kind: 'list' });
            })
          }
        />
      ) : null}
      {step.kind === 'delete' ? (
        <div className="address-delete" data-testid="address-delete">
          <p>{D.deleteAsk}</p>
          <div className="address-card">
            <AddressCard address={step.address} />
          </div>
          {step.address.isMain ? <p className="purchase__note">{D.deleteMainNote}</p> : null}
          {state.error ? <p role="alert">{state.error}</p> : null}
          <div className="panel__actions">
            <button type="button" className="button button--secondary" onClick={() => setStep({ kind: 'list' })}>
              {D.cancel}
            </button>
            <button
              type="button"
              className="button"
              disabled={state.busy}
              data-testid="address-delete-confirm"
              onClick={() =>
                void book.remove(step.address.id).then((ok) => {
                  if (ok) setStep({ kind: 'list' });
                })
              }
            >
              {D.deleteConfirm}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
