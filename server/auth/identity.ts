import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_HEADER } from '../../src/contract';
import { MAINTENANCE_CODES } from '../../src/domain';
import { ERROR_INFO, INVALID_USER_INFO, replyError } from '../http/reply';
import type { SqlExecutor } from '../store/store';
import type { Clock } from '../clock';

/** users.status of a suspended account: every authenticated call answers invaliduser (9002). */
export const SUSPENDED_STATUS = 2;

/** The GET calls' token header as Node spells incoming header names (lower case); see docs/api/user.md. */
const TOKEN_HEADER = ACCESS_TOKEN_HEADER.toLowerCase();

/** The largest id a PostgreSQL integer column holds. */
const MAX_ID = 2_147_483_647;

/** How long an access token stays valid after it is issued. */
export const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** error_code of an answer to a call whose identity is missing, unknown, expired or revoked. */
export const INVALID_TOKEN_CODE = 401;
export const INVALID_TOKEN_INFO = ERROR_INFO[401];

export interface AuthUser {
  readonly user_id: number;
  readonly status: number;
  readonly vip_level: number;
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Issues and checks access tokens. A token is 32 random bytes (base64url) given to the client once;
 * the store keeps only its SHA-256, so a leaked database does not leak sessions.
 */
export class IdentityService {
  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
  ) {}

  async issueToken(userId: number, tx: SqlExecutor = this.db): Promise<{ access_token: string; expires_at: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + TOKEN_TTL_MS);
    await tx.query('INSERT INTO access_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      hashToken(token),
      userId,
      this.clock.now().toISOString(),
      expiresAt.toISOString(),
    ]);
    return { access_token: token, expires_at: expiresAt.toISOString() };
  }

  /** The user the pair names, or null when the token is unknown, expired, revoked or another user's. */
  async authenticate(userId: unknown, token: unknown): Promise<AuthUser | null> {
    // user_id is a PostgreSQL integer: anything outside 1..2^31-1 names no user (and must not reach SQL).
    if (typeof userId !== 'number' || !Number.isInteger(userId) || userId <= 0 || userId > MAX_ID) return null;
    if (typeof token !== 'string' || token.length < 20 || token.length > 200) return null;
    const [row] = await this.db.query<AuthUser>(
      `SELECT u.user_id, u.status, u.vip_level
         FROM access_tokens t JOIN users u ON u.user_id = t.user_id
        WHERE t.token_hash = $1 AND t.user_id = $2 AND t.revoked_at IS NULL AND t.expires_at > $3 AND u.deleted_at IS NULL`,
      [hashToken(token), userId, this.clock.now().toISOString()],
    );
    return row ?? null;
  }

  /** Revokes one token; answers whether a live token of that user was revoked. */
  async revokeFor(userId: number, token: string): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE access_tokens SET revoked_at = $3 WHERE token_hash = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING user_id',
      [hashToken(token), userId, this.clock.now().toISOString()],
    );
    return rows.length > 0;
  }

  /**
   * Revokes every live token of the user, or every one but `keepToken` (a password change keeps the
   * session that made it); answers how many. Joins the caller's transaction.
   */
  async revokeAll(userId: number, tx: SqlExecutor = this.db, keepToken?: string): Promise<number> {
    const rows = await tx.query(
      `UPDATE access_tokens SET revoked_at = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND ($3::text IS NULL OR token_hash <> $3) RETURNING user_id`,
      [userId, this.clock.now().toISOString(), keepToken === undefined ? null : hashToken(keepToken)],
    );
    return rows.length;
  }

  async revoke(token: string): Promise<void> {
    await this.db.query('UPDATE access_tokens SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
      hashToken(token),
      this.clock.now().toISOString(),
    ]);
  }
}

/** Reads user_id and access_token from a POST body (spec §3 "Authenticated request identity"). */
export function identityOf(request: FastifyRequest): { user_id: unknown; access_token: unknown } {
  const body = (request.body ?? {}) as Record<string, unknown>;
  return { user_id: body.user_id, access_token: body.access_token };
}

/**
 * The caller of an authenticated call, or null after answering: 401 (error_code 401, Japanese
 * error_info) for a missing, unknown, expired or revoked identity, 403 with error_code 9002
 * (invaliduser) for a suspended user. Handlers return right away on null, so nothing changes.
 */
export async function requireUser(
  identity: IdentityService,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<AuthUser | null> {
  const { user_id, access_token } = identityOf(request);
  return checkCaller(await identity.authenticate(user_id, access_token), reply);
}

/**
 * The caller of an authenticated GET: the token comes in the X-Access-Token header and the user is
 * the path's user_id, which must be the token's own user (else the same 401 as a bad token, so a
 * caller cannot probe which ids exist).
 */
export async function requireUserFromHeader(
  identity: IdentityService,
  request: FastifyRequest,
  reply: FastifyReply,
  pathUserId: string,
): Promise<AuthUser | null> {
  const token = request.headers[TOKEN_HEADER];
  const userId = /^[1-9][0-9]{0,9}$/.test(pathUserId) ? Number(pathUserId) : null;
  return checkCaller(await identity.authenticate(userId, typeof token === 'string' ? token : undefined), reply);
}

async function checkCaller(user: AuthUser | null, reply: FastifyReply): Promise<AuthUser | null> {
  if (!user) {
    await replyError(reply, 401, INVALID_TOKEN_INFO, INVALID_TOKEN_CODE);
    return null;
  }
  if (user.status === SUSPENDED_STATUS) {
    await replyError(reply, 403, INVALID_USER_INFO, MAINTENANCE_CODES.invaliduser);
    return null;
  }
  return user;
}

/** The caller if the body carries a valid identity, else null (for calls guests may make too). */
export async function optionalUser(identity: IdentityService, request: FastifyRequest): Promise<AuthUser | null> {
  const { user_id, access_token } = identityOf(request);
  if (user_id === undefined && access_token === undefined) return null;
  const user = await identity.authenticate(user_id, access_token);
  // A suspended user is served as a guest where guests may call.
  return user && user.status !== SUSPENDED_STATUS ? user : null;
}
