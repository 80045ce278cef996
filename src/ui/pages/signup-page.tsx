import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SessionRedirect } from '../ssr/session-redirect';
import { TOKENS } from '../../application';
import { guestOnlyGuard, safeNextPath } from '../../domain';
import { ACCOUNT as A } from '../account/account.messages';
import { EMAIL_FIELD, NewPasswordFields } from '../account/account-fields';
import { AccountForm } from '../account/account-form';
import { FormField } from '../account/form-field';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useModals } from '../modals/modal-host';
import { useObservableState } from '../hooks/use-observable-state';
import { TermsLinks } from '../account/terms-links';

/**
 * The sign-up page, guest-only [R2.2-1]: e-mail, password twice, terms agreed (the agreement is
 * stored with the account's first sign-in). Each field's message shows beside it and nothing is
 * sent while one fails. Signed up, the visitor verifies the e-mail (/emailvalid) and then returns
 * to `?next=`.
 */
export function SignUpPage() {
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, null);
  const signUp = useScopedUseCase(TOKENS.SignUp);
  const state = useObservableState(signUp.state$, signUp.snapshot);
  const { open } = useModals();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [form, setForm] = useState({ email: '', password: '', confirm: '', agree: false });
  const guard = guestOnlyGuard(identity !== null);
  if (guard.kind === 'redirect' && !state.busy && !state.done) return <SessionRedirect to={guard.to} />;
  const set = (field: keyof typeof form) => (e: { target: { value: string; checked: boolean } }) =>
    setForm((f) => ({ ...f, [field]: field === 'agree' ? e.target.checked : e.target.value }));
  return (
    <AccountForm
      className="panel account-form"
      testId="signup-form"
      onSubmit={() =>
        void signUp.submitForm(form).then((done) => {
          if (done) void navigate(`/emailvalid?sent=1&next=${encodeURIComponent(next)}`, { replace: true });
        })
      }
      state={state}
      submitLabel={A.signUpSubmit}
      after={
        <p className="account-form__links">
          {A.haveAccount}{' '}
          <Link to={`/login${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>{A.signIn}</Link>
        </p>
      }
    >
      <h1 className="panel__title">{A.signUpTitle}</h1>
      <p className="panel__note">{A.signUpLead}</p>
      <FormField {...EMAIL_FIELD} value={form.email} onChange={set('email')} error={state.fieldErrors.email} />
      <NewPasswordFields
        labels={{ password: A.password, confirm: A.passwordConfirm }}
        values={form}
        onChange={set}
        errors={state.fieldErrors}
      />
      <TermsLinks onOpen={(document) => open(document)} />
      <div className="form-field form-field--check">
        <label>
          <input
            type="checkbox"
            name="agree"
            checked={form.agree}
            onChange={set('agree')}
            aria-invalid={state.fieldErrors.agree ? true : undefined}
            aria-describedby={state.fieldErrors.agree ? 'signup-agree-error' : undefined}
          />
          {A.agreeTerms}
        </label>
        {state.fieldErrors.agree ? (
          <small id="signup-agree-error" className="form-field__error">
            {state.fieldErrors.agree}
          </small>
        ) : null}
      </div>
    </AccountForm>
  );
}

export default SignUpPage;
