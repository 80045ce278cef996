import { MAINTENANCE_CODES, VERIFICATION_CODE_TTL_MS } from '../../src/domain';
import { AccountRefusal } from '../account/account-errors';
import type { VerificationService } from '../account/verification.service';
import type { Clock } from '../clock';
import { INVALID_USER_INFO } from '../http/reply';
import { ERROR_INFO, SERVER_MESSAGES } from '../messages';
import type { Store } from '../store/store';
import { lockUser } from '../store/user-lock';
import type { Session } from './account-auth.service';
import type { AttemptLimiter, AttemptLimits } from '../limits/attempt-limiter';
import { SUSPENDED_STATUS, type IdentityService } from './identity';
import { hashPassword, verifyPassword } from './password';

/** Where the server ends a user's live connections when their sessions end (the real-time hub). */
export interface SessionEvents {
  /** Disconnects the user's sockets, all of them or all but those signed in with `keepToken`. */
  endSessions(userId: number, keepToken?: string): void;
}

/**
 * Checks of a signed-in user's current password (password change, account deletion) per user in
 * 15 minutes, counted before the slow check: a stolen session cannot guess the password faster.
 */
export const MAX_PASSWORD_CHECKS = 10;
export const PASSWORD_CHECK_WINDOW_MS = 15 * 60 * 1000;
/**
 * Reset requests per e-mail (a mailbox is not flooded) and per client (an address list is not
 * sprayed) in an hour; both counted before any store work.
 */
export const MAX_RESET_REQUESTS_PER_EMAIL = 5;
export const MAX_RESET_REQUESTS_PER_CLIENT = 20;
export const RESET_REQUEST_WINDOW_MS = 60 * 60 * 1000;
/** Reset codes tried per e-mail in 15 minutes (like the verification codes' try limit). */
export const MAX_RESET_TRIES = 5;
export const RESET_TRY_WINDOW_MS = 15 * 60 * 1000;

/** The rules of the limits above (the store's keys name them). */
const RULES = {
  checks: { name: 'password:check', max: MAX_PASSWORD_CHECKS, windowMs: PASSWORD_CHECK_WINDOW_MS },
  resetByEmail: { name: 'password:reset-email', max: MAX_RESET_REQUESTS_PER_EMAIL, windowMs: RESET_REQUEST_WINDOW_MS },
  resetByClient: {
    name: 'password:reset-client',
    max: MAX_RESET_REQUESTS_PER_CLIENT,
    windowMs: RESET_REQUEST_WINDOW_MS,
  },
  resetTries: { name: 'password:reset-code', max: MAX_RESET_TRIES, windowMs: RESET_TRY_WINDOW_MS },
} as const;

/**
 * The password of an e-mail account after sign-up (docs/api/user.md "Password"): a signed-in
 * change, and a reset by a code e-mailed to the account's address. Limits are counted in the store
 * (for every instance) before the slow work (scrypt, the code lookup), like the login limiter.
 */
