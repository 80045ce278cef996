import { useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SessionRedirect } from '../ssr/session-redirect';
import { ACCOUNT as A } from '../account/account.messages';
import { EMAIL_FIELD, PASSWORD_FIELD } from '../account/account-fields';
import { FormField } from '../account/form-field';
import { TOKENS } from '../../application';
import { guestOnlyGuard, refusalText, safeNextPath } from '../../domain';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';

/**
 * The login page (§2.1 "login"), guest-only: a signed-in visitor goes to '/' [R2.2-1]. E-mail and
 * password; the server's Japanese answer shows on a refusal; after signing in the visitor goes to
 * `?next=` (a path on this site) or the top page.
 */
export function LoginPage() {
  const session = useInjection(TOKENS.SessionPort);
  const auth = useInjection(TOKENS.AuthPort);
  // Guest until the session is read after the first render: a server render knows no session, and
  // the browser's hydrating render must show what it showed.
  const identity = useObservableState(session.identity$, null);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = safeNextPath(params.get('next'));
  const nextQuery = params.get('next') ? `?next=${encodeURIComponent(target)}` : '';
  const guard = guestOnlyGuard(identity !== null);
  if (guard.kind === 'redirect' && !busy) return <SessionRedirect to={guard.to} />;
  return (
    <form
      className="panel debug-login"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setBusy(true);
        firstValueFrom(auth.logIn(email.trim(), password)).then(
          () => navigate(target, { replace: true }),
          (failure: unknown) => {
            setBusy(false);
            setError(refusalText(failure));
          },
        );
      }}
    >
      <h1 className="panel__title">{MESSAGES.loginTitle}</h1>
      <FormField {...EMAIL_FIELD} required value={email} onChange={(e) => setEmail(e.target.value)} />
      <FormField {...PASSWORD_FIELD} required value={password} onChange={(e) => setPassword(e.target.value)} />
      <button type="submit" className="button" disabled={busy}>
        {MESSAGES.loginSubmit}
      </button>
      {error ? (
        <p role="alert" className="panel__note">
          {error}
        </p>
      ) : null}
      <p className="account-form__links">
        <Link to={`/password-reset${nextQuery}`}>{A.forgotPassword}</Link>
      </p>
      <p className="account-form__links">
        {A.noAccount} <Link to={`/signup${nextQuery}`}>{A.signUp}</Link>
      </p>
    </form>
  );
}

export default LoginPage;
