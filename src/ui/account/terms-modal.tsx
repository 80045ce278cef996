import { useRef, useState } from 'react';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { ACCOUNT as A } from './account.messages';
import { TermsLinks } from './terms-links';

/**
 * The terms agreement of the first sign-in (user/agree): the rules can be read from here; agreeing
 * stores it, declining signs out. Opened by the layout while the account has not agreed.
 */
export default function TermsModal({ open, close }: ModalComponentProps<Record<never, never>>) {
  const flags = useInjection(TOKENS.AccountFlags);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'terms-title');
  return (
    <div ref={ref} className="modal__body" data-testid="terms-modal">
      <h2 id="terms-title" className="dialog__title">
        {A.termsTitle}
      </h2>
      <p className="dialog__text">{A.termsLead}</p>
      <TermsLinks onOpen={(document) => open(document)} />
      {error ? <p role="alert">{A.termsFailed}</p> : null}
      <div className="panel__actions">
        <button
          type="button"
          className="button"
          data-testid="terms-agree"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            flags.agree().then(
              () => close(),
              () => {
                setBusy(false);
                setError(true);
              },
            );
          }}
        >
          {A.termsAgree}
        </button>
        <button
          type="button"
          className="button button--quiet"
          disabled={busy}
          onClick={() => void flags.signOut().finally(close)}
        >
          {A.termsDecline}
        </button>
      </div>
    </div>
  );
}
