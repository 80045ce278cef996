import { emailValidGuard } from '../../src/domain';
import type { FastifyInstance } from 'fastify';
import {
  AUTH_ENDPOINTS, debugLoginRequestSchema, devOutboxRequestSchema, emailSendCodeRequestSchema, emailStatusRequestSchema,
  emailVerifyRequestSchema, loginRequestSchema, logoutRequestSchema, signupRequestSchema,
} from '../../src/contract';
import { parseBody } from '../http/validate';
import { accountServices, answer } from '../account/services';
import { requireUser } from '../auth/identity';
import { ok, replyError } from '../http/reply';
import type { ApiDeps } from './deps';

/**
 * Sign-up, login, logout, e-mail verification; and, only when development calls are enabled
 * (ONKURE_DEV_CALLS=1, never in production), the debug login [R6-6] and the dev outbox.
 * Otherwise those two routes are not registered at all (404).
 */
export async function authRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const s = accountServices(deps);
  const E = AUTH_ENDPOINTS;

  app.post(`/${E.signup}`, async (request, reply) => {
    const body = parseBody(signupRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(await s.auth.signup(body.email, body.password)));
  });

  app.post(`/${E.login}`, async (request, reply) => {
    const body = parseBody(loginRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => ok(await s.auth.login(body.email, body.password, request.ip)));
  });

  app.post(`/${E.logout}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(logoutRequestSchema, request.body, reply);
    if (!body) return reply;
    await deps.identity.revokeFor(user.user_id, body.access_token);
    return ok({});
  });

  app.post(`/${E.emailStatus}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(emailStatusRequestSchema, request.body, reply)) return reply;
    return answer(reply, async () => {
      const u = await s.users.get(user.user_id);
      const created = new Date(u.created_at);
      const cutoff = deps.config.emailVerifyCutoff;
      const guard = emailValidGuard({ signedIn: true, emailVerified: Boolean(u.email_verified_at), createdAtMs: created.getTime(), cutoffMs: cutoff.getTime() });
      return ok({
        email: u.email ?? (await s.verification.pendingEmail(user.user_id)),
        email_verified: u.email_verified_at ? 1 : 0,
        email_verified_at: u.email_verified_at ? new Date(u.email_verified_at).toISOString() : null,
        created_at: created.toISOString(),
        verification_required: guard.kind === 'admit' ? 1 : 0,
        cutoff: cutoff.toISOString(),
      });
    });
  });

  app.post(`/${E.emailSendCode}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(emailSendCodeRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      const email = body.email_verify.email ?? (await s.users.get(user.user_id)).email;
      if (!email) return replyError(reply, 400, 'メールアドレスを入力してください。');
      return ok(await s.verification.send(user.user_id, 'email', email));
    });
  });

  app.post(`/${E.emailVerify}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(emailVerifyRequestSchema, request.body, reply);
    if (!body) return reply;
    return answer(reply, async () => {
      const done = await s.verification.verify(user.user_id, 'email', body.email_verify.code);
      return ok({ email: done.target, email_verified_at: done.verified_at });
    });
  });

  if (!deps.config.devCalls) return;

  app.post(`/${E.debugLogin}`, async (request, reply) => {
    const body = parseBody(debugLoginRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok(await s.auth.debugLogin(body.name ?? 'debug'));
  });

  app.post(`/${E.devOutbox}`, async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user || !parseBody(devOutboxRequestSchema, request.body, reply)) return reply;
    return ok({ list: await s.verification.outbox(user.user_id) });
  });
}
