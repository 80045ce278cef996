import { tap, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type { AuthPort, CodeSent, DebugSignedIn, EmailStatus, OutboxMessage, SessionPort, SignedIn } from '../../application';
import {
  AUTH_ENDPOINTS, codeSentResponseSchema, debugLoginRequestSchema, debugLoginResponseSchema, devOutboxRequestSchema, devOutboxResponseSchema,
  emailSendCodeRequestSchema, emailStatusRequestSchema, emailStatusResponseSchema, emailVerifiedResponseSchema, emailVerifyRequestSchema,
  loginRequestSchema, loginResponseSchema, logoutRequestSchema, plainResponseSchema, signupRequestSchema,
} from '../../contract';
import { isPostResponseError } from './errors';
import type { KyHttpClient } from './ky-http-client';
import { authedPost, publicPost, sendCall } from './service-call';

const signedIn = loginResponseSchema.transform((a): SignedIn => ({ identity: { user_id: a.user_id, access_token: a.access_token }, expiresAt: a.expires_at }));

/**
 * The sign-in calls, each described once: sign-up, login, logout, debug login [R6-6], e-mail status,
 * code and verification, and the dev outbox. KyAuth sends them.
 */
export const authCalls = {
  signUp: (email: string, password: string) => publicPost(AUTH_ENDPOINTS.signup, 'signup', { email, password }, signupRequestSchema, signedIn),
  logIn: (email: string, password: string) => publicPost(AUTH_ENDPOINTS.login, 'login', { email, password }, loginRequestSchema, signedIn),
  logOut: () => authedPost(AUTH_ENDPOINTS.logout, 'logout', {}, logoutRequestSchema, plainResponseSchema.transform((): void => undefined)),
  debugLogIn: (name?: string) => publicPost(AUTH_ENDPOINTS.debugLogin, 'debug_login', name === undefined ? {} : { name }, debugLoginRequestSchema,
    debugLoginResponseSchema.transform((a): DebugSignedIn => ({
      identity: { user_id: a.user_id, access_token: a.access_token }, expiresAt: a.expires_at, created: a.created === 1,
    }))),
  emailStatus: () => authedPost(AUTH_ENDPOINTS.emailStatus, 'email_status', {}, emailStatusRequestSchema,
    emailStatusResponseSchema.transform((a): EmailStatus => ({
      email: a.email, verified: a.email_verified === 1, verifiedAt: a.email_verified_at, createdAt: a.created_at,
      verificationRequired: a.verification_required === 1, cutoff: a.cutoff,
    }))),
  sendEmailCode: (email?: string) => authedPost(AUTH_ENDPOINTS.emailSendCode, 'email_send_code', { email_verify: email === undefined ? {} : { email } },
    emailSendCodeRequestSchema, codeSentResponseSchema.transform((a): CodeSent => ({ expiresAt: a.expires_at }))),
  verifyEmail: (code: string) => authedPost(AUTH_ENDPOINTS.emailVerify, 'email_verify', { email_verify: { code } }, emailVerifyRequestSchema,
    emailVerifiedResponseSchema.transform((a) => ({ email: a.email, verifiedAt: a.email_verified_at }))),
  devOutbox: () => authedPost(AUTH_ENDPOINTS.devOutbox, 'dev_outbox', {}, devOutboxRequestSchema,
    devOutboxResponseSchema.transform((a): readonly OutboxMessage[] => a.list.map((m) => ({
      messageId: m.message_id, channel: m.channel, recipient: m.recipient, subject: m.subject, body: m.body, createdAt: m.created_at,
    })))),
};

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
  constructor(private readonly http: KyHttpClient, private readonly session: SessionPort) {}

  signUp(email: string, password: string): Observable<SignedIn> { return sendCall(this.http, authCalls.signUp(email, password)).pipe(signingIn(this.session)); }
  logIn(email: string, password: string): Observable<SignedIn> { return sendCall(this.http, authCalls.logIn(email, password)).pipe(signingIn(this.session)); }
  logOut(): Observable<void> { return sendCall(this.http, authCalls.logOut()).pipe(signingOut(this.session)); }
  debugLogIn(name?: string): Observable<DebugSignedIn> { return sendCall(this.http, authCalls.debugLogIn(name)).pipe(signingIn(this.session)); }
  emailStatus(): Observable<EmailStatus> { return sendCall(this.http, authCalls.emailStatus()); }
  sendEmailCode(email?: string): Observable<CodeSent> { return sendCall(this.http, authCalls.sendEmailCode(email)); }
  verifyEmail(code: string): Observable<{ readonly email: string; readonly verifiedAt: string }> { return sendCall(this.http, authCalls.verifyEmail(code)); }
  devOutbox(): Observable<readonly OutboxMessage[]> { return sendCall(this.http, authCalls.devOutbox()); }
}
