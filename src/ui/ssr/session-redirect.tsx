import { Navigate } from 'react-router';
import { useIsServerRender } from './preload';

/**
 * A redirect decided by the player's session (a page for signed-in players sends a guest to sign
 * in; a page for guests sends a signed-in player on). The session lives in the browser's storage,
 * so a server render cannot decide it: there the page renders nothing and the browser, which
 * knows, redirects once it runs. A `<Navigate>` in the server's static router would do nothing but
 * warn, and answering the redirect from the server would send signed-in players through sign-in.
 */
export function SessionRedirect({ to }: { readonly to: string }) {
  const server = useIsServerRender();
  return server ? null : <Navigate to={to} replace />;
}
