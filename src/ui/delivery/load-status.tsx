import { SignInLinks } from '../account/sign-in-links';
import { MESSAGES } from '../messages';
import { DELIVERY as D } from './delivery.messages';

/** What a prize or address modal shows while its use-case is not ready: sign in, loading, or the refusal. */
export function LoadStatus({
  status,
  error,
}: {
  status: 'loading' | 'signIn' | 'ready' | 'error';
  error: string | null;
}) {
  if (status === 'signIn')
    return (
      <>
        <p>{D.signIn}</p>
        <SignInLinks />
      </>
    );
  if (status === 'loading') return <p role="status">{MESSAGES.loading}</p>;
  if (status === 'error') return <p role="alert">{error}</p>;
  return null;
}
