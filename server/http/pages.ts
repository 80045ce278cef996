import type { FastifyInstance } from 'fastify';

export type { PageRenderer, PageRendererFactory, PageRequest, RenderedPage } from '../../src/contract';

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` answered by the server itself through Fastify's `inject`: the same routes, validation,
 * limits and answers as over the network, with no socket in between (a page render's API calls;
 * tests give it to the real ky adapters). The URL's origin is ignored; path, query, method, headers
 * and body go through as sent, and the answer comes back with its status, headers and bytes. The
 * calls come from `clientIp` (the per-client limits count them as that client's). An aborted signal
 * (ky's timeout, an unsubscribe) rejects with an AbortError as fetch does.
 */
export function inProcessFetch(app: FastifyInstance, clientIp = '127.0.0.1'): typeof fetch {
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
      remoteAddress: clientIp,
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
    return new Response(NO_BODY_STATUSES.has(res.statusCode) ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}

/** A rendered page's whole HTML (UTF-8: a character split between two chunks is joined, not broken). */
export async function readRenderedText(body: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
