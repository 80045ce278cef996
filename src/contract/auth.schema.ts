import { z } from 'zod';
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
  .min(8, M.passwordTooShort)
  .max(128, M.passwordTooLong)
  .refine((v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v), M.passwordLettersAndDigits);

/** agree_contract 1: the sign-up form's terms agreement, stored with the new account. */
export const signupRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  agree_contract: flag01Schema.optional(),
});
/** Login checks only the shape; a wrong pair gets one message whichever half is wrong. */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(128, M.passwordTooLong),
});
export const logoutRequestSchema = identitySchema;
/** name picks one of several debug users (default 'debug'), so a developer can keep two sessions. */
export const debugLoginRequestSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9_-]{1,20}$/, M.debugUserName)
    .optional(),
});

export const loginResponseSchema = errorResponseSchema.extend({
  user_id: z.number().int().positive(),
  access_token: z.string(),
  expires_at: z.string(),
});
export const debugLoginResponseSchema = loginResponseSchema.extend({ created: flag01Schema });

export const emailStatusRequestSchema = identitySchema;
export const emailStatusResponseSchema = errorResponseSchema.extend({
  email: z.string().nullable(),
  email_verified: flag01Schema,
  email_verified_at: z.string().nullable(),
  created_at: z.string(),
  /** The server side of the /emailvalid guard [R2.2-2]: unverified and created after the cutoff. */
  verification_required: flag01Schema,
  cutoff: z.string(),
});
export const emailSendCodeRequestSchema = identitySchema.extend({
  email_verify: z.object({ email: emailSchema.optional() }),
});
export const emailVerifyRequestSchema = identitySchema.extend({
  email_verify: z.object({ code: verificationCodeSchema }),
});
export const emailVerifiedResponseSchema = errorResponseSchema.extend({
  email: z.string(),
  email_verified_at: z.string(),
});

export const devOutboxRequestSchema = identitySchema;
export const devOutboxResponseSchema = errorResponseSchema.extend({
  list: z.array(
    z.object({
      message_id: z.number().int(),
      channel: z.enum(['email', 'sms']),
      recipient: z.string(),
      subject: z.string(),
      body: z.string(),
      created_at: z.string(),
    }),
  ),
});

/** Changes the password: the current one is checked; every other session of the account ends. */
export const passwordChangeRequestSchema = identitySchema.extend({
  password_change: z
    .object({
      current_password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(128, M.passwordTooLong),
      new_password: passwordSchema,
    })
    .refine((v) => v.current_password !== v.new_password, { message: M.newPasswordSame, path: ['new_password'] }),
});
export const passwordChangeResponseSchema = errorResponseSchema;

/**
 * Asks for a reset code by e-mail. The answer is the same whether or not the address has an
 * account (it must not tell who is a member); only a verified-or-registered address gets a code.
 */
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export const passwordResetRequestResponseSchema = errorResponseSchema.extend({ expires_at: z.string() });
/** Sets a new password with the e-mailed code; every session of the account ends and a new one starts. */
export const passwordResetSchema = z.object({
  email: emailSchema,
  code: verificationCodeSchema,
  password: passwordSchema,
});

export const devMailboxRequestSchema = z.object({ recipient: z.string().min(1).max(254) });
