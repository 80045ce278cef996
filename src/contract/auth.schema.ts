import { z } from 'zod/mini';
import { PASSWORD_MAX } from '../domain';
import { emailSchema, verificationCodeSchema } from './account.schema';
import { errorResponseSchema } from './envelope';
import { flag01Schema, identitySchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/** Sign-up, login, logout, debug login, e-mail verification and the dev outbox. See docs/api/user.md. */
export const AUTH_ENDPOINTS = {
  signup: 'auth/signup',
  login: 'auth/login',
  logout: 'auth/logout',
  debugLogin: 'auth/debug_login',
  emailStatus: 'auth/email/status',
  emailSendCode: 'auth/email/send_code',
  emailVerify: 'auth/email/verify',
  devOutbox: 'auth/dev_outbox',
  passwordChange: 'auth/password/change',
  passwordResetRequest: 'auth/password/reset_request',
  passwordReset: 'auth/password/reset',
  /** Development only: a recipient's messages without a session (the reset code of a signed-out player). */
  devMailbox: 'auth/dev_mailbox',
} as const;

export const passwordSchema = z
  .string({ error: M.passwordNotString })
  .check(z.minLength(8, M.passwordTooShort))
  .check(z.maxLength(PASSWORD_MAX, M.passwordTooLong))
  .check(z.refine((v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v), M.passwordLettersAndDigits));

/** agree_contract 1: the sign-up form's terms agreement, stored with the new account. */
export const signupRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  agree_contract: z.optional(flag01Schema),
});
/** Login checks only the shape; a wrong pair gets one message whichever half is wrong. */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: M.passwordRequired })
    .check(z.minLength(1, M.passwordRequired))
    .check(z.maxLength(PASSWORD_MAX, M.passwordTooLong)),
});
export const logoutRequestSchema = identitySchema;
/** name picks one of several debug users (default 'debug'), so a developer can keep two sessions. */
export const debugLoginRequestSchema = z.object({
  name: z.optional(z.string().check(z.regex(/^[a-z0-9_-]{1,20}$/, M.debugUserName))),
});

export const loginResponseSchema = z.extend(errorResponseSchema, {
  user_id: z.int().check(z.positive()),
  access_token: z.string(),
  expires_at: z.string(),
});
export const debugLoginResponseSchema = z.extend(loginResponseSchema, { created: flag01Schema });

export const emailStatusRequestSchema = identitySchema;
export const emailStatusResponseSchema = z.extend(errorResponseSchema, {
  email: z.nullable(z.string()),
  email_verified: flag01Schema,
  email_verified_at: z.nullable(z.string()),
  created_at: z.string(),
  /** The server side of the /emailvalid guard [R2.2-2]: unverified and created after the cutoff. */
  verification_required: flag01Schema,
  cutoff: z.string(),
});
export const emailSendCodeRequestSchema = z.extend(identitySchema, {
  email_verify: z.object({ email: z.optional(emailSchema) }),
});
export const emailVerifyRequestSchema = z.extend(identitySchema, {
  email_verify: z.object({ code: verificationCodeSchema }),
});
export const emailVerifiedResponseSchema = z.extend(errorResponseSchema, {
  email: z.string(),
  email_verified_at: z.string(),
});

export const devOutboxRequestSchema = identitySchema;
export const devOutboxResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(
    z.object({
      message_id: z.int(),
      channel: z.enum(['email', 'sms']),
      recipient: z.string(),
      subject: z.string(),
      body: z.string(),
      created_at: z.string(),
    }),
  ),
});

/** Changes the password: the current one is checked; every other session of the account ends. */
export const passwordChangeRequestSchema = z.extend(identitySchema, {
  password_change: z
    .object({
      current_password: z
        .string({ error: M.passwordRequired })
        .check(z.minLength(1, M.passwordRequired))
        .check(z.maxLength(PASSWORD_MAX, M.passwordTooLong)),
      new_password: passwordSchema,
    })
    .check(
      z.refine((v) => v.current_password !== v.new_password, { message: M.newPasswordSame, path: ['new_password'] }),
    ),
});
export const passwordChangeResponseSchema = errorResponseSchema;

/**
 * Asks for a reset code by e-mail. The answer is the same whether or not the address has an
 * account (it must not tell who is a member); only a verified-or-registered address gets a code.
 */
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export const passwordResetRequestResponseSchema = z.extend(errorResponseSchema, { expires_at: z.string() });
/** Sets a new password with the e-mailed code; every session of the account ends and a new one starts. */
export const passwordResetSchema = z.object({
  email: emailSchema,
  code: verificationCodeSchema,
  password: passwordSchema,
});

export const devMailboxRequestSchema = z.object({
  recipient: z.string().check(z.minLength(1)).check(z.maxLength(254)),
});
