import { useId, useRef } from 'react';
import { SignInLinks } from '../account/sign-in-links';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';
import { PURCHASE_MODAL } from '../purchase/purchase.messages';
import { useDialogName } from './use-dialog-name';

export interface AlertModalProps {
  readonly message: string;
  readonly title?: string;
  /** The close button's label (とじる unless a popup names its own). */
  readonly button?: string;
  /** The login and sign-up links beside the close button (a guest pressed a player's button); both return here. */
  readonly signIn?: boolean;
  /** The test id of the alert's body, for the page that shows it. */
  readonly testId?: string;
  /** Too little TC: a "TCを購入" button opens the purchase modal over this page (the player stays where they are). */
  readonly buyTc?: boolean;
}

/** A Japanese message with a close button (spec §2.5 alert), announced as an alert dialog. */
export default function AlertModal({ props, close, open }: ModalComponentProps<AlertModalProps>) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const textId = useId();
  useDialogName(ref, props.title ? titleId : textId);
  return (
    <div ref={ref} className="modal__body" data-testid={props.testId}>
      {props.title ? (
        <h2 id={titleId} className="dialog__title">
          {props.title}
        </h2>
      ) : null}
      <p id={textId} className="dialog__text" data-testid="alert-message">
        {props.message}
      </p>
      <div className="panel__actions">
        {props.buyTc ? (
          <button type="button" className="button" data-testid="alert-buy-tc" onClick={() => open('purchase')}>
            {PURCHASE_MODAL.buyTcFromAlert}
          </button>
        ) : null}
        {props.signIn ? <SignInLinks bare /> : null}
        <button
          type="button"
          className={props.signIn || props.buyTc ? 'button button--quiet' : 'button'}
          autoFocus
          onClick={close}
        >
          {props.button ?? MESSAGES.close}
        </button>
      </div>
    </div>
  );
}
