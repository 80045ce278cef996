import { HTTPError, type RetryOptions } from 'ky';

/** Statuses on which a GET is retried once [R7-5]. */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504] as const;

/** The wait before the one retry when none is configured. */
export const DEFAULT_RETRY_DELAY_MS = 300;

/**
 * The retry policy of every service call [R7-5]: a GET is retried exactly once on the listed
 * statuses; POST, PUT, PATCH and DELETE never are. ky's defaults retry twice and include PUT and
 * DELETE, and would also retry a GET whose fetch failed outright (a network error): the spec
 * retries only on the listed statuses.
 */
export function retryPolicy(delayMs: number = DEFAULT_RETRY_DELAY_MS): RetryOptions {
  return {
    limit: 1,
    methods: ['get'],
    statusCodes: [...RETRY_STATUS_CODES],
    afterStatusCodes: [],
    delay: () => delayMs,
    shouldRetry: ({ error }) =>
      error instanceof HTTPError && (RETRY_STATUS_CODES as readonly number[]).includes(error.response.status),
  };
}
