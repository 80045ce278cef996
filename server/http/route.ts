import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_MESSAGES } from '../messages';
import type { z } from 'zod/mini';
import { isAccountRefusal } from '../account/account-errors';
import {
  optionalUser,
  requireUser,
  requireUserFromHeader,
  type AuthUser,
  type IdentityService,
} from '../auth/identity';
import { isRefusal, Refusal } from '../play/refusal';
import type { SqlExecutor } from '../store/store';
import { DEV_TOKEN_PRINCIPAL, type OperatorAccounts, type OperatorPrincipal } from '../operator/operator-accounts';
import { operatorRoleAllows, type OperatorRight } from '../../src/domain';
import { isIdempotencyConflictError, isInsufficientFundsError } from '../wallet/ledger';
import { ok, replyError } from './reply';
import { parseBody } from './validate';

/** What a handler answers: the payload of a success (error_code 200 is added), or a reply it sent itself. */
type Answer = Promise<object | FastifyReply>;
type Ctx = { readonly request: FastifyRequest; readonly reply: FastifyReply };
type OperatorCtx = Ctx & { readonly operator: OperatorPrincipal };

/**
 * What an operator call needs and how it is audited (R10-9): the right its caller's role must hold;
 * `subject` reads what the call changes (its before and after go to the audit log); a `read` call
 * logs neither (its answer may hold players' data that the log must not copy).
 */
export interface OperatorAccess<B> {
  readonly right: OperatorRight;
  readonly subject?: (body: B) => Promise<unknown>;
  readonly read?: boolean;
}

/**
 * An operator call whose subject is one row, read by `sql` with the body's id (`$1`) before and
 * after the call for the audit log; null when there is no such row.
 */
export function rowSubject<B>(
  db: SqlExecutor,
  right: OperatorRight,
  sql: string,
  id: (body: B) => number,
): OperatorAccess<B> {
  return { right, subject: async (body) => (await db.query(sql, [id(body)]))[0] ?? null };
}

/** How operator calls are authenticated: accounts' sessions, and the development token where it is on. */
export interface OperatorAuth {
  readonly accounts: Pick<OperatorAccounts, 'session' | 'audit'>;
  /** SHA-256 of ONKURE_OPERATOR_TOKEN, only with ONKURE_DEV_CALLS=1 (development and tests); else null. */
  readonly devTokenHash: Buffer | null;
}

/**
 * What answers a player call instead while the service is in emergency maintenance (§8): the
 * refusal to answer, or null to go on. Given the caller when known (status-3 users pass, R4.1-2).
 */
export type ServiceGate = (user: AuthUser | null) => Promise<Refusal | null>;

/**
 * Calls the emergency does not stop: the operators' own, development calls, and signing in (a
 * status-3 user must be able to sign in to check the machines; anyone else meets the emergency
 * on the next call).
 */
const OUTSIDE_EMERGENCY = /^\/?(operator\/|dev\/|auth\/(login|debug_login|dev_outbox|dev_mailbox)$)/;

/**
 * A typed refusal thrown by a service, as a Refusal: Refusal and AccountRefusal carry their status,
 * code and Japanese info; too little TC is 402; a reused idempotency key is 409. Null for anything
 * else (a fault). The one mapping every route and every relayed room event goes through.
 */
export function asRefusal(error: unknown): Refusal | null {
  if (isRefusal(error)) return error;
  if (isAccountRefusal(error)) return new Refusal(error.status, error.code, error.info);
  if (isInsufficientFundsError(error)) return new Refusal(402, 402, error.info);
  if (isIdempotencyConflictError(error)) return new Refusal(409, 409, error.info);
  return null;
}

/** Answers a typed refusal thrown by a service (`asRefusal`); anything else is a fault for the server's error handler. */
export function answerRefusal(reply: FastifyReply, error: unknown): FastifyReply {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  if (refusal.status === 200)
    return reply.code(200).send({ error_code: refusal.code, error_info: refusal.info, ...refusal.extra });
  return replyError(reply, refusal.status, refusal.info, refusal.code);
}

