import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { IdentityUse } from '../http/ky-http-client';
import type { InMemoryUser } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';

/** One call a fake answers the way the reference server does, with its handler. */
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

/** Answers one call through the caller (identity, validation, refusals and signals as the server). */
export function answerInMemory<Req extends z.ZodType, Res extends z.ZodType>(caller: InMemoryCaller, call: InMemoryCall<Req, Res>): Observable<z.infer<Res>> {
  const { handle, response, ...rest } = call;
  return caller.handle({ ...rest, body: { ...rest.body }, answer: response }, handle);
}
