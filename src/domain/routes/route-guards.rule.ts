/**
 * The route guards of spec §2.2: who may open a guarded page, and where everyone else goes. The UI's
 * router and the server's answers both decide with these.
 */

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
  const admitted =
    input.signedIn && !input.emailVerified && input.createdAtMs !== null && input.createdAtMs > input.cutoffMs;
  return admitted ? { kind: 'admit' } : { kind: 'redirect', to: '/' };
}

/** The guest-only guard: a signed-in visitor goes to '/' [R2.2-1]. */
export function guestOnlyGuard(signedIn: boolean): GuardDecision {
  return signedIn ? { kind: 'redirect', to: '/' } : { kind: 'admit' };
}
