import type { FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { ACCOUNT_ENDPOINTS, AUTH_ENDPOINTS, PURCHASE_ENDPOINTS } from '../../src/contract';
import { ERROR_INFO } from '../messages';

/** Calls per client (request IP) and window on the endpoints an attacker would hammer. */
export interface RateLimit {
  readonly max: number;
  readonly timeWindowMs: number;
}
export type RateLimits = Readonly<Record<'signup' | 'login' | 'sendCode' | 'purchase', RateLimit>>;

/** The limits in force (docs/security.md). Generous for a person, far below a script's pace. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  signup: { max: 10, timeWindowMs: 10 * 60_000 },
  login: { max: 20, timeWindowMs: 60_000 },
  sendCode: { max: 5, timeWindowMs: 10 * 60_000 },
  purchase: { max: 30, timeWindowMs: 60_000 },
};

/**
 * Puts the per-client limits on sign-up, login (and the password reset, which signs in), code
 * sending (and the reset code's request) and purchase (routes under `api`, whose prefix is
 * `apiPrefix`). A client over its limit gets 429 with our envelope (error_code 429, a Japanese
 * error_info). Call before the routes are registered.
 */
export async function registerRateLimits(api: FastifyInstance, apiPrefix: string, limits: RateLimits): Promise<void> {
  const byUrl = new Map<string, RateLimit>(
    [
      [AUTH_ENDPOINTS.signup, limits.signup],
      [AUTH_ENDPOINTS.login, limits.login],
      [AUTH_ENDPOINTS.passwordReset, limits.login],
      [AUTH_ENDPOINTS.emailSendCode, limits.sendCode],
      [AUTH_ENDPOINTS.passwordResetRequest, limits.sendCode],
      [ACCOUNT_ENDPOINTS.phoneSendCode, limits.sendCode],
      [PURCHASE_ENDPOINTS.purchaseTc, limits.purchase],
    ].map(([path, limit]) => [`${apiPrefix}/${path as string}`, limit as RateLimit]),
  );
  // Runs before the plugin's own onRoute hook (added below), so the plugin sees the route's limit.
  api.addHook('onRoute', (route) => {
    const limit = byUrl.get(route.url);
    if (limit) route.config = { ...route.config, rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } };
  });
  await api.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (request) => request.ip,
    // Thrown by the plugin; the app's error handler answers it with the envelope (see app.ts).
    errorResponseBuilder: () => ({ statusCode: 429, error_code: 429, error_info: ERROR_INFO[429] }),
  });
}
