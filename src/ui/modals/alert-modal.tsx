import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';

/** A Japanese message with a close button (spec §2.5 alert). */
export default function AlertModal({
  props,
  close,
}: ModalComponentProps<{ readonly message: string; readonly title?: string }>) {
  return (
    <div className="modal__body">
      {props.title ? <h2 className="dialog__title">{props.title}</h2> : null}
      <p className="dialog__text" data-testid="alert-message">
        {props.message}
      </p>
      <button type="button" className="button" onClick={close}>
        {MESSAGES.close}
      </button>
    </div>
  );
}
