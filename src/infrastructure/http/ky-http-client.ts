import ky, { HTTPError, type KyInstance } from 'ky';
import { Observable } from 'rxjs';
import type { z } from 'zod/mini';
import type { SessionPort } from '../../application';
import { SUCCESS_CODE, classifyResponse, withIdentity, type BuildTarget } from '../../domain';
import { ACCESS_TOKEN_HEADER } from '../../contract';
import type { HttpConfig } from './http-config';
import { retryPolicy } from './retry-policy';
import { InvalidResponseError, LoggedOutError, NotSignedInError, PostResponseError, TransportError } from './errors';
import { NEVER_LOGGED_OUT, type LogoutGuard } from './logout-guard';
import type { ServiceSignalBus } from './service-signal-bus.adapter';

/** Whether a call sends the signed-in identity: required (refused locally without one), optional, or never. */
export type IdentityUse = 'required' | 'optional' | 'none';

export interface RequestOptions {
  readonly identity?: IdentityUse;
  readonly searchParams?: Record<string, string | number>;
}

/** Builds the one ky instance every call goes through [R7-1, R7-2, R7-3, R7-5]. */
export function createKy(config: HttpConfig): KyInstance {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  if (config.authorization) headers.Authorization = config.authorization;
  // Accept-Encoding (gzip, deflate, br per §7) is a forbidden header for fetch: the browser sets it
  // itself, and Node's fetch already offers gzip, deflate and br. Setting it here would be ignored.
  return ky.create({
    prefixUrl: config.apiBase,
    headers,
    timeout: config.timeoutMs && config.timeoutMs > 0 ? config.timeoutMs : false,
    retry: retryPolicy(config.retryDelayMs),
    throwHttpErrors: true,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
}

export interface KyHttpClientDeps {
  readonly config: HttpConfig;
  readonly target: BuildTarget;
  readonly session: SessionPort;
  readonly signals: ServiceSignalBus;
  readonly logoutGuard?: LogoutGuard;
}

/**
 * The transport under every service call: identity in POST bodies [R7-4, R3-1] (a header on GETs),
 * error_code 200 as success [R8-1], PostResponseError for every refusal [R8-7], maintenance-class
 * codes published on the signal bus [R8-5, R8-6], the logout-cookie block on web [R6-9], and every
 * answer validated against the shared contract before it goes further.
 */
export class KyHttpClient {
  private readonly http: KyInstance;
  private readonly guard: LogoutGuard;

  constructor(private readonly deps: KyHttpClientDeps) {
    this.http = createKy(deps.config);
    this.guard = deps.target === 'web' ? (deps.logoutGuard ?? NEVER_LOGGED_OUT) : NEVER_LOGGED_OUT;
  }

  post<S extends z.ZodMiniType>(
    path: string,
    body: object,
    schema: S,
    context: string,
    options: RequestOptions = {},
  ): Observable<z.infer<S>> {
    return this.call('POST', path, body, schema, context, options);
  }

  get<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    context: string,
    options: RequestOptions = {},
  ): Observable<z.infer<S>> {
    return this.call('GET', path, null, schema, context, options);
  }

  private call<S extends z.ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    body: object | null,
    schema: S,
    context: string,
    options: RequestOptions,
  ): Observable<z.infer<S>> {
    return new Observable<z.infer<S>>((subscriber) => {
      const abort = new AbortController();
      this.send(method, path, body, schema, context, options, abort.signal).then(
        (value) => {
          if (abort.signal.aborted) return;
          subscriber.next(value);
          subscriber.complete();
        },
        (error: unknown) => {
          if (!abort.signal.aborted) subscriber.error(error);
        },
      );
      return () => abort.abort();
    });
  }

  private async send<S extends z.ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    body: object | null,
    schema: S,
    context: string,
    options: RequestOptions,
    signal: AbortSignal,
  ): Promise<z.infer<S>> {
    if (this.guard.isLoggedOut()) {
      this.deps.signals.publish({ kind: 'loggedOut' });
      throw new LoggedOutError(context);
    }
    const identityUse = options.identity ?? 'optional';
    const identity = identityUse === 'none' ? null : this.deps.session.current();
    if (identityUse === 'required' && !identity) throw new NotSignedInError(context);

    const rawRequestBody = body === null ? '' : JSON.stringify(identity ? withIdentity(identity, body) : body);
    let url = path;
    let rawResponse = '';
    const detail = (response: unknown = null) => ({
      request: { method, url },
      rawRequestBody,
      response,
      rawResponse,
      context,
    });
    try {
      const response = await this.http(path, {
        method,
        signal,
        ...(body === null ? {} : { body: rawRequestBody }),
        ...(options.searchParams ? { searchParams: options.searchParams } : {}),
        ...(method === 'GET' && identity ? { headers: { [ACCESS_TOKEN_HEADER]: identity.access_token } } : {}),
      });
      url = response.url;
      rawResponse = await response.text();
    } catch (error) {
      if (!(error instanceof HTTPError)) throw new TransportError(context, null, detail(), { cause: error });
      // Refusals come with an HTTP error status AND an error_code body: keep the body.
      url = error.response.url;
      rawResponse = await error.response.text().catch(() => '');
      if (!/^\s*\{/.test(rawResponse))
        throw new TransportError(context, error.response.status, detail(), { cause: error });
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(rawResponse);
    } catch (error) {
      throw new InvalidResponseError(context, 'not JSON', detail(), { cause: error });
    }
    const envelope = parsed as { error_code?: unknown; error_info?: unknown };
    if (typeof envelope.error_code !== 'number')
      throw new InvalidResponseError(context, 'error_code: missing', detail(parsed));
    if (envelope.error_code !== SUCCESS_CODE) {
      const info = typeof envelope.error_info === 'string' ? envelope.error_info : '';
      const decision = classifyResponse({ error_code: envelope.error_code, error_info: info }, this.deps.target);
      if (decision.kind === 'maintenance') {
        this.deps.signals.publish({
          kind: 'maintenance',
          code: decision.code,
          error_code: envelope.error_code,
          effects: decision.effects,
        });
      }
      throw new PostResponseError(envelope.error_code, info, detail(parsed));
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      throw new InvalidResponseError(
        context,
        result.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; '),
        detail(parsed),
      );
    }
    return result.data as z.infer<S>;
  }
}
