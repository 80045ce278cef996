import ky, { HTTPError, type KyInstance } from 'ky';
import { Observable } from 'rxjs';
import type { z } from 'zod';
import type { PrizeCatalogPort, TopPageQuery } from '../../application';
import type { TopPageCatalogue } from '../../domain';
import { ENDPOINTS, SUCCESS_CODE, topPagePrizeResponseSchema } from '../../contract';
import type { HttpConfig } from './http-config';
import { InvalidResponseError, PostResponseError, TransportError } from './errors';

/** Statuses on which a GET is retried once [R7-5]. */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504] as const;

export function createKy(config: HttpConfig): KyInstance {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  if (config.authorization) headers.Authorization = config.authorization;
  // Accept-Encoding (gzip, deflate, br per §7) is a forbidden header for fetch: the browser sets it.
  return ky.create({
    prefixUrl: config.apiBase,
    headers,
    timeout: config.timeoutMs && config.timeoutMs > 0 ? config.timeoutMs : false,
    retry: { limit: 1, methods: ['get'], statusCodes: [...RETRY_STATUS_CODES], afterStatusCodes: [] },
    throwHttpErrors: true,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
}

/**
 * The service API over HTTP with ky. Every call validates its answer against the shared contract
 * before it reaches a use-case.
 */
export class KyServiceApi implements PrizeCatalogPort {
  private readonly http: KyInstance;

  constructor(config: HttpConfig) {
    this.http = createKy(config);
  }

  topPage(query: TopPageQuery): Observable<TopPageCatalogue> {
    const body = { shop_id: query.shopId, is_top_page: 1, ...(query.fesId !== undefined ? { fes_id: query.fesId } : {}) };
    return this.post(ENDPOINTS.topPagePrize, body, topPagePrizeResponseSchema, 'top_page_prize');
  }

  private post<S extends z.ZodType>(path: string, body: object, schema: S, context: string): Observable<z.infer<S>> {
    return new Observable<z.infer<S>>((subscriber) => {
      const abort = new AbortController();
      const rawRequestBody = JSON.stringify(body);
      (async () => {
        let rawResponse: string;
        let url = path;
        try {
          const response = await this.http.post(path, { body: rawRequestBody, signal: abort.signal });
          url = response.url;
          rawResponse = await response.text();
        } catch (error) {
          if (abort.signal.aborted) return;
          if (!(error instanceof HTTPError)) throw new TransportError(context, null, { cause: error });
          // The service answers refusals with an HTTP error status AND an error_code body: keep the body.
          url = error.response.url;
          rawResponse = await error.response.text().catch(() => '');
          if (!/^\s*\{/.test(rawResponse)) throw new TransportError(context, error.response.status, { cause: error });
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(rawResponse);
        } catch (error) {
          throw new InvalidResponseError(context, 'not JSON', { cause: error });
        }
        const envelope = parsed as { error_code?: unknown; error_info?: unknown };
        if (typeof envelope.error_code === 'number' && envelope.error_code !== SUCCESS_CODE) {
          throw new PostResponseError(envelope.error_code, String(envelope.error_info ?? ''), {
            request: { method: 'POST', url }, rawRequestBody, response: parsed, rawResponse, context,
          });
        }
        const result = schema.safeParse(parsed);
        if (!result.success) throw new InvalidResponseError(context, result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        return result.data as z.infer<S>;
      })().then(
        (value) => {
          if (value === undefined) return;
          subscriber.next(value);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => abort.abort();
    });
  }
}
