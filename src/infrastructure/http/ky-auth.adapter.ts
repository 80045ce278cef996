import { mapped } from '../../contract/schema-helpers';
import { tap, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type {
  AuthPort,
  CodeSent,
  DebugSignedIn,
  EmailStatus,
  OutboxMessage,
  SessionPort,
  SignedIn,
} from '../../application';
import {
  AUTH_ENDPOINTS,
  codeSentResponseSchema,
  debugLoginResponseSchema,
  devOutboxResponseSchema,
  emailStatusResponseSchema,
  emailVerifiedResponseSchema,
  loginResponseSchema,
  passwordChangeResponseSchema,
  passwordResetRequestResponseSchema,
  plainResponseSchema,
} from '../../contract';
import { isPostResponseError } from './errors';
import type { KyHttpClient } from './ky-http-client';

const signedIn = mapped(loginResponseSchema, (a): SignedIn => ({
  identity: { user_id: a.user_id, access_token: a.access_token },
  expiresAt: a.expires_at,
}));

/** Signs the session in with the identity a sign-up or login answered. */
export function signingIn<T extends SignedIn>(session: SessionPort): MonoTypeOperatorFunction<T> {
  return tap((answer) => session.signIn(answer.identity));
}

/** Signs the session out when logout succeeds, and also when the service says the token is already dead (401). */
export function signingOut<T>(session: SessionPort): MonoTypeOperatorFunction<T> {
  return tap({
    next: () => session.signOut(),
    error: (error: unknown) => {
      if (isPostResponseError(error) && error.code === 401) session.signOut();
    },
  });
}

/** AuthPort over HTTP (ky); keeps the device's session in step with sign-in and sign-out. */
export class KyAuth implements AuthPort {
  constructor(
    private readonly http: KyHttpClient,
    private readonly session: SessionPort,
  ) {}

  signUp(email: string, password: string, agreedToTerms = false): Observable<SignedIn> {
    return this.http
      .post(
        AUTH_ENDPOINTS.signup,
        agreedToTerms ? { email, password, agree_contract: 1 } : { email, password },
        signedIn,
        'signup',
        { identity: 'none' },
      )
      .pipe(signingIn(this.session));
  }
  logIn(email: string, password: string): Observable<SignedIn> {
    return this.http
      .post(AUTH_ENDPOINTS.login, { email, password }, signedIn, 'login', { identity: 'none' })
      .pipe(signingIn(this.session));
  }
  logOut(): Observable<void> {
    return this.http
      .post(
        AUTH_ENDPOINTS.logout,
        {},
        mapped(plainResponseSchema, (): void => undefined),
        'logout',
        { identity: 'required' },
      )
      .pipe(signingOut(this.session));
  }
  debugLogIn(name?: string): Observable<DebugSignedIn> {
    return this.http
      .post(
        AUTH_ENDPOINTS.debugLogin,
        name === undefined ? {} : { name },
        mapped(debugLoginResponseSchema, (a): DebugSignedIn => ({
          identity: { user_id: a.user_id, access_token: a.access_token },
          expiresAt: a.expires_at,
          created: a.created === 1,
        })),
        'debug_login',
        { identity: 'none' },
      )
      .pipe(signingIn(this.session));
  }
  emailStatus(): Observable<EmailStatus> {
    return this.http.post(
      AUTH_ENDPOINTS.emailStatus,
      {},
      mapped(emailStatusResponseSchema, (a): EmailStatus => ({
        email: a.email,
        verified: a.email_verified === 1,
        verifiedAt: a.email_verified_at,
        createdAt: a.created_at,
        verificationRequired: a.verification_required === 1,
        cutoff: a.cutoff,
      })),
      'email_status',
      { identity: 'required' },
    );
  }
  sendEmailCode(email?: string): Observable<CodeSent> {
    return this.http.post(
      AUTH_ENDPOINTS.emailSendCode,
      { email_verify: email === undefined ? {} : { email } },
      mapped(codeSentResponseSchema, (a): CodeSent => ({ expiresAt: a.expires_at })),
      'email_send_code',
      { identity: 'required' },
    );
  }
  verifyEmail(code: string): Observable<{ readonly email: string; readonly verifiedAt: string }> {
    return this.http.post(
      AUTH_ENDPOINTS.emailVerify,
      { email_verify: { code } },
      mapped(emailVerifiedResponseSchema, (a) => ({ email: a.email, verifiedAt: a.email_verified_at })),
      'email_verify',
      { identity: 'required' },
    );
  }
  devOutbox(): Observable<readonly OutboxMessage[]> {
    return this.http.post(AUTH_ENDPOINTS.devOutbox, {}, outbox, 'dev_outbox', { identity: 'required' });
  }
  devMailbox(recipient: string): Observable<readonly OutboxMessage[]> {
    return this.http.post(AUTH_ENDPOINTS.devMailbox, { recipient }, outbox, 'dev_mailbox', { identity: 'none' });
  }
  changePassword(currentPassword: string, newPassword: string): Observable<void> {
    return this.http.post(
      AUTH_ENDPOINTS.passwordChange,
      { password_change: { current_password: currentPassword, new_password: newPassword } },
      mapped(passwordChangeResponseSchema, (): void => undefined),
      'password_change',
      { identity: 'required' },
    );
  }
  requestPasswordReset(email: string): Observable<CodeSent> {
    return this.http.post(
      AUTH_ENDPOINTS.passwordResetRequest,
      { email },
      mapped(passwordResetRequestResponseSchema, (a): CodeSent => ({ expiresAt: a.expires_at })),
      'password_reset_request',
      { identity: 'none' },
    );
  }
  resetPassword(email: string, code: string, password: string): Observable<SignedIn> {
    return this.http
      .post(AUTH_ENDPOINTS.passwordReset, { email, code, password }, signedIn, 'password_reset', { identity: 'none' })
      .pipe(signingIn(this.session));
  }
}

const outbox = mapped(devOutboxResponseSchema, (a): readonly OutboxMessage[] =>
  a.list.map((m) => ({
    messageId: m.message_id,
    channel: m.channel,
    recipient: m.recipient,
    subject: m.subject,
    body: m.body,
    createdAt: m.created_at,
  })),
);
