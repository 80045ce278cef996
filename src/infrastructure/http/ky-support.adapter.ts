import { mapped } from '../../contract/schema-helpers';
import type { Observable } from 'rxjs';
import type { ChatPage, SupportPort } from '../../application';
import type { ChatMessage, ContactCategory, ContactReceipt } from '../../domain';
import {
  SUPPORT_ENDPOINTS as S,
  chatListResponseSchema,
  chatSendResponseSchema,
  contactResponseSchema,
} from '../../contract';
import { toChatMessage } from '../wire/chat-wire';
import type { KyHttpClient } from './ky-http-client';

/** SupportPort over HTTP (ky): the contact form and the support chat (docs/support.md). */
export class KySupport implements SupportPort {
  constructor(private readonly http: KyHttpClient) {}

  sendContact(category: ContactCategory, text: string, attachPlay: boolean): Observable<ContactReceipt> {
    return this.http.post(
      S.contact,
      { contact: { category, text, attach_play: attachPlay ? 1 : 0 } },
      mapped(contactResponseSchema, ({ contact: c }): ContactReceipt => ({
        contactId: c.contact_id,
        createdAt: c.created_at,
      })),
      'support_contact',
      { identity: 'required' },
    );
  }
  chatPage(beforeId?: number): Observable<ChatPage> {
    return this.http.post(
      S.chatList,
      { chat: beforeId === undefined ? {} : { before_id: beforeId } },
      mapped(chatListResponseSchema, (a): ChatPage => ({
        messages: a.list.map(toChatMessage),
        hasMore: a.has_more === 1,
      })),
      'support_chat_list',
      { identity: 'required' },
    );
  }
  sendChat(text: string, clientId: string): Observable<ChatMessage> {
    return this.http.post(
      S.chatSend,
      { chat: { text, client_id: clientId } },
      mapped(chatSendResponseSchema, (a) => toChatMessage(a.message)),
      'support_chat_send',
      { identity: 'required' },
    );
  }
}
