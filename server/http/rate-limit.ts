import type { FastifyInstance } from 'fastify';
import fastifyRateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { ACCOUNT_ENDPOINTS, AUTH_ENDPOINTS, PURCHASE_ENDPOINTS } from '../../src/contract';
import type { WindowLimiter } from '../limits/window-limiter';
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
 * @fastify/rate-limit's store over a WindowLimiter: the counts of every call's limit live where the
 * limiter keeps them (the store: shared by the instances on one database), one counter per route
 * (its URL names the limit). The plugin makes a child per limited route.
 */
export function windowLimiterStore(limiter: WindowLimiter): FastifyRateLimitStoreCtor {
  return class WindowLimiterStore implements FastifyRateLimitStore {
    private readonly name: string;

    constructor(options: FastifyRateLimitOptions & { routeInfo?: { url?: string } }) {
      this.name = `http:${options.routeInfo?.url ?? ''}`;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
      max?: number,
    ): void {
      limiter.hit({ name: this.name, max: max ?? 0, windowMs: timeWindow ?? 60_000 }, key).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.retryAfterMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: FastifyRateLimitOptions & { routeInfo?: { url?: string } }): FastifyRateLimitStore {
      return new WindowLimiterStore(routeOptions);
    }
  };
}

/**
 * Puts the per-client limits on sign-up, login (and the password reset, which signs in), code
 * sending (and the reset code's request) and purchase (routes under `api`, whose prefix is
 * `apiPrefix`). A client over its limit gets 429 with our envelope (error_code 429, a Japanese
 * error_info). The counts are the limiter's (in the store: they hold for every instance on one
 * database). Call before the routes are registered.
 */
export async function registerRateLimits(
  api: FastifyInstance,
  apiPrefix: string,
  limits: RateLimits,
  limiter: WindowLimiter,
): Promise<void> {
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
    store: windowLimiterStore(limiter),
    keyGenerator: (request) => request.ip,
    // Thrown by the plugin; the app's error handler answers it with the envelope (see app.ts).
    errorResponseBuilder: () => ({ statusCode: 429, error_code: 429, error_info: ERROR_INFO[429] }),
  });
}
