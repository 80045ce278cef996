import { MAINTENANCE_EXEMPT_USER_STATUS } from '../constants';
import type { AuthIdentity } from '../identity/identity.entity';

/** The product-level sign-in state [R4.1-1]. */
export type SignInState =
  | { readonly kind: 'signedIn'; readonly identity: AuthIdentity }
  | { readonly kind: 'signedOut' };

/**
 * Signed in exactly when a user id and a non-empty access token are present [R4.1-1]; anything
 * partial is signed out, so a half-cleared session never sends a request with a blank token.
 */
export function signInState(auth: { readonly user_id?: number | null; readonly access_token?: string | null } | null | undefined): SignInState {
  const userId = auth?.user_id;
  const token = auth?.access_token;
  if (typeof userId === 'number' && Number.isSafeInteger(userId) && userId > 0 && typeof token === 'string' && token.trim() !== '') {
    return { kind: 'signedIn', identity: { user_id: userId, access_token: token } };
  }
  return { kind: 'signedOut' };
}

/** Users with status 3 ignore maintenance pushes; guests (no status) and others handle them [R4.1-2]. */
export function handlesMaintenancePush(userStatus: number | null | undefined): boolean {
  return userStatus !== MAINTENANCE_EXEMPT_USER_STATUS;
}

/** What the /emailvalid guard reads [R2.2-2]. */
export interface EmailValidGuardInput {
  readonly signedIn: boolean;
  readonly emailVerified: boolean;
  /** Account creation instant (epoch ms); null when unknown. */
  readonly createdAtMs: number | null;
  /** The configured cutoff instant (epoch ms). */
  readonly cutoffMs: number;
}

export type GuardDecision = { readonly kind: 'admit' } | { readonly kind: 'redirect'; readonly to: string };

/**
 * /emailvalid admits only a signed-in visitor whose e-mail is not verified and whose account was
 * created after the cutoff (strictly later); everyone else goes to '/' [R2.2-2].
 */
export function emailValidGuard(input: EmailValidGuardInput): GuardDecision {
  const admitted = input.signedIn && !input.emailVerified && input.createdAtMs !== null && input.createdAtMs > input.cutoffMs;
  return admitted ? { kind: 'admit' } : { kind: 'redirect', to: '/' };
}

/** The guest-only guard: a signed-in visitor goes to '/' [R2.2-1]. */
export function guestOnlyGuard(signedIn: boolean): GuardDecision {
  return signedIn ? { kind: 'redirect', to: '/' } : { kind: 'admit' };
}
