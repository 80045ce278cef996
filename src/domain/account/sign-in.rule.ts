import { MAINTENANCE_EXEMPT_USER_STATUS } from '../constants';
import type { AuthIdentity } from '../identity/identity.entity';

/** The product-level sign-in state [R4.1-1]. */
export type SignInState =
  { readonly kind: 'signedIn'; readonly identity: AuthIdentity } | { readonly kind: 'signedOut' };

/**
 * Signed in exactly when a user id and a non-empty access token are present [R4.1-1]; anything
 * partial is signed out, so a half-cleared session never sends a request with a blank token.
 */
export function signInState(
  auth: { readonly user_id?: number | null; readonly access_token?: string | null } | null | undefined,
): SignInState {
  const userId = auth?.user_id;
  const token = auth?.access_token;
  if (
    typeof userId === 'number' &&
    Number.isSafeInteger(userId) &&
    userId > 0 &&
    typeof token === 'string' &&
    token.trim() !== ''
  ) {
    return { kind: 'signedIn', identity: { user_id: userId, access_token: token } };
  }
  return { kind: 'signedOut' };
}

/** Users with status 3 ignore maintenance pushes; guests (no status) and others handle them [R4.1-2]. */
export function handlesMaintenancePush(userStatus: number | null | undefined): boolean {
  return userStatus !== MAINTENANCE_EXEMPT_USER_STATUS;
}
