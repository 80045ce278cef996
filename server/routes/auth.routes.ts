import { emailValidGuard, VALIDATION_MESSAGES } from '../../src/domain';
import {
  ADDRESS_INPUT_LABELS,
  AUTH_ENDPOINTS,
  debugLoginRequestSchema,
  devMailboxRequestSchema,
  devOutboxRequestSchema,
  emailSendCodeRequestSchema,
  emailStatusRequestSchema,
  emailVerifyRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  passwordChangeRequestSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  signupRequestSchema,
} from '../../src/contract';
import { Refusal } from '../play/refusal';
import type { ApiDeps } from './deps';

/**
 * Sign-up, login, logout, e-mail verification, password change and reset; and, only when
 * development calls are enabled (ONKURE_DEV_CALLS=1, never in production), the debug login [R6-6],
 * the dev outbox and the dev mailbox. Otherwise those routes are not registered at all (404).
 */
export async function authRoutes({ route, services: s, config }: ApiDeps): Promise<void> {
  const E = AUTH_ENDPOINTS;

  route.open(`/${E.signup}`, signupRequestSchema, async (body) => {
    return await s.auth.signup(body.email, body.password, body.agree_contract === 1);
  });

  route.open(`/${E.login}`, loginRequestSchema, async (body, _user, { request }) => {
    return await s.auth.login(body.email, body.password, request.ip);
  });

  route.authed(`/${E.logout}`, logoutRequestSchema, async (user, body) => {
    await s.identity.revokeFor(user.user_id, body.access_token);
    return {};
  });

  route.authed(`/${E.emailStatus}`, emailStatusRequestSchema, async (user) => {
    const u = await s.users.get(user.user_id);
    const created = new Date(u.created_at);
    const cutoff = config.emailVerifyCutoff;
    const guard = emailValidGuard({
      signedIn: true,
      emailVerified: Boolean(u.email_verified_at),
      createdAtMs: created.getTime(),
      cutoffMs: cutoff.getTime(),
    });
    return {
      email: u.email ?? (await s.verification.pendingEmail(user.user_id)),
      email_verified: u.email_verified_at ? 1 : 0,
      email_verified_at: u.email_verified_at ? new Date(u.email_verified_at).toISOString() : null,
      created_at: created.toISOString(),
      verification_required: guard.kind === 'admit' ? 1 : 0,
      cutoff: cutoff.toISOString(),
    };
  });

  route.authed(`/${E.emailSendCode}`, emailSendCodeRequestSchema, async (user, body) => {
    const email = body.email_verify.email ?? (await s.users.get(user.user_id)).email;
    if (!email) throw new Refusal(400, 400, VALIDATION_MESSAGES.required(ADDRESS_INPUT_LABELS.email));
    return await s.verification.send(user.user_id, 'email', email);
  });

  route.authed(`/${E.emailVerify}`, emailVerifyRequestSchema, async (user, body) => {
    const done = await s.verification.verify(user.user_id, 'email', body.email_verify.code);
    return { email: done.target, email_verified_at: done.verified_at };
  });

  route.authed(`/${E.passwordChange}`, passwordChangeRequestSchema, async (user, body) => {
    const { current_password, new_password } = body.password_change;
    await s.passwords.change(user.user_id, body.access_token, current_password, new_password);
    return {};
  });

  route.open(`/${E.passwordResetRequest}`, passwordResetRequestSchema, async (body, _user, { request }) => {
    return await s.passwords.requestReset(body.email, request.ip);
  });

  route.open(`/${E.passwordReset}`, passwordResetSchema, async (body) => {
    return await s.passwords.reset(body.email, body.code, body.password);
  });

  if (!config.devCalls) return;

  route.open(`/${E.debugLogin}`, debugLoginRequestSchema, async (body) => {
    return await s.auth.debugLogin(body.name ?? 'debug');
  });

  route.authed(`/${E.devOutbox}`, devOutboxRequestSchema, async (user) => {
    return { list: await s.verification.outbox(user.user_id) };
  });

  route.open(`/${E.devMailbox}`, devMailboxRequestSchema, async (body) => {
    return { list: await s.verification.mailbox(body.recipient) };
  });
}
