import { useRef } from 'react';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { ACCOUNT as A } from './account.messages';

/** The contact form's done step (spec §2.5 contact: done): the receipt number. */
export default function ContactDoneModal({ props, close }: ModalComponentProps<{ readonly contactId: number }>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'contact-done-title');
  return (
    <div ref={ref} className="modal__body" data-testid="contact-done">
      <h2 id="contact-done-title" className="dialog__title">
        {A.contactDoneTitle}
      </h2>
      <p className="dialog__text" role="status">
        {A.contactDone(props.contactId)}
      </p>
      <button type="button" className="button" onClick={close}>
        {A.contactClose}
      </button>
    </div>
  );
}
