import { AccountRefusal } from '../account/account-errors';
import { DEBUG_WELCOME_TC, MAINTENANCE_CODES } from '../../src/domain';
import { INVALID_USER_INFO } from '../http/reply';
import type { Store } from '../store/store';
import type { Ledger } from '../wallet/ledger';
import type { AttemptLimiter, AttemptLimits } from '../limits/attempt-limiter';
import { SUSPENDED_STATUS, type IdentityService } from './identity';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import type { VerificationService } from '../account/verification.service';
import { SERVER_MESSAGES } from '../messages';
import type { Clock } from '../clock';

export interface Session {
  user_id: number;
  access_token: string;
  expires_at: string;
}

/**
 * Password checks per e-mail AND client (request IP) in 15 minutes. Counted before the check, so
 * concurrent requests cannot run more. Keyed per client, so a stranger's wrong passwords slow down
 * only the stranger: the owner on their own connection still logs in (see docs/security.md).
 */
export const MAX_LOGIN_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** The login limit's rule (the store's key names it). */
const LOGIN_CHECKS = { name: 'login', max: MAX_LOGIN_FAILURES, windowMs: LOGIN_WINDOW_MS } as const;

const LOGIN_FAILED = SERVER_MESSAGES.loginFailed;

/** E-mail + password accounts and the development debug login. */
export class AccountAuthService {
  private readonly loginLimiter: AttemptLimiter;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly identity: IdentityService,
    private readonly ledger: Ledger,
    private readonly verification: VerificationService,
    attempts: AttemptLimits,
  ) {
    this.loginLimiter = attempts.limit(LOGIN_CHECKS);
  }

  /**
   * Creates an account (e-mail unverified), signs it in and sends the first verification code.
   * The answer does not tell whether the address is taken (issue 7 §5.5): for a taken address the
   * new account is created without it, and the address's owner gets a notice instead of a code.
   */
  async signup(email: string, password: string, agreed = false): Promise<Session> {
    const hash = await hashPassword(password);
    const session = await this.db.transaction(async (q) => {
      const created = this.clock.now().toISOString();
      // The sign-up form's terms agreement is stored with the account (user/agree need not follow).
      const agree = agreed ? 1 : 0;
      const agreedAt = agreed ? created : null;
      const [row] = await q.query<{ user_id: number }>(
        `INSERT INTO users (email, password_hash, created_at, agree_contract, agreed_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO NOTHING RETURNING user_id`,
        [email, hash, created, agree, agreedAt],
      );
      const [account] = row
        ? [row]
        : await q.query<{ user_id: number }>(
            'INSERT INTO users (password_hash, created_at, agree_contract, agreed_at) VALUES ($1, $2, $3, $4) RETURNING user_id',
            [hash, created, agree, agreedAt],
          );
      return { user_id: account!.user_id, ...(await this.identity.issueToken(account!.user_id, q)) };
    });
    await this.verification.send(session.user_id, 'email', email);
    return session;
  }

  /**
   * Signs in with e-mail and password; one message for any wrong pair. Suspended users get 9002.
   * `client` identifies the caller (the request IP): the attempt is counted for (e-mail, client)
   * before the password is checked.
   */
  async login(email: string, password: string, client = 'unknown'): Promise<Session> {
    const key = `${email}\n${client}`;
    if (!(await this.loginLimiter.tryAcquire(key)).allowed)
      throw new AccountRefusal(429, SERVER_MESSAGES.loginSlowedDown);
    const [user] = await this.db.query<{ user_id: number; password_hash: string | null; status: number }>(
      'SELECT user_id, password_hash, status FROM users WHERE email = $1',
      [email],
    );
    // Verify against a dummy hash when there is no such user, so timing does not reveal which e-mails exist.
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !user.password_hash || !ok) {
      throw new AccountRefusal(401, LOGIN_FAILED);
    }
    if (user.status === SUSPENDED_STATUS)
      throw new AccountRefusal(403, INVALID_USER_INFO, MAINTENANCE_CODES.invaliduser);
    await this.loginLimiter.reset(key);
    return { user_id: user.user_id, ...(await this.identity.issueToken(user.user_id)) };
  }

  /**
   * Development only [R6-6]: signs in as the debug user `name`, creating it (with DEBUG_WELCOME_TC
   * free TC through the ledger, the terms agreed and the tutorials seen) on first use. The route is
   * not registered in production.
   */
  async debugLogin(name: string): Promise<Session & { created: 0 | 1 }> {
    return this.db.transaction(async (q) => {
      const [existing] = await q.query<{ user_id: number }>('SELECT user_id FROM users WHERE debug_name = $1', [name]);
      let userId = existing?.user_id;
      if (!userId) {
        const [row] = await q.query<{ user_id: number }>(
          `INSERT INTO users (debug_name, is_debug, nickname, created_at, agree_contract, agreed_at)
           VALUES ($1, true, $2, $3, 1, $3) RETURNING user_id`,
          [name, SERVER_MESSAGES.debugNickname(name).slice(0, 16), this.clock.now().toISOString()],
        );
        userId = row!.user_id;
        // A debug user is a tester: the terms are agreed and the first-run guides are seen (sign up
        // as a player to see them). The first-profile prompt and the new badge still show.
        await q.query(
          `INSERT INTO user_additionals (user_id, additional_key, additional_value, updated_at)
           SELECT $1, k, 1, $2 FROM unnest($3::text[]) AS k`,
          [userId, this.clock.now().toISOString(), ['tutorial_top', 'tutorial_play']],
        );
        await this.ledger.credit(
          userId,
          'free',
          { amount: DEBUG_WELCOME_TC, reason: 'debug_grant', reference: name, idempotencyKey: 'debug-welcome' },
          q,
        );
      }
      return { user_id: userId, ...(await this.identity.issueToken(userId, q)), created: existing ? 0 : 1 };
    });
  }
}
