import type { FastifyInstance } from 'fastify';

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that answers through Fastify's `inject`: the real server and its real handlers, with no
 * socket in between. Pass it as `HostEnvironment.fetch` so the real ky adapters talk to an
 * in-process server. The URL's origin is ignored; path, query, method, headers and body go through
 * as sent, and the answer comes back with its status, headers and bytes. An aborted signal (ky's
 * timeout, an unsubscribe) rejects with an AbortError as fetch does.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const aborted = () => request.signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
    if (request.signal.aborted) throw aborted();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    const res = await new Promise<Awaited<typeof answer>>((resolve, reject) => {
      const onAbort = () => reject(aborted());
      request.signal.addEventListener('abort', onAbort, { once: true });
      answer.then(resolve, reject).finally(() => request.signal.removeEventListener('abort', onAbort));
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) responseHeaders.append(key, String(v));
      else if (value !== undefined) responseHeaders.set(key, String(value));
    }
    return new Response(NO_BODY_STATUSES.has(res.statusCode) ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: responseHeaders });
  };
}
