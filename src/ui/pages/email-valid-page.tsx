import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SessionRedirect } from '../ssr/session-redirect';
import { TOKENS } from '../../application';
import { parseServiceTime, safeNextPath, toJstParts } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { CODE_FIELD, EMAIL_FIELD } from '../account/account-fields';
import { FormField } from '../account/form-field';
import { EMAIL_VALID as M } from '../storefront.messages';

/** Room for a pasted code with spaces around it (the service trims the code it checks). */
const CODE_WITH_SPACES_MAX = 12;

/** 'HH:MM' in Japan of a service time ('' when unreadable). */
function jstClock(text: string | null): string {
  const ms = text === null ? null : parseServiceTime(text);
  if (ms === null) return '';
  const t = toJstParts(ms);
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}

/**
 * /emailvalid (§2.1, §2.2): only a signed-in visitor whose e-mail is not verified and whose account
 * was created after the cutoff gets in; everyone else goes to '/' [R2.2-2]. The page sends a one-time
 * code to the address and verifies it; the service's Japanese refusal shows under the form.
 */
export function EmailValidPage() {
  const verify = useScopedUseCase(TOKENS.VerifyEmail);
  const state = useObservableState(verify.state$, verify.snapshot);
  const [email, setEmail] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [params] = useSearchParams();
  // Back to where the visitor was before signing up (the sign-up page passes it on).
  const next = safeNextPath(params.get('next'));
  const sentAtSignUp = params.get('sent') === '1';
  useEffect(() => {
    void verify.start().then(() => {
      if (sentAtSignUp) verify.codeSentAtSignUp();
    });
  }, [verify, sentAtSignUp]);

  if (state.kind === 'redirect') return <SessionRedirect to={state.to} />;
  if (state.kind === 'checking')
    return (
      <p className="page-status" role="status">
        {M.checking}
      </p>
    );
  if (state.kind === 'error')
    return (
      <p className="page-status page-status--error" role="alert">
        {state.message}
      </p>
    );
  if (state.kind === 'verified') {
    return (
      <section className="panel" aria-labelledby="email-valid-title">
        <h1 id="email-valid-title" className="panel__title">
          {M.title}
        </h1>
        <p role="status">{M.verified(state.email)}</p>
        <Link className="button" to={next}>
          {next === '/' ? M.toTop : M.back}
        </Link>
      </section>
    );
  }
  const address = email ?? state.email;
  return (
    <section className="panel email-valid" aria-labelledby="email-valid-title">
      <h1 id="email-valid-title" className="panel__title">
        {M.title}
      </h1>
      <p>{M.lead}</p>
      <form
        className="debug-login"
        onSubmit={(e) => {
          e.preventDefault();
          void verify.sendCode(address);
        }}
      >
        <FormField {...EMAIL_FIELD} required value={address} onChange={(e) => setEmail(e.target.value)} />
        <button
          type="submit"
          className={state.sentTo === null ? 'button' : 'button button--secondary'}
          disabled={state.busy}
        >
          {state.sentTo === null ? M.send : M.resend}
        </button>
      </form>
      {state.sentTo !== null ? (
        <>
          <p role="status" className="panel__note">
            {state.sentTo && state.expiresAt === null
              ? M.sentAtSignUp(state.sentTo)
              : state.sentTo
                ? M.sentTo(state.sentTo, jstClock(state.expiresAt))
                : M.sentToRegistered(jstClock(state.expiresAt))}
          </p>
          <form
            className="debug-login"
            onSubmit={(e) => {
              e.preventDefault();
              void verify.verify(code);
            }}
          >
            <FormField
              {...CODE_FIELD}
              label={M.code}
              maxLength={CODE_WITH_SPACES_MAX}
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button type="submit" className="button" disabled={state.busy || code.trim() === ''}>
              {M.verify}
            </button>
          </form>
        </>
      ) : null}
      {state.error ? (
        <p role="alert" className="panel__note">
          {state.error}
        </p>
      ) : null}
    </section>
  );
}

export default EmailValidPage;
