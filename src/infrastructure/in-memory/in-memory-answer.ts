import { defer, of, type Observable } from 'rxjs';
import type { z } from 'zod';
import type { SessionPort } from '../../application';
import { withIdentity } from '../../domain';
import { InvalidResponseError, NotSignedInError, PostResponseError } from '../http/errors';
import type { IdentityUse } from '../http/ky-http-client';
import { InMemoryRefusal, type InMemoryBackend, type InMemoryUser } from './in-memory-backend';

/** One call a fake answers the way the reference server does. */
export interface InMemoryCall<Req extends z.ZodType, Res extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly context: string;
  /** As the HTTP adapter sends it: required (refused locally without a session), optional, none. */
  readonly identity: IdentityUse;
  /** The body (or, for a GET, the query) as the adapter would send it, before identity is added. */
  readonly body: object;
  readonly request: Req;
  readonly response: Res;
  /** The answer's payload (no envelope); throw InMemoryRefusal to refuse. */
  readonly handle: (body: z.infer<Req>, caller: InMemoryUser | null) => object;
}

/** The server's error_info for a body its contract schema refuses: it names the first bad field. */
export function badRequestInfo(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : null;
  return field ? `リクエストの内容が正しくありません（${field}）。` : 'リクエストの内容が正しくありません。';
}

/**
 * Runs one call in memory with the reference server's order and the HTTP adapter's failures: no
 * session on a required call → NotSignedInError (nothing sent); a body the request schema refuses →
 * 400; identity checked by the backend (401, 9002) on a required call, a guest on an optional one
 * with a bad pair; a refusal → PostResponseError with the server's code and Japanese info; the
 * answer validated with the response schema, so a fake cannot drift from the contract.
 * Cold: nothing happens until subscribed.
 */
export function answerInMemory<Req extends z.ZodType, Res extends z.ZodType>(
  backend: InMemoryBackend, session: SessionPort, call: InMemoryCall<Req, Res>,
): Observable<z.infer<Res>> {
  return defer(() => {
    const identity = call.identity === 'none' ? null : session.current();
    if (call.identity === 'required' && !identity) throw new NotSignedInError(call.context);
    const sent = identity ? withIdentity(identity, call.body) : call.body;
    const rawRequestBody = call.method === 'GET' ? '' : JSON.stringify(sent);
    try {
      const parsed = call.request.safeParse(sent);
      if (!parsed.success) throw new InMemoryRefusal(400, badRequestInfo(parsed.error));
      let caller: InMemoryUser | null = null;
      if (call.identity === 'required') caller = backend.authenticate(identity);
      else if (identity) {
        try {
          caller = backend.authenticate(identity);
        } catch {
          caller = null;
        }
      }
      const answer = { error_code: 200, error_info: '', ...call.handle(parsed.data, caller) };
      const checked = call.response.safeParse(answer);
      if (!checked.success) {
        throw new InvalidResponseError(call.context, checked.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
      }
      return of(checked.data as z.infer<Res>);
    } catch (error) {
      if (!(error instanceof InMemoryRefusal)) throw error;
      const response = { error_code: error.error_code, error_info: error.error_info };
      throw new PostResponseError(error.error_code, error.error_info, {
        request: { method: call.method, url: call.path }, rawRequestBody, response, rawResponse: JSON.stringify(response), context: call.context,
      });
    }
  });
}
