import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { AttemptLimiter, AttemptLimits } from '../limits/attempt-limiter';
import type { SqlExecutor, Store } from '../store/store';
import { AccountRefusal } from './account-errors';
import { SERVER_MESSAGES } from '../messages';
import type { Clock } from '../clock';
import { VERIFICATION_CODE_TTL_MS } from '../../src/domain';

/** What a code proves: an e-mail address, a phone number, or the right to set a new password. */
export type VerificationPurpose = 'email' | 'tel' | 'password';

/** At most this many codes per user and purpose per hour. */
export const MAX_CODES_PER_HOUR = 5;
/** Wrong codes allowed per user and purpose in 15 minutes before verification is blocked. */
export const MAX_CODE_FAILURES = 5;

const hashCode = (userId: number, purpose: VerificationPurpose, code: string) =>
  createHash('sha256').update(`${userId}:${purpose}:${code}`).digest();

/**
 * One-time codes for e-mail and phone verification, "sent" through the dev outbox table: the
 * reference server has no mail or SMS provider; a development-only call lets the UI read the
 * messages (docs/api/user.md). Only the code's hash is stored.
 */
export class VerificationService {
  private readonly limiter: AttemptLimiter;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    attempts: AttemptLimits,
  ) {
    this.limiter = attempts.limit({ name: 'verification:code', max: MAX_CODE_FAILURES, windowMs: 15 * 60 * 1000 });
  }

  /** Sends a new code for `target` (an e-mail address or a phone number); answers its expiry. */
  async send(userId: number, purpose: VerificationPurpose, target: string): Promise<{ expires_at: string }> {
    return this.db.transaction(async (q) => {
      await q.query('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
      const now = this.clock.now();
      const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM verification_codes WHERE user_id = $1 AND purpose = $2 AND created_at > $3',
        [userId, purpose, new Date(now.getTime() - 3_600_000).toISOString()],
      );
      if (n >= MAX_CODES_PER_HOUR) throw new AccountRefusal(429, SERVER_MESSAGES.codeSendLimit);
      // Another user's address: answer exactly as for a free one, but the code goes nowhere and the
      // address's owner is told instead (issue 7 §5.5: the answer must not reveal who has an account).
      const owner = purpose === 'email' ? await this.ownerOf(q, userId, target) : null;
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const expiresAt = new Date(now.getTime() + VERIFICATION_CODE_TTL_MS);
      await q.query(
        'INSERT INTO verification_codes (user_id, purpose, target, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [
          userId,
          purpose,
          target,
          hashCode(userId, purpose, code).toString('hex'),
          now.toISOString(),
          expiresAt.toISOString(),
        ],
      );
      if (owner !== null) {
        await q.query(
          'INSERT INTO dev_outbox (user_id, channel, recipient, subject, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [
            owner,
            'email',
            target,
            SERVER_MESSAGES.addressInUseNoticeSubject,
            SERVER_MESSAGES.addressInUseNoticeBody,
            now.toISOString(),
          ],
        );
        return { expires_at: expiresAt.toISOString() };
      }
      const message =
        purpose === 'email'
          ? { channel: 'email', subject: SERVER_MESSAGES.emailCodeSubject, body: SERVER_MESSAGES.emailCodeBody(code) }
          : { channel: 'sms', subject: SERVER_MESSAGES.smsCodeSubject, body: SERVER_MESSAGES.smsCodeBody(code) };
      await q.query(
        'INSERT INTO dev_outbox (user_id, channel, recipient, subject, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [userId, message.channel, target, message.subject, message.body, now.toISOString()],
      );
      return { expires_at: expiresAt.toISOString() };
    });
  }

  /**
   * Checks a code against the newest live one of the user and purpose; on success marks it used and
   * sets users.email + email_verified_at or users.tel + tel_verified_at. Answers the verified target.
   */
  async verify(
    userId: number,
    purpose: VerificationPurpose,
    code: string,
  ): Promise<{ target: string; verified_at: string }> {
    const key = `${purpose}:${userId}`;
    if (!(await this.limiter.tryAcquire(key)).allowed) throw new AccountRefusal(429, SERVER_MESSAGES.codeTryLimit);
    const outcome = await this.db.transaction(async (q) => {
      await q.query('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
      const now = this.clock.now().toISOString();
      const [row] = await q.query<{ id: number; target: string; code_hash: string }>(
        `SELECT id, target, code_hash FROM verification_codes
          WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 ORDER BY created_at DESC, id DESC LIMIT 1`,
        [userId, purpose, now],
      );
      if (!row || !timingSafeEqual(Buffer.from(row.code_hash, 'hex'), hashCode(userId, purpose, code))) return null;
      if (purpose === 'email') await this.assertEmailFree(q, userId, row.target);
      await q.query('UPDATE verification_codes SET used_at = $2 WHERE id = $1', [row.id, now]);
      if (purpose === 'email')
        await q.query('UPDATE users SET email = $2, email_verified_at = $3 WHERE user_id = $1', [
          userId,
          row.target,
          now,
        ]);
      else
        await q.query('UPDATE users SET tel = $2, tel_verified_at = $3 WHERE user_id = $1', [userId, row.target, now]);
      return { target: row.target, verified_at: now };
    });
    if (!outcome) {
      throw new AccountRefusal(400, SERVER_MESSAGES.codeInvalid);
    }
    await this.limiter.reset(key);
    return outcome;
  }

  /**
   * Inside the caller's transaction (the user's row locked): writes a password reset code for the
   * account `userId` and "sends" it to `email` through the outbox. With no account (null) or past
   * MAX_CODES_PER_HOUR it writes nothing; the caller answers the same either way, so whether the
   * address has an account does not show. Runs the same reads in both cases.
   */
  async sendPasswordCode(q: SqlExecutor, userId: number | null, email: string): Promise<void> {
    const now = this.clock.now();
    const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM verification_codes WHERE user_id = $1 AND purpose = $2 AND created_at > $3',
      [userId ?? 0, 'password', new Date(now.getTime() - 3_600_000).toISOString()],
    );
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    if (userId === null || n >= MAX_CODES_PER_HOUR) return;
    await q.query(
      'INSERT INTO verification_codes (user_id, purpose, target, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        userId,
        'password',
        email,
        hashCode(userId, 'password', code).toString('hex'),
        now.toISOString(),
        new Date(now.getTime() + VERIFICATION_CODE_TTL_MS).toISOString(),
      ],
    );
    await q.query(
      'INSERT INTO dev_outbox (user_id, channel, recipient, subject, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        userId,
        'email',
        email,
        SERVER_MESSAGES.passwordResetSubject,
        SERVER_MESSAGES.passwordResetBody(code),
        now.toISOString(),
      ],
    );
  }

  /**
   * Inside the caller's transaction: checks `code` against the user's newest live code of the
   * purpose and, when it matches, marks it and every other live code of that purpose used (a code
   * works once). The caller counts the attempt with its own limiter first.
   */
  async consume(q: SqlExecutor, userId: number, purpose: VerificationPurpose, code: string): Promise<boolean> {
    const now = this.clock.now().toISOString();
    const [row] = await q.query<{ id: number; code_hash: string }>(
      `SELECT id, code_hash FROM verification_codes
        WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [userId, purpose, now],
    );
    if (!row || !timingSafeEqual(Buffer.from(row.code_hash, 'hex'), hashCode(userId, purpose, code))) return false;
    await this.retire(q, userId, purpose);
    return true;
  }

  /** Marks every live code of the user and purpose used (after a password change, none may reset it). */
  async retire(q: SqlExecutor, userId: number, purpose: VerificationPurpose): Promise<void> {
    await q.query(
      'UPDATE verification_codes SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL',
      [userId, purpose, this.clock.now().toISOString()],
    );
  }

  /** A notice to the account's e-mail through the outbox (inside the caller's transaction). */
  async notify(q: SqlExecutor, userId: number, email: string, subject: string, body: string): Promise<void> {
    await q.query(
      'INSERT INTO dev_outbox (user_id, channel, recipient, subject, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [userId, 'email', email, subject, body, this.clock.now().toISOString()],
    );
  }

  /**
   * The address a user without an e-mail is verifying (their newest e-mail code's target), or null.
   * An account signed up with a taken address has none of its own; showing the pending one keeps its
   * e-mail status the same as a free address's (issue 7 §5.5).
   */
  async pendingEmail(userId: number): Promise<string | null> {
    const [row] = await this.db.query<{ target: string }>(
      "SELECT target FROM verification_codes WHERE user_id = $1 AND purpose = 'email' ORDER BY created_at DESC, id DESC LIMIT 1",
      [userId],
    );
    return row?.target ?? null;
  }

  /** Messages of the dev outbox for one user, newest first (development only). */
  outbox(userId: number) {
    return this.devMessages('user_id = $1', userId, 50);
  }

  /**
   * Messages of the dev outbox to one recipient, newest first, at most 20 (development only: the
   * reset code of a player who is signed out, so has no session to read the outbox with).
   */
  mailbox(recipient: string) {
    // Addresses are stored trimmed and lower-cased (the e-mail schema's output).
    return this.devMessages('recipient = $1', recipient.trim().toLowerCase(), 20);
  }

  private async devMessages(where: 'user_id = $1' | 'recipient = $1', value: number | string, limit: 20 | 50) {
    const rows = await this.db.query<{
      message_id: number;
      channel: 'email' | 'sms';
      recipient: string;
      subject: string;
      body: string;
      created_at: Date;
    }>(
      `SELECT message_id, channel, recipient, subject, body, created_at FROM dev_outbox WHERE ${where} ORDER BY message_id DESC LIMIT ${limit}`,
      [value],
    );
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  }

  /** The user (other than `userId`) whose address `email` is, or null. */
  private async ownerOf(q: SqlExecutor, userId: number, email: string): Promise<number | null> {
    const [row] = await q.query<{ user_id: number }>('SELECT user_id FROM users WHERE email = $1 AND user_id <> $2', [
      email,
      userId,
    ]);
    return row?.user_id ?? null;
  }

  private async assertEmailFree(q: SqlExecutor, userId: number, email: string): Promise<void> {
    const taken = await q.query('SELECT 1 FROM users WHERE email = $1 AND user_id <> $2', [email, userId]);
    if (taken.length > 0) throw new AccountRefusal(409, SERVER_MESSAGES.emailTaken);
  }
}
