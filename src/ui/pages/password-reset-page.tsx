import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SessionRedirect } from '../ssr/session-redirect';
import { TOKENS } from '../../application';
import { guestOnlyGuard, safeNextPath } from '../../domain';
import { ACCOUNT as A } from '../account/account.messages';
import { CODE_FIELD, EMAIL_FIELD, NewPasswordFields } from '../account/account-fields';
import { AccountForm } from '../account/account-form';
import { FormField } from '../account/form-field';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';

/**
 * The password reset page, guest-only [R2.2-1]: the e-mail gets a code (the page never says whether
 * the address has an account), then the code and a new password sign the visitor in.
 */
export function PasswordResetPage() {
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, null);
  const reset = useScopedUseCase(TOKENS.PasswordReset);
  const state = useObservableState(reset.state$, reset.snapshot);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [email, setEmail] = useState('');
  const [form, setForm] = useState({ code: '', password: '', confirm: '' });
  const guard = guestOnlyGuard(identity !== null);
  if (guard.kind === 'redirect' && !state.busy && !state.done) return <SessionRedirect to={guard.to} />;
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));
  if (state.step === 'email')
    return (
      <AccountForm
        className="panel account-form"
        testId="reset-email-form"
        onSubmit={() => void reset.requestCode(email)}
        state={state}
        submitLabel={A.resetSend}
        after={
          <p className="account-form__links">
            <Link to="/login">{A.signIn}</Link>
          </p>
        }
      >
        <h1 className="panel__title">{A.resetTitle}</h1>
        <p className="panel__note">{A.resetLead}</p>
        <FormField
          {...EMAIL_FIELD}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={state.fieldErrors.email}
        />
      </AccountForm>
    );
  return (
    <AccountForm
      className="panel account-form"
      testId="reset-code-form"
      onSubmit={() =>
        void reset.reset(form).then((done) => {
          if (done) void navigate(next, { replace: true });
        })
      }
      state={state}
      submitLabel={A.resetSubmit}
      after={
        <button type="button" className="link-button" onClick={() => reset.restart()}>
          {A.otherEmail}
        </button>
      }
    >
      <h1 className="panel__title">{A.resetTitle}</h1>
      <p className="panel__note" role="status">
        {A.resetSent(state.email)} {A.resetSentNote}
      </p>
      <FormField {...CODE_FIELD} value={form.code} onChange={set('code')} error={state.fieldErrors.code} />
      <NewPasswordFields values={form} onChange={set} errors={state.fieldErrors} />
    </AccountForm>
  );
}

export default PasswordResetPage;
