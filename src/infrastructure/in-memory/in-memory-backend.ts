import type { AuthIdentity } from '../../domain';

/** An answer the fake gives when it refuses a call: the same error_code and error_info the server sends. */
export class InMemoryRefusal extends Error {
  override readonly name = 'InMemoryRefusal';
  constructor(
    readonly error_code: number,
    readonly error_info: string,
    /** More fields of the answer beside error_code and error_info (531 names its station_id). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(`error_code ${error_code}: ${error_info}`);
  }
}

export interface InMemoryUser {
  readonly user_id: number;
  email: string | null;
  password: string | null;
  email_verified_at: string | null;
  nickname: string | null;
  sex: number | null;
  birth: string | null;
  prefecture: number | null;
  tel: string | null;
  tel_verified_at: string | null;
  status: number;
  vip_level: number;
  sound: 0 | 1;
  hide_character: 0 | 1;
  agree_contract: 0 | 1;
  is_debug: boolean;
  created_at: string;
}

export interface LedgerRow {
  readonly user_id: number;
  readonly kind: 'free' | 'toll';
  /** Positive for a credit, negative for a debit. */
  readonly amount: number;
  readonly reason: string;
  readonly reference: string | null;
  readonly created_at: string;
}

/**
 * The shared state behind the in-memory fakes of every service port: users, their tokens and the TC
 * ledger, with the same identity rules as the reference server (an unknown, revoked or another
 * user's token is refused with error_code 401). Each fake port keeps its own area's state and asks
 * this backend who is calling.
 */
export class InMemoryBackend {
  readonly users = new Map<number, InMemoryUser>();
  readonly ledger: LedgerRow[] = [];
  private readonly tokens = new Map<string, { user_id: number; revoked: boolean }>();
  private nextUserId = 1;
  private tokenCounter = 0;

  constructor(readonly now: () => Date = () => new Date()) {}

  createUser(fields: Partial<Omit<InMemoryUser, 'user_id'>> = {}): InMemoryUser {
    const user: InMemoryUser = {
      user_id: this.nextUserId++,
      email: null, password: null, email_verified_at: null, nickname: null, sex: null, birth: null, prefecture: null,
      tel: null, tel_verified_at: null, status: 1, vip_level: 0, sound: 1, hide_character: 0, agree_contract: 0, is_debug: false,
      created_at: this.now().toISOString(),
      ...fields,
    };
    this.users.set(user.user_id, user);
    return user;
  }

  issueToken(userId: number): AuthIdentity {
    this.tokenCounter += 1;
    const access_token = `mem_${userId}_${this.tokenCounter}_${'x'.repeat(24)}`;
    this.tokens.set(access_token, { user_id: userId, revoked: false });
    return { user_id: userId, access_token };
  }

  revokeToken(token: string): void {
    const entry = this.tokens.get(token);
    if (entry) entry.revoked = true;
  }

  /** The caller's user, or a refusal like the server's (401, or 9002 for a suspended user). */
  authenticate(identity: AuthIdentity | null): InMemoryUser {
    const entry = identity ? this.tokens.get(identity.access_token) : undefined;
    const user = entry && !entry.revoked && entry.user_id === identity?.user_id ? this.users.get(entry.user_id) : undefined;
    if (!user) throw new InMemoryRefusal(401, 'ログインの有効期限が切れました。もう一度ログインしてください。');
    if (user.status === 2) throw new InMemoryRefusal(9002, 'このアカウントは現在ご利用いただけません。お問い合わせください。');
    return user;
  }

  /** The caller for an optional identity: the user when the pair is valid, else a guest (null). */
  tryAuthenticate(identity: AuthIdentity): InMemoryUser | null {
    try {
      return this.authenticate(identity);
    } catch {
      return null;
    }
  }

  balance(userId: number): { tc_free: number; tc_toll: number } {
    let tc_free = 0;
    let tc_toll = 0;
    for (const row of this.ledger) {
      if (row.user_id !== userId) continue;
      if (row.kind === 'free') tc_free += row.amount;
      else tc_toll += row.amount;
    }
    return { tc_free, tc_toll };
  }

  credit(userId: number, kind: 'free' | 'toll', amount: number, reason: string, reference: string | null = null): void {
    this.ledger.push({ user_id: userId, kind, amount, reason, reference, created_at: this.now().toISOString() });
  }
}
