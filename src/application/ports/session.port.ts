import type { Observable } from 'rxjs';
import type { AuthIdentity } from '../../domain';

/**
 * Who is signed in on this device (spec §3 "Authenticated request identity"). The HTTP adapter adds
 * the current identity to every POST body; `identity$` lets the UI follow sign-in and sign-out.
 */
export interface SessionPort {
  readonly identity$: Observable<AuthIdentity | null>;
  current(): AuthIdentity | null;
  signIn(identity: AuthIdentity): void;
  signOut(): void;
}
