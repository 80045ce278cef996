import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { TOKENS } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { useCloseAllModals } from '../modals/use-close-all-modals';
import type { ModalComponentProps } from '../modals/registry';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { ACCOUNT as A } from './account.messages';
import { EMAIL_FIELD, NewPasswordFields, PASSWORD_FIELD } from './account-fields';
import { CodeSteps } from './account-form';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/**
 * Account and mail address (spec §2.5): the e-mail and whether it is verified, a change (or a first
 * verification) by code, the way to /emailvalid while the account must verify [R2.2-2]; the
 * password change; sign-out; and the way to delete the account [R10-7].
 */
export default function AccountModal({ swap }: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="account" title={A.accountTitle} testId="account-modal">
      {() => (
        <>
          <EmailSection />
          <PasswordSection />
          <SignOutSection />
          <p className="account-modal__danger">
            <button
              type="button"
              className="link-button"
              data-testid="open-delete"
              onClick={() => swap('accountDelete')}
            >
              {A.deleteLink}
            </button>
          </p>
        </>
      )}
    </AccountModalFrame>
  );
}

function EmailSection() {
  const change = useScopedUseCase(TOKENS.EmailChange);
  const state = useObservableState(change.state$, change.snapshot);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  useEffect(() => void change.start(), [change]);
  const view = state.view;
  return (
    <section className="account-modal__section" aria-labelledby="account-email-title">
      <h3 id="account-email-title" className="account-modal__heading">
        {A.email}
      </h3>
      {state.loadError ? <p role="alert">{state.loadError}</p> : null}
      {view === null && !state.loadError ? <p role="status">{MESSAGES.loading}</p> : null}
      {view ? (
        <p data-testid="account-email" data-verified={view.verified ? 1 : 0}>
          {view.email ?? A.emailNone}{' '}
          <span className={view.verified ? 'status-chip status-chip--ok' : 'status-chip'}>
            {view.verified ? A.emailVerified : A.emailUnverified}
          </span>
        </p>
      ) : null}
      {view?.verificationRequired ? (
        <p>
          <Link to="/emailvalid" replace>
            {A.emailValidPage}
          </Link>
        </p>
      ) : null}
      {state.done && state.sentTo === null ? <p role="status">{A.emailChanged(state.done.email)}</p> : null}
      <CodeSteps
        className="account-form account-form--inline"
        state={state}
        onSend={() => void change.sendCode(email)}
        sendLabel={A.emailSendCode}
        sendClassName="button button--secondary"
        sentText={A.emailCodeSent}
        code={code}
        onCode={setCode}
        onVerify={() =>
          void change.verify(code).then((changed) => {
            if (!changed) return;
            setEmail('');
            setCode('');
          })
        }
        verifyLabel={A.emailVerify}
      >
        <FormField
          {...EMAIL_FIELD}
          label={A.emailNew}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={state.fieldErrors.email}
        />
      </CodeSteps>
    </section>
  );
}

function PasswordSection() {
  const change = useScopedUseCase(TOKENS.PasswordChange);
  const state = useObservableState(change.state$, change.snapshot);
  const [form, setForm] = useState({ current: '', next: '', confirm: '' });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));
  return (
    <section className="account-modal__section" aria-labelledby="account-password-title">
      <h3 id="account-password-title" className="account-modal__heading">
        {A.passwordTitle}
      </h3>
      <form
        className="account-form account-form--inline"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void change.submitForm(form).then((done) => {
            if (done) setForm({ current: '', next: '', confirm: '' });
          });
        }}
      >
        <FormField
          {...PASSWORD_FIELD}
          label={A.currentPassword}
          name="current-password"
          value={form.current}
          onChange={set('current')}
          error={state.fieldErrors.current}
        />
        <NewPasswordFields
          names={{ password: 'new-password', confirm: 'new-password-confirm' }}
          values={{ password: form.next, confirm: form.confirm }}
          onChange={(field) => set(field === 'password' ? 'next' : 'confirm')}
          errors={{ password: state.fieldErrors.next, confirm: state.fieldErrors.confirm }}
        />
        <FormError error={state.error} />
        {state.done ? <p role="status">{A.passwordChanged}</p> : null}
        <button type="submit" className="button button--secondary" disabled={state.busy}>
          {A.passwordChange}
        </button>
      </form>
    </section>
  );
}

function SignOutSection() {
  const flags = useInjection(TOKENS.AccountFlags);
  const closeAll = useCloseAllModals();
  const [busy, setBusy] = useState(false);
  return (
    <p className="account-modal__section">
      <button
        type="button"
        className="button button--quiet"
        data-testid="sign-out"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void flags.signOut().finally(() => {
            setBusy(false);
            closeAll();
          });
        }}
      >
        {A.signOut}
      </button>
    </p>
  );
}
