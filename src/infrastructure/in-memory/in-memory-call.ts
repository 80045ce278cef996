import { defer, of, throwError, type Observable } from 'rxjs';
import type { z } from 'zod';
import type { SessionPort } from '../../application';
import { classifyResponse, withIdentity, type BuildTarget } from '../../domain';
import { japaneseIssue } from '../../contract';
import { InvalidResponseError, NotSignedInError, PostResponseError } from '../http/errors';
import type { ServiceSignalBus } from '../http/service-signal-bus.adapter';
import type { ServiceCall } from '../http/service-call';
import { InMemoryRefusal, type InMemoryBackend, type InMemoryUser } from './in-memory-backend';


/** What the fake's handler of one call returns: the answer's fields besides error_code and error_info. */
export type Handler<Req extends z.ZodType> = (request: z.output<Req>, user: InMemoryUser) => object;
export type PublicHandler<Req extends z.ZodType> = (request: z.output<Req>) => object;

/**
 * Answers a ServiceCall the way the reference server does, from the in-memory backend: no session →
 * NotSignedInError before anything is "sent" (as KyHttpClient does); a bad identity → 401 (9002 for a
 * suspended user); a body the contract's request schema refuses → 400 with the server's Japanese
 * message; a handler's InMemoryRefusal → its code and info. Refusals become PostResponseError with
 * the same code and info the HTTP adapter would raise, and maintenance codes are published on the
 * signal bus; a success answer goes through the call's answer schema, so the fake emits exactly
 * what the adapter would.
 */
export class InMemoryCaller {
  constructor(
    readonly backend: InMemoryBackend,
    private readonly session: SessionPort,
    readonly target: BuildTarget,
    private readonly signals: ServiceSignalBus | null = null,
  ) {}

  /** An authenticated call: the handler gets the parsed request and the caller. */
  serve<Req extends z.ZodType, Ans extends z.ZodType>(call: ServiceCall<Req, Ans>, handle: Handler<Req>): Observable<z.output<Ans>> {
    return this.handle(call, (request, user) => {
      if (!user) throw new InMemoryRefusal(401, 'ログインの有効期限が切れました。もう一度ログインしてください。');
      return handle(request, user);
    });
  }

  /** A call with no identity (sign-up, login, debug login). */
  servePublic<Req extends z.ZodType, Ans extends z.ZodType>(call: ServiceCall<Req, Ans>, handle: PublicHandler<Req>): Observable<z.output<Ans>> {
    return this.handle(call, (request) => handle(request));
  }

  /**
   * Any call, whatever its identity use: 'required' refuses without a valid identity (401, 9002);
   * 'optional' passes the caller when the identity is valid and treats anything else as a guest, as
   * the server's optionalUser does; 'none' sends no identity. Cold: nothing happens until subscribed.
   */
  handle<Req extends z.ZodType, Ans extends z.ZodType>(
    call: ServiceCall<Req, Ans>, handle: (request: z.output<Req>, user: InMemoryUser | null) => object,
  ): Observable<z.output<Ans>> {
    return defer(() => {
      try {
        return of(this.answer(call, handle));
      } catch (error) {
        return throwError(() => error);
      }
    });
  }

  private answer<Req extends z.ZodType, Ans extends z.ZodType>(
    call: ServiceCall<Req, Ans>, handle: (request: z.output<Req>, user: InMemoryUser | null) => object,
  ): z.output<Ans> {
    const identity = call.identity === 'none' ? null : this.session.current();
    if (call.identity === 'required' && !identity) throw new NotSignedInError(call.context);
    // What travels: the body with the identity (POST), or the query (GET, identity in a header).
    const sent: unknown = JSON.parse(JSON.stringify(call.method === 'POST' && identity ? withIdentity(identity, call.body) : call.body));
    try {
      let user: InMemoryUser | null = null;
      if (call.identity === 'required') {
        // A GET names its user in the path; it must be the token's user (else the same 401).
        user = this.backend.authenticate(call.method === 'GET' && identity ? { user_id: call.pathUserId ?? 0, access_token: identity.access_token } : identity);
      } else if (identity) {
        user = this.backend.tryAuthenticate(identity);
      }
      const parsed = call.request.safeParse(sent);
      if (!parsed.success) throw new InMemoryRefusal(400, japaneseIssue(parsed.error));
      const payload = handle(parsed.data as z.output<Req>, user);
      const result = call.answer.safeParse({ error_code: 200, error_info: '', ...payload });
      if (!result.success) {
        throw new InvalidResponseError(call.context, result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
      }
      return result.data as z.output<Ans>;
    } catch (error) {
      if (error instanceof InMemoryRefusal) throw this.refusal(call, sent, error);
      throw error;
    }
  }

  private refusal(call: ServiceCall, sent: unknown, refusal: InMemoryRefusal): PostResponseError {
    const response = { error_code: refusal.error_code, error_info: refusal.error_info, ...refusal.extra };
    const decision = classifyResponse(response, this.target);
    if (decision.kind === 'maintenance') {
      this.signals?.publish({ kind: 'maintenance', code: decision.code, error_code: refusal.error_code, effects: decision.effects });
    }
    const rawRequestBody = call.method === 'POST' ? JSON.stringify(sent) : '';
    return new PostResponseError(refusal.error_code, refusal.error_info, {
      request: { method: call.method, url: `memory:/${call.path}` }, rawRequestBody, response, rawResponse: JSON.stringify(response), context: call.context,
    });
  }
}
