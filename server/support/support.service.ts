import type { ChatMessageWire } from '../../src/contract';
import { CHAT_PAGE_SIZE, type ChatAuthor, type ContactCategory } from '../../src/domain';
import { AccountRefusal } from '../account/account-errors';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor, Store } from '../store/store';
import { lockUser } from '../store/user-lock';

/** Where support tells a player something at once (the real-time user channel). */
export interface SupportEvents {
  chat(userId: number, message: ChatMessageWire): void;
}

/** Contact-form messages one player may send per hour. */
export const CONTACTS_PER_HOUR = 10;
/** Chat messages one player may send per minute. */
export const CHAT_MESSAGES_PER_MINUTE = 30;
/** Plays a contact carries when the player attaches them (the newest finished ones). */
export const ATTACHED_PLAYS = 10;

export interface AttachedPlay {
  readonly play_id: number;
  readonly station_id: number;
  readonly prize_name: string;
  readonly result: string;
  readonly played_at: string;
}

export interface ContactRecord {
  readonly contact_id: number;
  readonly user_id: number;
  readonly category: ContactCategory;
  readonly text: string;
  readonly plays: AttachedPlay[] | null;
  readonly status: 'open' | 'closed';
  readonly created_at: string;
}

interface MessageRow {
  message_id: number;
  author: ChatAuthor;
  text: string;
  client_id: string;
  created_at: Date | string;
}

interface ContactRow {
  contact_id: number;
  user_id: number;
  category: ContactCategory;
  text: string;
  plays: AttachedPlay[] | null;
  status: 'open' | 'closed';
  created_at: Date | string;
}

const iso = (d: Date | string): string => new Date(d).toISOString();
const toWire = (r: MessageRow): ChatMessageWire => ({
  message_id: r.message_id,
  from: r.author,
  text: r.text,
  created_at: iso(r.created_at),
});
const toContact = (r: ContactRow): ContactRecord => ({
  contact_id: r.contact_id,
  user_id: r.user_id,
  category: r.category,
  text: r.text,
  plays: r.plays,
  status: r.status,
  created_at: iso(r.created_at),
});

/**
 * Support (docs/support.md): the contact form and one chat thread per player with the operators.
 * Every write is one transaction under the player's row lock, so the per-player limits are counted
 * in the store before the insert and hold under any number of concurrent calls; a refused call
 * writes nothing. A message is stored once per sender and client_id (a resend answers the first).
 */
