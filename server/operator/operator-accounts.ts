import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/password';
import type { SqlExecutor } from '../store/store';
import { SERVER_MESSAGES } from '../messages';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/domain';

/** Who is calling: a signed-in operator, or the development token (development and tests only). */
export interface OperatorPrincipal {
  readonly operatorId: number | null;
  readonly login: string;
  readonly displayName: string;
  readonly role: OperatorRole;
}

/** The development token's principal: an admin, audited as `dev-token`. */
export const DEV_TOKEN_PRINCIPAL: OperatorPrincipal = {
  operatorId: null,
  login: 'dev-token',
  displayName: SERVER_MESSAGES.devTokenOperator,
  role: 'admin',
};

/** A session lasts at most this long from its login… */
export const OPERATOR_SESSION_MS = 12 * 60 * 60 * 1000;
/** …and ends after this long unused. */
export const OPERATOR_IDLE_MS = 30 * 60 * 1000;

const LOGIN = /^[a-z0-9][a-z0-9._-]{2,31}$/;

export class OperatorAccountError extends Error {}

const tokenHash = (token: string): Buffer => createHash('sha256').update(token).digest();

/** One row of the audit log as the API answers it. */
export interface AuditEntry {
  readonly audit_id: number;
  readonly operator_login: string;
  readonly action: string;
  readonly target: unknown;
  readonly before: unknown;
  readonly after: unknown;
  readonly at: string;
}

/**
 * Operator accounts, sessions and the audit log (issue 26, R10-9). Accounts come from the CLI
 * (scripts/operator.ts); a login answers a random session token whose SHA-256 alone is stored;
 * sessions end after 12 h, after 30 min unused, at logout, and when the account is disabled.
 */
