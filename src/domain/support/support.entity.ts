/** What a contact-form message is about (our design; the spec shows only "contact: form and done"). */
export const CONTACT_CATEGORIES = ['play', 'prize', 'delivery', 'payment', 'account', 'other'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

/** Longest contact-form text, and longest chat message, in characters. */
export const CONTACT_TEXT_MAX = 2000;
export const CHAT_TEXT_MAX = 500;
/** Messages a chat page holds (older ones by `before_id`). */
export const CHAT_PAGE_SIZE = 50;

/** Who wrote a support-chat message. */
export type ChatAuthor = 'player' | 'operator';

/** One message of the support chat between a player and the operators. */
export interface ChatMessage {
  readonly messageId: number;
  readonly from: ChatAuthor;
  readonly text: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** A contact-form message as stored. */
export interface ContactReceipt {
  readonly contactId: number;
  readonly createdAt: string;
}

/** What deleting the account takes with it, shown before the player confirms [R10-7]. */
export interface AccountDeletionPreview {
  /** Won prizes not yet requested: they lapse. */
  readonly prizesNotRequested: number;
  /** Requested deliveries not yet shipped: they are cancelled and not shipped. */
  readonly deliveriesNotShipped: number;
  /** TC held (paid and free): forfeited, not refunded. */
  readonly tcPaid: number;
  readonly tcFree: number;
}

/**
 * Chat messages merged by id, oldest first: a page loaded later, a push that arrives twice or before
 * the page, all land once and in order.
 */
export function mergeChat(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): readonly ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const m of current) byId.set(m.messageId, m);
  for (const m of incoming) byId.set(m.messageId, m);
  return [...byId.values()].sort((a, b) => a.messageId - b.messageId);
}
