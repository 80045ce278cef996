import type { z } from 'zod/mini';
import type { ServiceMessagePush } from '../../src/contract';
import type { operatorUserResponseSchema, ServiceMessageCode } from '../../src/contract/operator.schema';
import { MAINTENANCE_CODES } from '../../src/domain';
import type { AuthUser } from '../auth/identity';
import { SUSPENDED_STATUS } from '../auth/identity';
import type { Clock } from '../clock';
import { INVALID_USER_INFO, SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { SqlExecutor } from '../store/store';
import type { Ledger } from '../wallet/ledger';
import type { OperatorPrincipal } from './operator-accounts';

/** Users with this status ignore maintenance pushes and are let through emergency maintenance [R4.1-2]. */
export const MAINTENANCE_EXEMPT_STATUS = 3;

/** How long an instance trusts what it last read of the emergency state (other instances' changes). */
export const EMERGENCY_CACHE_MS = 1_000;

export interface Emergency {
  readonly info: string;
  readonly since: string;
  readonly by: string;
}

/** Who a service message goes to: every open connection, or one user's. */
export type ServiceTarget = { readonly kind: 'everyone' } | { readonly kind: 'user'; readonly userId: number };

/** How a service message reaches open clients (the real-time hub, on every instance). */
export interface ServicePushes {
  /** Pushes to the target's connections except status-3 users'; answers how many it reached. */
  servicePush(target: ServiceTarget, push: ServiceMessagePush): Promise<number>;
  /** Ends a user's live connections (after the push, so the client has shown it). */
  endSessions(userId: number): void;
}

/** A user as support sees them (the contract's answer). */
export type OperatorUserView = z.infer<typeof operatorUserResponseSchema>['user'];

const CODES: Record<ServiceMessageCode, number> = {
  emergency: MAINTENANCE_CODES.emergency,
  reloaderror: MAINTENANCE_CODES.reloaderror,
  cancellation: MAINTENANCE_CODES.cancellation,
};

/**
 * Service messages (§8, §4.6; docs/operator-console.md): emergency, reloaderror and cancellation
 * pushed to everyone or one user, the service-wide emergency maintenance (every player call
 * answers 9001 while it runs), and suspending a user (invaliduser, 9002 on their next call).
 * Status-3 users are exempt from maintenance pushes and from the emergency [R4.1-2].
 */
export class ServiceMessages {
  private cached: { readonly at: number; readonly value: Emergency | null } | null = null;

  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
    private readonly ledger: Pick<Ledger, 'balance'>,
    private readonly pushes: () => ServicePushes | null,
  ) {}

  /** The emergency maintenance running now, or null (read at most once a second per instance). */
  async emergency(): Promise<Emergency | null> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < EMERGENCY_CACHE_MS && now >= this.cached.at) return this.cached.value;
    const [row] = await this.db.query<{ info: string; started_at: Date | string; started_by: string }>(
      'SELECT info, started_at, started_by FROM service_emergencies WHERE ended_at IS NULL',
    );
    const value = row ? { info: row.info, since: new Date(row.started_at).toISOString(), by: row.started_by } : null;
    this.cached = { at: now, value };
    return value;
  }

  /**
   * What a player call answers instead while the emergency runs: 503 with error_code 9001 and the
   * emergency's info; null to go on (no emergency, or a status-3 user).
   */
  async gate(user: AuthUser | null): Promise<Refusal | null> {
    if (user?.status === MAINTENANCE_EXEMPT_STATUS) return null;
    const running = await this.emergency();
    return running ? new Refusal(503, MAINTENANCE_CODES.emergency, running.info) : null;
  }

  /**
   * A message to everyone. emergency starts (or rewords) the emergency maintenance before it is
   * pushed, so a client that reloads meets it too; reloaderror and cancellation are pushed only.
   */
  async broadcast(code: ServiceMessageCode, info: string | undefined, by: OperatorPrincipal): Promise<number> {
    const text = textOf(code, info);
    if (code === 'emergency') {
      await this.db.query(
        `INSERT INTO service_emergencies (info, started_at, started_by) VALUES ($1, $2, $3)
         ON CONFLICT ((ended_at IS NULL)) WHERE ended_at IS NULL DO UPDATE SET info = EXCLUDED.info`,
        [text, this.clock.now().toISOString(), by.login],
      );
      this.cached = null;
    }
    return this.push({ kind: 'everyone' }, { error_code: CODES[code], error_info: text });
  }

  /** Ends the emergency maintenance; answers whether one was running. */
  async endEmergency(by: OperatorPrincipal): Promise<boolean> {
    const ended = await this.db.query(
      'UPDATE service_emergencies SET ended_at = $1, ended_by = $2 WHERE ended_at IS NULL RETURNING emergency_id',
      [this.clock.now().toISOString(), by.login],
    );
    this.cached = null;
    return ended.length > 0;
  }

  /** A message to one user's open clients (404 for no such user). */
  async toUser(userId: number, code: ServiceMessageCode, info: string | undefined): Promise<number> {
    await this.user(userId);
    return this.push({ kind: 'user', userId }, { error_code: CODES[code], error_info: textOf(code, info) });
  }

  /** A user as support sees them; 404 for none (or a deleted account). */
  async user(userId: number): Promise<OperatorUserView> {
    const [row] = await this.db.query<{
      user_id: number;
      nickname: string | null;
      status: number;
      created_at: Date | string;
    }>('SELECT user_id, nickname, status, created_at FROM users WHERE user_id = $1 AND deleted_at IS NULL', [userId]);
    if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.userNotFound);
    const balance = await this.ledger.balance(userId);
    return {
      user_id: row.user_id,
      nickname: row.nickname ?? '',
      user_status: row.status,
      suspended: row.status === SUSPENDED_STATUS,
      created_at: new Date(row.created_at).toISOString(),
      tc_balance: balance.tc_all,
    };
  }

  /**
   * Suspends a user (status 2: every call of theirs answers invaliduser, 9002; their open clients
   * are told at once and disconnected) or restores the status they had. Their tokens stay, so the
   * next call says why instead of asking them to sign in.
   */
  async setSuspended(userId: number, suspended: boolean): Promise<OperatorUserView> {
    await this.user(userId);
    const changed = suspended
      ? await this.db.query(
          `UPDATE users SET status_before_suspension = status, status = $2
            WHERE user_id = $1 AND status <> $2 AND deleted_at IS NULL RETURNING user_id`,
          [userId, SUSPENDED_STATUS],
        )
      : await this.db.query(
          `UPDATE users SET status = coalesce(status_before_suspension, 1), status_before_suspension = NULL
            WHERE user_id = $1 AND status = $2 AND deleted_at IS NULL RETURNING user_id`,
          [userId, SUSPENDED_STATUS],
        );
    if (suspended && changed.length > 0) {
      await this.push(
        { kind: 'user', userId },
        { error_code: MAINTENANCE_CODES.invaliduser, error_info: INVALID_USER_INFO },
      );
      this.pushes()?.endSessions(userId);
    }
    return this.user(userId);
  }

  private async push(target: ServiceTarget, push: ServiceMessagePush): Promise<number> {
    const pushes = this.pushes();
    return pushes ? pushes.servicePush(target, push) : 0;
  }
}

function textOf(code: ServiceMessageCode, info: string | undefined): string {
  if (info && info.trim()) return info.trim();
  return code === 'emergency' ? SERVER_MESSAGES.emergencyInfo : SERVER_MESSAGES.reloadInfo;
}
