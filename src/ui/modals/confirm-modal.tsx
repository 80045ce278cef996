import { useId, useRef } from 'react';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';
import { useDialogName } from './use-dialog-name';

export interface ConfirmModalProps {
  readonly message: string;
  /** The label of the button that goes ahead. */
  readonly confirmLabel: string;
  /** What going ahead does (the modal closes first). */
  readonly onConfirm: () => void;
  readonly testId?: string;
}

/** Asks before doing something (leaving for another site…): go ahead, or close. */
export default function ConfirmModal({ props, close }: ModalComponentProps<ConfirmModalProps>) {
  const ref = useRef<HTMLDivElement>(null);
  const textId = useId();
  useDialogName(ref, textId);
  return (
    <div ref={ref} className="modal__body" data-testid={props.testId}>
      <p id={textId} className="dialog__text">
        {props.message}
      </p>
      <div className="panel__actions">
        <button
          type="button"
          className="button"
          autoFocus
          onClick={() => {
            close();
            props.onConfirm();
          }}
        >
          {props.confirmLabel}
        </button>
        <button type="button" className="button button--quiet" onClick={close}>
          {MESSAGES.close}
        </button>
      </div>
    </div>
  );
}