async function run(reply: FastifyReply, work: () => Answer): Promise<object | FastifyReply> {
  try {
    const answer = await work();
    // A handler that sent its own answer returns the reply, which is thenable: awaiting it yields
    // what its `then` resolves to, not the reply, so `reply.sent` is what tells.
    return answer === reply || reply.sent ? reply : ok(answer);
  } catch (error) {
    return answerRefusal(reply, error);
  }
}

/** How a declared call is authenticated (RouteBuilder's methods). */
export type RouteKind = 'operator' | 'signed' | 'authed' | 'open' | 'authedGet' | 'openGet';

/**
 * A call as RouteBuilder declared it: its method, its full path (with the API prefix and any
 * `:param`), how it is authenticated and the schema of its body (POST) or query (GET). The contract
 * fuzz (test/server/contract-fuzz.test.ts, bench/fuzz.ts) builds its requests from these.
 */
export interface DeclaredRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly kind: RouteKind;
  readonly schema: z.ZodMiniType;
}

/**
 * The only way a route module declares a call: identity, body validation and refusals are done
 * here, once, so a route is the translation of HTTP to a service call and nothing more.
 * Authenticated calls check the identity before the body (401 / 9002 first, then 400).
 *
 * @example
 * route.authed('/user/tc', tcRequestSchema, async (user) => ({ data: await services.ledger.balance(user.user_id) }));
 */
export class RouteBuilder {
  /** Every call declared so far, in order. */
  readonly declared: DeclaredRoute[] = [];

  /**
   * @param operatorAuth how operator calls are signed in (no accounts service: every operator call
   *   is refused, fail closed).
   */
  constructor(
    private readonly app: FastifyInstance,
    private readonly identity: IdentityService,
    private readonly operatorAuth: OperatorAuth | null = null,
    /** The emergency maintenance's check on every player call (none: never stopped). */
    private readonly serviceGate: ServiceGate | null = null,
  ) {}

  private declare(method: 'GET' | 'POST', path: string, kind: RouteKind, schema: z.ZodMiniType): void {
    this.declared.push({ method, url: `${this.app.prefix}${path}`, kind, schema });
  }

  /** The refusal a player call gets during the emergency maintenance, or null. */
  private async gated(path: string, user: AuthUser | null): Promise<Refusal | null> {
    if (!this.serviceGate || OUTSIDE_EMERGENCY.test(path)) return null;
    return this.serviceGate(user);
  }

  /** The operator a request's `X-Operator-Authorization: Bearer <session>` names, or null. */
  async operatorOf(request: FastifyRequest): Promise<OperatorPrincipal | null> {
    const header = request.headers['x-operator-authorization'];
    const presented = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
    return this.operatorOfToken(presented);
  }

  /** The operator a session token (or the development token, where it is on) names, or null. */
  async operatorOfToken(presented: string): Promise<OperatorPrincipal | null> {
    if (!this.operatorAuth || !presented) return null;
    const devToken = this.operatorAuth.devTokenHash;
    if (devToken && timingSafeEqual(createHash('sha256').update(presented).digest(), devToken))
      return DEV_TOKEN_PRINCIPAL;
    return this.operatorAuth.accounts.session(presented);
  }

  /**
   * An operator POST (R10-9): a signed-in operator (`Authorization: Bearer <session>` in the
   * X-Operator-Authorization header; the Authorization header belongs to the API's own check)
   * whose role holds the call's right, checked before the body; 403 in Japanese otherwise, and
   * nothing runs. Each call that answers is written to the audit log: who, the call and its body,
   * when, and its subject before and after (or its answer when it has no subject).
   */
  operator<S extends z.ZodMiniType>(
    path: string,
    access: OperatorAccess<z.output<S>>,
    schema: S,
    handler: (body: z.output<S>, ctx: OperatorCtx) => Answer,
  ): void {
    this.declare('POST', path, 'operator', schema);
    this.app.post(path, async (request, reply) => {
      const operator = await this.operatorOf(request);
      if (!operator) return replyError(reply, 403, SERVER_MESSAGES.operatorOnly);
      if (!operatorRoleAllows(operator.role, access.right))
        return replyError(reply, 403, SERVER_MESSAGES.operatorRoleRefused);
      const body = parseBody(schema, request.body, reply);
      if (body === null) return reply;
      return run(reply, async () => {
        const before = access.subject ? await access.subject(body) : undefined;
        const answer = await handler(body, { request, reply, operator });
        if (!access.read) {
          const after = access.subject ? await access.subject(body) : answer === reply ? undefined : answer;
          await this.operatorAuth!.accounts.audit(operator, path.replace(/^\/+/, ''), body, before, after);
        }
        return answer;
      });
    });
  }

