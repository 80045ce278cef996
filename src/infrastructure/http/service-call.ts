import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { IdentityUse, KyHttpClient } from './ky-http-client';

/**
 * One call of the service API, described once: where it goes, the body the client sends, the
 * contract schema the server validates that body with, and the contract schema of the answer piped
 * into the port's type. The HTTP adapters send it with `sendCall`; the request schema names, next to
 * the body, exactly what the server will check.
 */
export interface ServiceCall<Req extends z.ZodType = z.ZodType, Ans extends z.ZodType = z.ZodType> {
  readonly method: 'POST' | 'GET';
  /** Path relative to the API base. */
  readonly path: string;
  /** Names the call in errors (PostResponseError.detail.context). */
  readonly context: string;
  /** Whether the signed-in identity is sent: 'required' refuses locally without a session. */
  readonly identity: IdentityUse;
  /** The body without identity (POST); for GET the query parameters. */
  readonly body: Record<string, unknown>;
  /** For an authenticated GET: the user id the path names (must be the token's user). */
  readonly pathUserId?: number;
  /** The contract schema of what the server receives (the body with identity, or the query). */
  readonly request: Req;
  /** The contract schema of the answer, transformed to what the port emits. */
  readonly answer: Ans;
}

/** An authenticated POST (identity in the body, refused by the server with 401 without a valid one). */
export function authedPost<Req extends z.ZodType, Ans extends z.ZodType>(path: string, context: string, body: Record<string, unknown>, request: Req, answer: Ans): ServiceCall<Req, Ans> {
  return { method: 'POST', path, context, identity: 'required', body, request, answer };
}

/** A POST that sends no identity (sign-up, login, debug login). */
export function publicPost<Req extends z.ZodType, Ans extends z.ZodType>(path: string, context: string, body: Record<string, unknown>, request: Req, answer: Ans): ServiceCall<Req, Ans> {
  return { method: 'POST', path, context, identity: 'none', body, request, answer };
}

/** An authenticated GET: token in the X-Access-Token header, the path names the user. */
export function authedGet<Req extends z.ZodType, Ans extends z.ZodType>(path: string, context: string, pathUserId: number, query: Record<string, unknown>, request: Req, answer: Ans): ServiceCall<Req, Ans> {
  return { method: 'GET', path, context, identity: 'required', body: query, pathUserId, request, answer };
}

/** Sends a call over HTTP and emits the port's value (cold; unsubscribing aborts the request). */
export function sendCall<Req extends z.ZodType, Ans extends z.ZodType>(http: KyHttpClient, call: ServiceCall<Req, Ans>): Observable<z.output<Ans>> {
  if (call.method === 'GET') {
    const searchParams: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(call.body)) if (typeof value === 'string' || typeof value === 'number') searchParams[key] = value;
    return http.get(call.path, call.answer, call.context, { identity: call.identity, searchParams });
  }
  return http.post(call.path, call.body, call.answer, call.context, { identity: call.identity });
}
