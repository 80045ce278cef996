import {
  OPERATOR_SUPPORT_ENDPOINTS as O,
  SUPPORT_ENDPOINTS as S,
  chatListRequestSchema,
  chatSendRequestSchema,
  contactRequestSchema,
  operatorContactCloseSchema,
  operatorContactsSchema,
  operatorReplySchema,
  operatorThreadSchema,
  operatorThreadsSchema,
} from '../../src/contract';
import type { ApiDeps } from './deps';
import { rowSubject } from '../http/route';

/**
 * Support (docs/support.md): the player's contact form and support chat, and the operators' side
 * of both (RouteBuilder.operator, the operator token; never a user login).
 */
export async function supportRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const support = s.support;

  route.authed(`/${S.contact}`, contactRequestSchema, async (user, body) => ({
    contact: await support.contact(user.user_id, body.contact),
  }));

  route.authed(`/${S.chatList}`, chatListRequestSchema, async (user, body) =>
    support.chatList(user.user_id, body.chat.before_id),
  );

  route.authed(`/${S.chatSend}`, chatSendRequestSchema, async (user, body) => ({
    message: await support.chatSend(user.user_id, body.chat.text, body.chat.client_id),
  }));

  route.operator(`/${O.contacts}`, { right: 'support', read: true }, operatorContactsSchema, async (body) => ({
    list: await support.contacts(body.status, body.limit),
  }));

  // The audit log keeps the contact's status before and after, never the player's text (R10-9).
  const onContact = rowSubject<{ contact_id: number }>(
    s.store,
    'support',
    'SELECT user_id, category, status FROM support_contacts WHERE contact_id = $1',
    (body) => body.contact_id,
  );
  route.operator(`/${O.contactClose}`, onContact, operatorContactCloseSchema, async (body) => ({
    contact: await support.closeContact(body.contact_id),
  }));

  route.operator(`/${O.threads}`, { right: 'support', read: true }, operatorThreadsSchema, async (body) => ({
    list: await support.threads(body.limit),
  }));

  route.operator(`/${O.thread}`, { right: 'support', read: true }, operatorThreadSchema, async (body) =>
    support.thread(body.user_id, body.before_id),
  );

  route.operator(`/${O.reply}`, { right: 'support' }, operatorReplySchema, async (body) => ({
    message: await support.reply(body.user_id, body.text, body.client_id),
  }));
}