  /**
   * A machine-to-machine POST authenticated by a signature over its raw body (the payment
   * provider's callback): `verify` checks the header against the exact bytes received before the
   * body is parsed or validated; a refused signature is 401 and nothing runs.
   */
  signed<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    verify: (rawBody: string, request: FastifyRequest) => boolean,
    handler: (body: z.output<S>, ctx: Ctx) => Answer,
  ): void {
    this.declare('POST', path, 'signed', schema);
    void this.app.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) =>
        done(null, body),
      );
      scope.post(path, async (request, reply) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        if (!verify(raw, request)) return replyError(reply, 401, SERVER_MESSAGES.callbackSignature);
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          return replyError(reply, 400);
        }
        const body = parseBody(schema, parsed, reply);
        if (body === null) return reply;
        return run(reply, () => handler(body, { request, reply }));
      });
    });
  }

  /** An authenticated POST (identity in the body). */
  authed<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    handler: (user: AuthUser, body: z.output<S>, ctx: Ctx) => Answer,
  ): void {
    this.declare('POST', path, 'authed', schema);
    this.app.post(path, async (request, reply) => {
      const user = await requireUser(this.identity, request, reply);
      if (!user) return reply;
      const stopped = await this.gated(path, user);
      if (stopped) return answerRefusal(reply, stopped);
      const body = parseBody(schema, request.body, reply);
      if (body === null) return reply;
      return run(reply, () => handler(user, body, { request, reply }));
    });
  }

  /** A POST anyone may make; a valid identity in the body makes `user` the caller (guests: null). */
  open<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    handler: (body: z.output<S>, user: AuthUser | null, ctx: Ctx) => Answer,
  ): void {
    this.declare('POST', path, 'open', schema);
    this.app.post(path, async (request, reply) => {
      const body = parseBody(schema, request.body, reply);
      if (body === null) return reply;
      return run(reply, async () => {
        const user = await optionalUser(this.identity, request);
        const stopped = await this.gated(path, user);
        if (stopped) throw stopped;
        return handler(body, user, { request, reply });
      });
    });
  }

  /** An authenticated GET: token in the X-Access-Token header, the path's :user_id must be its user. */
  authedGet<S extends z.ZodMiniType>(
    path: string,
    querySchema: S,
    handler: (user: AuthUser, query: z.output<S>, ctx: Ctx) => Answer,
  ): void {
    this.declare('GET', path, 'authedGet', querySchema);
    this.app.get<{ Params: { user_id: string } }>(path, async (request, reply) => {
      const user = await requireUserFromHeader(this.identity, request, reply, request.params.user_id);
      if (!user) return reply;
      const stopped = await this.gated(path, user);
      if (stopped) return answerRefusal(reply, stopped);
      const query = parseBody(querySchema, request.query, reply);
      if (query === null) return reply;
      return run(reply, () => handler(user, query, { request, reply }));
    });
  }

  /** A public GET with a validated query. */
  openGet<S extends z.ZodMiniType>(
    path: string,
    querySchema: S,
    handler: (query: z.output<S>, ctx: Ctx) => Answer,
  ): void {
    this.declare('GET', path, 'openGet', querySchema);
    this.app.get(path, async (request, reply) => {
      const query = parseBody(querySchema, request.query, reply);
      if (query === null) return reply;
      return run(reply, () => handler(query, { request, reply }));
    });
  }
}
