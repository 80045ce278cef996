import { useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { useNavigate, useSearchParams } from 'react-router';
import { TOKENS } from '../../application';
import { safeNextPath } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';

/**
 * /debug/login (§2.1, R6-6): signs in as a named debug user with free TC, for development builds
 * and `npm start`. The server answers 404 unless its development-only calls are on, and this page
 * says so. After signing in it goes to `?next=` (a path on this site) or the top page.
 */
export function DebugLoginPage() {
  const auth = useInjection(TOKENS.AuthPort);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [name, setName] = useState('hanako');
  const [error, setError] = useState<string | null>(null);
  const target = safeNextPath(params.get('next'));
  return (
    <form
      className="panel debug-login"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        firstValueFrom(auth.debugLogIn(name.trim() || undefined)).then(
          () => navigate(target),
          () => setError(MESSAGES.debugLoginUnavailable),
        );
      }}
    >
      <h1 className="panel__title">{MESSAGES.debugLoginTitle}</h1>
      <p className="panel__note">{MESSAGES.debugLoginHelp}</p>
      <label className="debug-login__field">
        <span>{MESSAGES.debugLoginName}</span>
        <input name="name" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" className="button">
        {MESSAGES.debugLoginSubmit}
      </button>
      {error ? (
        <p role="alert" className="panel__note">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export default DebugLoginPage;
