import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { TOKENS } from '../../application';
import { guestOnlyGuard, safeNextPath } from '../../domain';
import { ACCOUNT as A } from '../account/account.messages';
import { FormError, FormField } from '../account/form-field';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';

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
  if (guard.kind === 'redirect' && !state.busy && !state.done) return <Navigate to={guard.to} replace />;
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));
  if (state.step === 'email')
    return (
      <form
        className="panel account-form"
        noValidate
        data-testid="reset-email-form"
        onSubmit={(e) => {
          e.preventDefault();
          void reset.requestCode(email);
        }}
      >
        <h1 className="panel__title">{A.resetTitle}</h1>
        <p className="panel__note">{A.resetLead}</p>
        <FormField
          label={A.email}
          type="email"
          name="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={state.fieldErrors.email}
        />
        <FormError error={state.error} />
        <button type="submit" className="button" disabled={state.busy}>
          {A.resetSend}
        </button>
        <p className="account-form__links">
          <Link to="/login">{A.signIn}</Link>
        </p>
      </form>
    );
  return (
    <form
      className="panel account-form"
      noValidate
      data-testid="reset-code-form"
      onSubmit={(e) => {
        e.preventDefault();
        void reset.reset(form).then((done) => {
          if (done) void navigate(next, { replace: true });
        });
      }}
    >
      <h1 className="panel__title">{A.resetTitle}</h1>
      <p className="panel__note" role="status">
        {A.resetSent(state.email)} {A.resetSentNote}
      </p>
      <FormField
        label={A.code}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={form.code}
        onChange={set('code')}
        error={state.fieldErrors.code}
      />
      <FormField
        label={A.newPassword}
        type="password"
        name="password"
        autoComplete="new-password"
        maxLength={128}
        hint={A.passwordHint}
        value={form.password}
        onChange={set('password')}
        error={state.fieldErrors.password}
      />
      <FormField
        label={A.newPasswordConfirm}
        type="password"
        name="confirm"
        autoComplete="new-password"
        maxLength={128}
        value={form.confirm}
        onChange={set('confirm')}
        error={state.fieldErrors.confirm}
      />
      <FormError error={state.error} />
      <button type="submit" className="button" disabled={state.busy}>
        {A.resetSubmit}
      </button>
      <button type="button" className="link-button" onClick={() => reset.restart()}>
        {A.otherEmail}
      </button>
    </form>
  );
}

export default PasswordResetPage;