export class OperatorAccounts {
  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
  ) {}

  async add(login: string, displayName: string, role: OperatorRole, password: string): Promise<number> {
    if (!LOGIN.test(login))
      throw new OperatorAccountError('login: 3–32 of a-z 0-9 . _ -, starting with a letter or digit');
    if (!OPERATOR_ROLES.includes(role)) throw new OperatorAccountError(`role: one of ${OPERATOR_ROLES.join(', ')}`);
    const name = displayName.trim();
    if (name.length < 1 || name.length > 40) throw new OperatorAccountError('display name: 1–40 characters');
    if (password.length < 12 || password.length > 128) throw new OperatorAccountError('password: 12–128 characters');
    const hash = await hashPassword(password);
    const rows = await this.db.query<{ operator_id: number }>(
      `INSERT INTO operator_accounts (login, display_name, role, password_hash, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (login) DO NOTHING RETURNING operator_id`,
      [login, name, role, hash, this.clock.now()],
    );
    if (!rows[0]) throw new OperatorAccountError(`login "${login}" exists already`);
    return rows[0].operator_id;
  }

  async list(): Promise<{ login: string; display_name: string; role: OperatorRole; disabled: boolean }[]> {
    const rows = await this.db.query<{
      login: string;
      display_name: string;
      role: OperatorRole;
      disabled_at: Date | null;
    }>('SELECT login, display_name, role, disabled_at FROM operator_accounts ORDER BY login');
    return rows.map((r) => ({ login: r.login, display_name: r.display_name, role: r.role, disabled: !!r.disabled_at }));
  }

  /** Disables an account and ends every session of it. */
  async disable(login: string): Promise<void> {
    const rows = await this.db.query<{ operator_id: number }>(
      'UPDATE operator_accounts SET disabled_at = coalesce(disabled_at, $2) WHERE login = $1 RETURNING operator_id',
      [login, this.clock.now()],
    );
    if (!rows[0]) throw new OperatorAccountError(`no account "${login}"`);
    await this.db.query('DELETE FROM operator_sessions WHERE operator_id = $1', [rows[0].operator_id]);
  }

  /** Sets a new password and ends every session of the account. */
  async setPassword(login: string, password: string): Promise<void> {
    if (password.length < 12 || password.length > 128) throw new OperatorAccountError('password: 12–128 characters');
    const rows = await this.db.query<{ operator_id: number }>(
      'UPDATE operator_accounts SET password_hash = $2 WHERE login = $1 RETURNING operator_id',
      [login, await hashPassword(password)],
    );
    if (!rows[0]) throw new OperatorAccountError(`no account "${login}"`);
    await this.db.query('DELETE FROM operator_sessions WHERE operator_id = $1', [rows[0].operator_id]);
  }

  /**
   * Checks a login and password: a session token and its end, or null. An unknown login costs the
   * same hash as a known one (no timing difference), and a disabled account never signs in.
   */
  async login(
    login: string,
    password: string,
  ): Promise<{ token: string; expiresAt: Date; principal: OperatorPrincipal } | null> {
    const [row] = await this.db.query<{
      operator_id: number;
      display_name: string;
      role: OperatorRole;
      password_hash: string;
      disabled_at: Date | null;
    }>('SELECT operator_id, display_name, role, password_hash, disabled_at FROM operator_accounts WHERE login = $1', [
      login,
    ]);
    const matches = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
    if (!row || !matches || row.disabled_at) return null;
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_MS);
    await this.db.query(
      `INSERT INTO operator_sessions (token_hash, operator_id, created_at, last_used_at, expires_at)
         VALUES ($1, $2, $3, $3, $4)`,
      [tokenHash(token), row.operator_id, now, expiresAt],
    );
    return {
      token,
      expiresAt,
      principal: { operatorId: row.operator_id, login, displayName: row.display_name, role: row.role },
    };
  }

  /** The operator a session token belongs to, or null (unknown, expired, idle too long, disabled). */
  async session(token: string): Promise<OperatorPrincipal | null> {
    if (token.length < 20 || token.length > 100) return null;
    const now = this.clock.now();
    const [row] = await this.db.query<{
      operator_id: number;
      login: string;
      display_name: string;
      role: OperatorRole;
    }>(
      `UPDATE operator_sessions s SET last_used_at = $2
         FROM operator_accounts a
        WHERE s.token_hash = $1 AND a.operator_id = s.operator_id AND a.disabled_at IS NULL
          AND s.expires_at > $2 AND s.last_used_at > $3
        RETURNING a.operator_id, a.login, a.display_name, a.role`,
      [tokenHash(token), now, new Date(now.getTime() - OPERATOR_IDLE_MS)],
    );
    if (!row) return null;
    return { operatorId: row.operator_id, login: row.login, displayName: row.display_name, role: row.role };
  }

  async logout(token: string): Promise<void> {
    await this.db.query('DELETE FROM operator_sessions WHERE token_hash = $1', [tokenHash(token)]);
  }

  /** Writes one audit row: who, what (the call and its target), when, and the before and after. */
  async audit(
    who: OperatorPrincipal,
    action: string,
    target: unknown,
    before: unknown,
    after: unknown,
    db: SqlExecutor = this.db,
  ): Promise<void> {
    await db.query(
      `INSERT INTO operator_audit (operator_id, operator_login, action, target, before, after, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        who.operatorId,
        who.login,
        action,
        JSON.stringify(target ?? null),
        before === undefined ? null : JSON.stringify(before),
        after === undefined ? null : JSON.stringify(after),
        this.clock.now(),
      ],
    );
  }

  /** The audit log, newest first. */
  async auditLog(options: { limit: number; operatorLogin?: string | undefined }): Promise<AuditEntry[]> {
    const rows = await this.db.query<Omit<AuditEntry, 'at'> & { at: Date }>(
      `SELECT audit_id, operator_login, action, target, before, after, at FROM operator_audit
        WHERE $1::text IS NULL OR operator_login = $1 ORDER BY audit_id DESC LIMIT $2`,
      [options.operatorLogin ?? null, options.limit],
    );
    return rows.map((r) => ({ ...r, audit_id: Number(r.audit_id), at: r.at.toISOString() }));
  }
}