export class PasswordService {
  private readonly checks: AttemptLimiter;
  private readonly resetByEmail: AttemptLimiter;
  private readonly resetByClient: AttemptLimiter;
  private readonly resetTries: AttemptLimiter;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly identity: IdentityService,
    private readonly verification: VerificationService,
    private readonly events: () => SessionEvents | null,
    attempts: AttemptLimits,
  ) {
    this.checks = attempts.limit(RULES.checks);
    this.resetByEmail = attempts.limit(RULES.resetByEmail);
    this.resetByClient = attempts.limit(RULES.resetByClient);
    this.resetTries = attempts.limit(RULES.resetTries);
  }

  /**
   * Checks a signed-in user's current password; answers the stored hash it matched, so the caller
   * can make its write conditional on it (a change in between is not overwritten). 429 past the
   * limit, 409 for an account without a password, 401 for a wrong one.
   */
  async verifyCurrent(userId: number, password: string): Promise<string> {
    const key = String(userId);
    if (!(await this.checks.tryAcquire(key)).allowed) throw new AccountRefusal(429, SERVER_MESSAGES.passwordCheckLimit);
    const [row] = await this.db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE user_id = $1 AND deleted_at IS NULL',
      [userId],
    );
    // Deleted meanwhile (a deletion sent twice at once): the session is over, like its revoked token.
    if (!row) throw new AccountRefusal(401, ERROR_INFO[401]);
    if (!row.password_hash) throw new AccountRefusal(409, SERVER_MESSAGES.passwordNotSet);
    if (!(await verifyPassword(password, row.password_hash)))
      throw new AccountRefusal(401, SERVER_MESSAGES.passwordWrong);
    await this.checks.reset(key);
    return row.password_hash;
  }

  /**
   * Changes the password after checking the current one. Every other session of the account ends
   * (its tokens revoked, its sockets closed); the one that asked (`token`) stays signed in. Reset
   * codes still open are retired, and the account's e-mail gets a notice.
   */
  async change(userId: number, token: string, current: string, next: string): Promise<void> {
    const matched = await this.verifyCurrent(userId, current);
    const hash = await hashPassword(next);
    await this.db.transaction(async (q) => {
      if (!(await lockUser(q, userId))) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
      // Only over the hash just checked: a change that committed meanwhile makes `current` wrong.
      const [changed] = await q.query<{ email: string | null }>(
        'UPDATE users SET password_hash = $3 WHERE user_id = $1 AND password_hash = $2 AND deleted_at IS NULL RETURNING email',
        [userId, matched, hash],
      );
      if (!changed) throw new AccountRefusal(401, SERVER_MESSAGES.passwordWrong);
      await this.identity.revokeAll(userId, q, token);
      await this.verification.retire(q, userId, 'password');
      if (changed.email)
        await this.verification.notify(
          q,
          userId,
          changed.email,
          SERVER_MESSAGES.passwordChangedSubject,
          SERVER_MESSAGES.passwordChangedBody,
        );
    });
    this.events()?.endSessions(userId, token);
  }

  /**
   * Asks for a reset code. The answer is the same for any address (an account or not, a code sent
   * or not past the hourly code limit); a code goes to the outbox only for an account's address.
   * Counted per e-mail and per client before anything else; past either limit it is 429 for any
   * address alike. Both paths run the same reads and no password hash.
   */
  async requestReset(email: string, client: string): Promise<{ expires_at: string }> {
    const clientKey = client || 'unknown';
    // Counted for the e-mail, then for the client; refused by the client's limit, the e-mail's
    // attempt is given back (a refused request counts against neither, as before).
    const byEmail = await this.resetByEmail.tryAcquire(email);
    if (!byEmail.allowed) throw new AccountRefusal(429, SERVER_MESSAGES.passwordResetLimit);
    const byClient = await this.resetByClient.tryAcquire(clientKey);
    if (!byClient.allowed) {
      await byEmail.giveBack();
      throw new AccountRefusal(429, SERVER_MESSAGES.passwordResetLimit);
    }
    const expiresAt = new Date(this.clock.now().getTime() + VERIFICATION_CODE_TTL_MS).toISOString();
    await this.db.transaction(async (q) => {
      const [user] = await q.query<{ user_id: number }>(
        'SELECT user_id FROM users WHERE email = $1 AND deleted_at IS NULL FOR UPDATE',
        [email],
      );
      await this.verification.sendPasswordCode(q, user?.user_id ?? null, email);
    });
    return { expires_at: expiresAt };
  }

  /**
   * Sets a new password with an e-mailed code and signs in: the code works once, every session of
   * the account ends (tokens revoked, sockets closed) and a new one starts. A wrong code, an unknown
   * address and an expired code get one answer (400); tries are counted per e-mail before the work.
   * A suspended account gets 9002 like at login, and its code stays unused.
   */
  async reset(email: string, code: string, password: string): Promise<Session> {
    if (!(await this.resetTries.tryAcquire(email)).allowed) throw new AccountRefusal(429, SERVER_MESSAGES.codeTryLimit);
    const hash = await hashPassword(password);
    const session = await this.db.transaction(async (q) => {
      const [user] = await q.query<{ user_id: number; status: number }>(
        'SELECT user_id, status FROM users WHERE email = $1 AND deleted_at IS NULL FOR UPDATE',
        [email],
      );
      if (!user || !(await this.verification.consume(q, user.user_id, 'password', code))) return null;
      if (user.status === SUSPENDED_STATUS)
        throw new AccountRefusal(403, INVALID_USER_INFO, MAINTENANCE_CODES.invaliduser);
      // The code came to this address, so the address is proven as well.
      await q.query(
        'UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, $3) WHERE user_id = $1',
        [user.user_id, hash, this.clock.now().toISOString()],
      );
      await this.identity.revokeAll(user.user_id, q);
      return { user_id: user.user_id, ...(await this.identity.issueToken(user.user_id, q)) };
    });
    if (!session) throw new AccountRefusal(400, SERVER_MESSAGES.codeInvalid);
    await this.resetTries.reset(email);
    this.events()?.endSessions(session.user_id, session.access_token);
    return session;
  }
}