export class SupportService {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly events: () => SupportEvents | null,
  ) {}

  // ---- the player's side ---------------------------------------------------------------------

  /** Stores a contact-form message, with the player's last plays when asked; 429 past the hourly limit. */
  async contact(
    userId: number,
    c: { category: ContactCategory; text: string; attach_play: 0 | 1 },
  ): Promise<{ contact_id: number; created_at: string }> {
    return this.db.transaction(async (q) => {
      await lockOpenUser(q, userId);
      const now = this.clock.now();
      const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM support_contacts WHERE user_id = $1 AND created_at > $2',
        [userId, new Date(now.getTime() - 3_600_000).toISOString()],
      );
      if (n >= CONTACTS_PER_HOUR) throw new AccountRefusal(429, SERVER_MESSAGES.contactLimit(CONTACTS_PER_HOUR));
      const plays = c.attach_play === 1 ? await recentPlays(q, userId) : null;
      const [row] = await q.query<{ contact_id: number; created_at: Date }>(
        `INSERT INTO support_contacts (user_id, category, text, plays, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)
         RETURNING contact_id, created_at`,
        [userId, c.category, c.text, plays === null ? null : JSON.stringify(plays), now.toISOString()],
      );
      return { contact_id: row!.contact_id, created_at: iso(row!.created_at) };
    });
  }

  /**
   * A page of the player's chat, oldest first: the newest CHAT_PAGE_SIZE messages, or those before
   * `beforeId`. Reading the newest page clears the player's `message` unread flag.
   */
  async chatList(userId: number, beforeId?: number): Promise<{ list: ChatMessageWire[]; has_more: 0 | 1 }> {
    if (beforeId !== undefined) return this.page(this.db, userId, beforeId);
    // Under the row lock a reply takes too: a reply is either in the page read, or marks the flag after.
    return this.db.transaction(async (q) => {
      await lockOpenUser(q, userId);
      const page = await this.page(q, userId);
      await q.query("DELETE FROM user_unread WHERE user_id = $1 AND kind = 'message'", [userId]);
      return page;
    });
  }

  /**
   * Stores the player's message (once per client_id; the same id with another text is 409) and
   * sends it on the user channel, so the player's other devices show it. 429 past the minute's limit.
   */
  async chatSend(userId: number, text: string, clientId: string): Promise<ChatMessageWire> {
    const done = await this.db.transaction(async (q) => {
      await lockOpenUser(q, userId);
      const again = await sent(q, userId, 'player', clientId, text);
      if (again) return { message: again, fresh: false };
      const now = this.clock.now();
      const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM support_messages WHERE user_id = $1 AND author = 'player' AND created_at > $2",
        [userId, new Date(now.getTime() - 60_000).toISOString()],
      );
      if (n >= CHAT_MESSAGES_PER_MINUTE) throw new AccountRefusal(429, SERVER_MESSAGES.chatLimit);
      return { message: await insertMessage(q, userId, 'player', text, clientId, now), fresh: true };
    });
    if (done.fresh) this.events()?.chat(userId, done.message);
    return done.message;
  }

  // ---- the operators' side -------------------------------------------------------------------

  /** Contact-form messages by status: open ones oldest first (a queue), closed ones newest first. */
  async contacts(status: 'open' | 'closed', limit: number): Promise<ContactRecord[]> {
    const rows = await this.db.query<ContactRow>(
      `SELECT contact_id, user_id, category, text, plays, status, created_at FROM support_contacts
        WHERE status = $1 ORDER BY contact_id ${status === 'open' ? 'ASC' : 'DESC'} LIMIT $2`,
      [status, limit],
    );
    return rows.map(toContact);
  }

  /** Closes a contact (closing a closed one answers it as it is); 404 for an unknown id. */
  async closeContact(contactId: number): Promise<ContactRecord> {
    const [row] = await this.db.query<ContactRow>(
      `UPDATE support_contacts SET status = 'closed', closed_at = coalesce(closed_at, $2) WHERE contact_id = $1
       RETURNING contact_id, user_id, category, text, plays, status, created_at`,
      [contactId, this.clock.now().toISOString()],
    );
    if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.contactNotFound);
    return toContact(row);
  }

  /**
   * The chat threads, the most recently active first: each player's last message, nickname and how
   * many of their messages came after the last operator reply (waiting for an answer).
   */
  async threads(limit: number) {
    const rows = await this.db.query<MessageRow & { user_id: number; nickname: string | null; waiting: number }>(
      `WITH last AS (
         SELECT DISTINCT ON (user_id) user_id, message_id, author, text, client_id, created_at
           FROM support_messages ORDER BY user_id, message_id DESC
       )
       SELECT l.user_id, l.message_id, l.author, l.text, l.client_id, l.created_at, u.nickname,
              (SELECT count(*)::int FROM support_messages m
                WHERE m.user_id = l.user_id AND m.author = 'player'
                  AND m.message_id > coalesce((SELECT max(o.message_id) FROM support_messages o
                                                WHERE o.user_id = l.user_id AND o.author = 'operator'), 0)) AS waiting
         FROM last l JOIN users u ON u.user_id = l.user_id
        WHERE u.deleted_at IS NULL
        ORDER BY l.message_id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      user_id: r.user_id,
      nickname: r.nickname ?? '',
      last_message: toWire(r),
      waiting: r.waiting,
    }));
  }

  /** One player's thread, paged like the player's own list; 404 for an unknown or deleted user. */
  async thread(userId: number, beforeId?: number): Promise<{ list: ChatMessageWire[]; has_more: 0 | 1 }> {
    const [user] = await this.db.query('SELECT 1 FROM users WHERE user_id = $1 AND deleted_at IS NULL', [userId]);
    if (!user) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
    return this.page(this.db, userId, beforeId);
  }

  /**
   * An operator's reply: stored once per client_id, the player's `message` unread flag set and the
   * message sent on their user channel. 404 for an unknown or deleted user.
   */
  async reply(userId: number, text: string, clientId: string): Promise<ChatMessageWire> {
    const done = await this.db.transaction(async (q) => {
      await lockOpenUser(q, userId);
      const again = await sent(q, userId, 'operator', clientId, text);
      if (again) return { message: again, fresh: false };
      const now = this.clock.now();
      const message = await insertMessage(q, userId, 'operator', text, clientId, now);
      await q.query(
        "INSERT INTO user_unread (user_id, kind, marked_at) VALUES ($1, 'message', $2) ON CONFLICT DO NOTHING",
        [userId, now.toISOString()],
      );
      return { message, fresh: true };
    });
    if (done.fresh) this.events()?.chat(userId, done.message);
    return done.message;
  }

  private async page(
    q: SqlExecutor,
    userId: number,
    beforeId?: number,
  ): Promise<{ list: ChatMessageWire[]; has_more: 0 | 1 }> {
    const rows = await q.query<MessageRow>(
      `SELECT message_id, author, text, client_id, created_at FROM support_messages
        WHERE user_id = $1 AND ($2::int IS NULL OR message_id < $2) ORDER BY message_id DESC LIMIT $3`,
      [userId, beforeId ?? null, CHAT_PAGE_SIZE + 1],
    );
    return {
      list: rows.slice(0, CHAT_PAGE_SIZE).reverse().map(toWire),
      has_more: rows.length > CHAT_PAGE_SIZE ? 1 : 0,
    };
  }
}

/** The user's row lock; 404 for a user that does not exist or was deleted. */
async function lockOpenUser(q: SqlExecutor, userId: number): Promise<void> {
  if (!(await lockUser(q, userId))) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
  const [row] = await q.query('SELECT 1 FROM users WHERE user_id = $1 AND deleted_at IS NULL', [userId]);
  if (!row) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
}

/** The message a sender already stored under `clientId`, or null; the same id with another text is 409. */
async function sent(
  q: SqlExecutor,
  userId: number,
  author: ChatAuthor,
  clientId: string,
  text: string,
): Promise<ChatMessageWire | null> {
  const [row] = await q.query<MessageRow>(
    'SELECT message_id, author, text, client_id, created_at FROM support_messages WHERE user_id = $1 AND author = $2 AND client_id = $3',
    [userId, author, clientId],
  );
  if (!row) return null;
  if (row.text !== text) throw new AccountRefusal(409, SERVER_MESSAGES.chatClientIdReused);
  return toWire(row);
}

async function insertMessage(
  q: SqlExecutor,
  userId: number,
  author: ChatAuthor,
  text: string,
  clientId: string,
  now: Date,
): Promise<ChatMessageWire> {
  const [row] = await q.query<MessageRow>(
    `INSERT INTO support_messages (user_id, author, text, client_id, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING message_id, author, text, client_id, created_at`,
    [userId, author, text, clientId, now.toISOString()],
  );
  return toWire(row!);
}

/** The player's newest finished plays (the play log's), for a contact that attaches them. */
async function recentPlays(q: SqlExecutor, userId: number): Promise<AttachedPlay[]> {
  const rows = await q.query<{
    play_id: number;
    station_id: number;
    prize_name: string;
    result: string;
    started_at: Date | string;
  }>(
    `SELECT p.play_id, p.station_id, s.prize_name, p.result, p.started_at
       FROM plays p JOIN stations s ON s.station_id = p.station_id
      WHERE p.user_id = $1 AND p.result IS NOT NULL ORDER BY p.play_id DESC LIMIT ${ATTACHED_PLAYS}`,
    [userId],
  );
  return rows.map((r) => ({
    play_id: r.play_id,
    station_id: r.station_id,
    prize_name: r.prize_name,
    result: r.result,
    played_at: iso(r.started_at),
  }));
}
