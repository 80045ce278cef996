import { useEffect, useState } from 'react';
import { TOKENS } from '../../application';
import { CONTACT_CATEGORIES, CONTACT_CATEGORY_LABELS, CONTACT_TEXT_MAX } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/**
 * The contact form (spec §2.5 contact: form): category, text, and the recent plays attached on
 * request; sent, the done modal takes its place with the receipt number.
 */
export default function ContactModal({ swap }: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="contact" title={A.contactTitle} testId="contact-modal">
      {() => <ContactFormBody done={(id) => swap('contactDone', { contactId: id })} />}
    </AccountModalFrame>
  );
}

function ContactFormBody({ done }: { done: (contactId: number) => void }) {
  const contact = useScopedUseCase(TOKENS.ContactForm);
  const state = useObservableState(contact.state$, contact.snapshot);
  const [form, setForm] = useState({ category: '', text: '', attachPlay: false });
  useEffect(() => {
    contact.start();
  }, [contact]);
  return (
    <form
      className="account-form"
      noValidate
      data-testid="contact-form"
      onSubmit={(e) => {
        e.preventDefault();
        void contact.send(form).then((receipt) => {
          if (receipt) done(receipt.contactId);
        });
      }}
    >
      <p className="dialog__text">{A.contactLead}</p>
      <FormField label={A.contactCategory} error={state.fieldErrors.category}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="category"
            value={form.category}
            onChange={(e) => setForm((f) => ({ ...f, category: e.target.value }))}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          >
            <option value="">{A.choose}</option>
            {CONTACT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CONTACT_CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label={A.contactText} error={state.fieldErrors.text}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            name="text"
            rows={6}
            maxLength={CONTACT_TEXT_MAX}
            value={form.text}
            onChange={(e) => setForm((f) => ({ ...f, text: e.target.value }))}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          />
        )}
      </FormField>
      <div className="form-field form-field--check">
        <label>
          <input
            type="checkbox"
            name="attach-play"
            checked={form.attachPlay}
            onChange={(e) => setForm((f) => ({ ...f, attachPlay: e.target.checked }))}
          />
          {A.contactAttach}
        </label>
      </div>
      <FormError error={state.error} />
      <button type="submit" className="button" disabled={state.busy}>
        {A.contactSubmit}
      </button>
    </form>
  );
}
