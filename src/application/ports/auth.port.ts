import type { Observable } from 'rxjs';
import type { AuthIdentity } from '../../domain';

/** A new session the service issued; the port has already signed it in on this device. */
export interface SignedIn {
  readonly identity: AuthIdentity;
  /** When the access token stops working (ISO 8601). */
  readonly expiresAt: string;
}

/** The debug login's answer: `created` is true when the debug user was made by this call [R6-6]. */
export interface DebugSignedIn extends SignedIn {
  readonly created: boolean;
}

/** Where the signed-in user's e-mail stands (the service side of the /emailvalid guard, R2.2-2). */
export interface EmailStatus {
  /** The registered address, or null when none. */
  readonly email: string | null;
  readonly verified: boolean;
  readonly verifiedAt: string | null;
  readonly createdAt: string;
  /** True when the account must still verify its e-mail (unverified and created after the cutoff). */
  readonly verificationRequired: boolean;
  readonly cutoff: string;
}

/** A one-time code was sent (e-mail or SMS); it works until `expiresAt`. */
export interface CodeSent {
  readonly expiresAt: string;
}

/** A message the development outbox holds in place of a real e-mail or SMS. */
export interface OutboxMessage {
  readonly messageId: number;
  readonly channel: 'email' | 'sms';
  readonly recipient: string;
  readonly subject: string;
  readonly body: string;
  readonly createdAt: string;
}

/**
 * Signing up, in and out, and verifying the e-mail address. Sign-up, login and debug login sign the
 * new identity in on this device's session; logout signs it out (also when the service says the
 * token was already dead). Each call returns a cold observable that emits once and completes;
 * unsubscribing before the answer cancels the request. Refusals arrive as errors carrying the
 * service's error_code and Japanese error_info.
 */
export interface AuthPort {
  /** Creates an account and signs it in; `agreedToTerms` stores the form's terms agreement with it. */
  signUp(email: string, password: string, agreedToTerms?: boolean): Observable<SignedIn>;
  logIn(email: string, password: string): Observable<SignedIn>;
  logOut(): Observable<void>;
  /** Development builds only [R6-6]: signs in as the debug user `name` (default 'debug'). */
  debugLogIn(name?: string): Observable<DebugSignedIn>;
  emailStatus(): Observable<EmailStatus>;
  /** Sends a verification code to `email`, or to the registered address when omitted. */
  sendEmailCode(email?: string): Observable<CodeSent>;
  verifyEmail(code: string): Observable<{ readonly email: string; readonly verifiedAt: string }>;
  /** Development builds only: the e-mails and SMS the service "sent" to the signed-in user, newest first. */
  devOutbox(): Observable<readonly OutboxMessage[]>;
  /** Development builds only: the messages sent to `recipient` (a signed-out player's reset code). */
  devMailbox(recipient: string): Observable<readonly OutboxMessage[]>;
  /** Changes the password (the current one is checked); every other session of the account ends. */
  changePassword(currentPassword: string, newPassword: string): Observable<void>;
  /** Sends a reset code to `email`; the answer is the same whether or not it has an account. */
  requestPasswordReset(email: string): Observable<CodeSent>;
  /** Sets a new password with the e-mailed code; every old session ends and this device is signed in. */
  resetPassword(email: string, code: string, password: string): Observable<SignedIn>;
}
