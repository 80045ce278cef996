import type { Observable } from 'rxjs';
import type { ChatMessage, ContactCategory, ContactReceipt } from '../../domain';

/** One page of the support chat, oldest first. */
export interface ChatPage {
  readonly messages: readonly ChatMessage[];
  /** True when older messages exist (ask with the first message's id). */
  readonly hasMore: boolean;
}

/**
 * Support (docs/support.md): the contact form and the support chat with the operators. Every call
 * needs a signed-in session; each returns a cold observable that emits once and completes.
 * Operator replies arrive as `chat` events on the user channel (RealtimePort).
 */
export interface SupportPort {
  /** Sends a contact-form message; `attachPlay` attaches the player's recent plays. */
  sendContact(category: ContactCategory, text: string, attachPlay: boolean): Observable<ContactReceipt>;
  /** The newest page, or the page before `beforeId`; reading clears the unread message flag. */
  chatPage(beforeId?: number): Observable<ChatPage>;
  /** Sends a chat message; resending the same `clientId` stores it once. */
  sendChat(text: string, clientId: string): Observable<ChatMessage>;
}
