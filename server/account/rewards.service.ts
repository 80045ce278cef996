import { randomInt } from 'node:crypto';
import type { Store } from '../store/store';
import type { Ledger, TcBalance } from '../wallet/ledger';
import { AccountRefusal } from './account-errors';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { LimitRule, WindowLimiter } from '../limits/window-limiter';

/** Tickets an inviter receives for each friend who signs up with the invite code. */
export const INVITE_TICKET = 3;
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Present codes a user may try in an hour (docs/security.md "Present codes"): a person types a
 * code or two from a campaign; a script guessing codes is stopped after 10.
 */
export const PRESENT_CODES_PER_USER: LimitRule = { name: 'present:user', max: 10, windowMs: 60 * 60_000 };
/** …and a client address, for every account it uses (a few people may share one address). */
export const PRESENT_CODES_PER_CLIENT: LimitRule = { name: 'present:client', max: 30, windowMs: 60 * 60_000 };

/** Present codes (redeem once per user, credited through the ledgers) and invite info. */
export class RewardsService {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly limiter: WindowLimiter,
  ) {}

  /**
   * Redeems a present code for the user. The attempt is counted per user and per client (`client`,
   * the request's address) BEFORE the code is looked up: over either limit the call is refused 429,
   * whatever the code (a right code too: no oracle). A code that is credited gives its attempt
   * back, so only wrong, used and out-of-period codes use up the limits.
   */
  async redeem(
    userId: number,
    code: string,
    client: string,
  ): Promise<{
    present: { kind: 'tc_free' | 'ticket'; amount: number };
    tc: TcBalance;
    ticket: { ticket_all: number };
  }> {
    const hits = await Promise.all([
      this.limiter.hit(PRESENT_CODES_PER_USER, String(userId)),
      this.limiter.hit(PRESENT_CODES_PER_CLIENT, client),
    ]);
    if (hits.some((hit) => !hit.allowed)) throw new AccountRefusal(429, SERVER_MESSAGES.presentCodeTryLimit);
    const redeemed = await this.credit(userId, code);
    await Promise.all(hits.map((hit) => hit.giveBack()));
    return redeemed;
  }

  private credit(userId: number, code: string) {
    return this.db.transaction(async (q) => {
      const now = this.clock.now().toISOString();
      const [pc] = await q.query<{
        code: string;
        kind: 'tc_free' | 'ticket';
        amount: number;
        starts_at: Date;
        ends_at: Date;
      }>('SELECT code, kind, amount, starts_at, ends_at FROM present_codes WHERE code = $1', [code]);
      if (!pc) throw new AccountRefusal(404, SERVER_MESSAGES.presentCodeNotFound);
      if (new Date(pc.starts_at).toISOString() > now || new Date(pc.ends_at).toISOString() < now)
        throw new AccountRefusal(409, SERVER_MESSAGES.presentCodeOutOfPeriod);
      const done = await q.query(
        'INSERT INTO present_code_redemptions (code, user_id, redeemed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING code',
        [code, userId, now],
      );
      if (done.length === 0) throw new AccountRefusal(409, SERVER_MESSAGES.presentCodeUsed);
      const entry = { amount: pc.amount, reason: 'present_code', reference: code, idempotencyKey: `present:${code}` };
      if (pc.kind === 'tc_free') await this.ledger.credit(userId, 'free', entry, q);
      else await this.ledger.creditTickets(userId, entry, q);
      return {
        present: { kind: pc.kind, amount: pc.amount },
        tc: await this.ledger.balance(userId, q),
        ticket: { ticket_all: await this.ledger.tickets(userId, q) },
      };
    });
  }

  /** Invite info [R3-16]; the user's invite code is made on first use. */
  async inviteInfo(
    userId: number,
    baseUrl: string,
  ): Promise<{ invite_ticket: number; title: string; url: string; text: string }> {
    const code = await this.db.transaction(async (q) => {
      const [existing] = await q.query<{ code: string }>('SELECT code FROM invite_codes WHERE user_id = $1', [userId]);
      if (existing) return existing.code;
      for (;;) {
        const candidate = Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(0, INVITE_ALPHABET.length)]).join(
          '',
        );
        const [row] = await q.query<{ code: string }>(
          'INSERT INTO invite_codes (user_id, code, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING code',
          [userId, candidate, this.clock.now().toISOString()],
        );
        if (row) return row.code;
      }
    });
    const url = `${baseUrl.replace(/\/+$/, '')}/?invite=${code}`;
    return {
      invite_ticket: INVITE_TICKET,
      title: SERVER_MESSAGES.inviteTitle,
      url,
      text: `${SERVER_MESSAGES.inviteText(code, INVITE_TICKET)}\n${url}`,
    };
  }
}
