import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { TOKENS } from '../../application';
import { formatThousands } from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { PASSWORD_FIELD } from './account-fields';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/**
 * Account deletion [R10-7]: what is lost (prizes not requested, deliveries not shipped, TC held)
 * and what is erased or kept, explained before the confirmation and the password; deleted, the
 * device is signed out and the top page says goodbye.
 */
export default function AccountDeleteModal(_: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="account-delete" title={A.deleteTitle} testId="account-delete-modal">
      {() => <DeleteForm />}
    </AccountModalFrame>
  );
}

function DeleteForm() {
  const deletion = useScopedUseCase(TOKENS.AccountDeletion);
  const state = useObservableState(deletion.state$, deletion.snapshot);
  const notices = useInjection(TOKENS.Notices);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  useEffect(() => void deletion.start(), [deletion]);
  if (state.loadError) return <p role="alert">{state.loadError}</p>;
  const preview = state.preview;
  if (!preview) return <p role="status">{MESSAGES.loading}</p>;
  return (
    <form
      className="account-form"
      noValidate
      data-testid="account-delete-form"
      onSubmit={(e) => {
        e.preventDefault();
        void deletion.confirm({ password, confirmed }).then((done) => {
          if (!done) return;
          notices.show(A.deleteDone);
          // A new entry at the top page closes every modal.
          void navigate('/', { replace: true });
        });
      }}
    >
      <p className="dialog__text">{A.deleteLead}</p>
      <ul className="account-delete__list" data-testid="account-delete-preview">
        <li>{A.deletePrizes(preview.prizesNotRequested)}</li>
        <li>{A.deleteDeliveries(preview.deliveriesNotShipped)}</li>
        <li>{A.deleteTc(formatThousands(preview.tcPaid), formatThousands(preview.tcFree))}</li>
      </ul>
      <p className="dialog__text">{A.deleteErased}</p>
      <p className="dialog__text">{A.deleteKept}</p>
      <div className="form-field form-field--check">
        <label>
          <input
            type="checkbox"
            name="confirm"
            checked={confirmed}
            onChange={(e) => setConfirmed(e.target.checked)}
            aria-invalid={state.fieldErrors.confirm ? true : undefined}
            aria-describedby={state.fieldErrors.confirm ? 'account-delete-confirm-error' : undefined}
          />
          {A.deleteConfirm}
        </label>
        {state.fieldErrors.confirm ? (
          <small id="account-delete-confirm-error" className="form-field__error">
            {state.fieldErrors.confirm}
          </small>
        ) : null}
      </div>
      {preview.hasPassword ? (
        <FormField
          {...PASSWORD_FIELD}
          label={A.deletePassword}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={state.fieldErrors.password}
        />
      ) : null}
      <FormError error={state.error} />
      <button type="submit" className="button button--danger" disabled={state.busy}>
        {A.deleteSubmit}
      </button>
    </form>
  );
}
