import { Link } from 'react-router';
import { ACCOUNT as A } from './account.messages';
import { useNextQuery } from './next-query';

/**
 * The login and sign-up links of every "ログインしてください" prompt; both return here afterwards.
 * `bare` gives the two links alone, for a dialog's own row of actions.
 */
export function SignInLinks({
  className = 'sign-in-links',
  bare = false,
}: {
  readonly className?: string;
  readonly bare?: boolean;
}) {
  const next = useNextQuery();
  const links = (
    <>
      <Link className="button" to={`/login${next}`} data-testid="sign-in-link">
        {A.signIn}
      </Link>
      <Link className="button button--secondary" to={`/signup${next}`} data-testid="sign-up-link">
        {A.signUp}
      </Link>
    </>
  );
  return bare ? links : <p className={className}>{links}</p>;
}
