import { z } from 'zod/mini';
import { CHAT_PAGE_SIZE, CHAT_TEXT_MAX, CONTACT_CATEGORIES, CONTACT_TEXT_MAX } from '../domain';
import { textField } from './account.schema';
import { clientRequestIdSchema } from './delivery.schema';
import { chatMessageSchema } from './chat-message.schema';
import { errorResponseSchema } from './envelope';
import { ADDRESS_INPUT_LABELS as L, CONTRACT_MESSAGES as M } from './messages';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';

/**
 * Support (our design; the spec lists "contact: form and done" and "chat support" only): the contact
 * form, and the support chat between a player and the operators. The player's side needs a
 * signed-in session; the operator's side is in the operator API. See docs/support.md.
 */
export const SUPPORT_ENDPOINTS = {
  contact: 'support/contact',
  chatList: 'support/chat/list',
  chatSend: 'support/chat/send',
} as const;

export const contactRequestSchema = z.extend(identitySchema, {
  contact: z.object({
    category: z.enum(CONTACT_CATEGORIES, { error: M.contactCategory }),
    text: textField(L.contactText, CONTACT_TEXT_MAX),
    /** 1: attach the player's recent plays (the last 10) so support can see what happened. */
    attach_play: z._default(flag01Schema, 0),
  }),
});
export const contactResponseSchema = z.extend(errorResponseSchema, {
  contact: z.object({ contact_id: z.int().check(z.positive()), created_at: z.string() }),
});

export const chatListRequestSchema = z.extend(identitySchema, {
  /** Older messages than before_id; the newest page when omitted. Reading clears the message flag. */
  chat: z._default(z.object({ before_id: z.optional(idSchema) }), {}),
});
export const chatListResponseSchema = z.extend(errorResponseSchema, {
  /** Oldest first, at most CHAT_PAGE_SIZE. */
  list: z.array(chatMessageSchema).check(z.maxLength(CHAT_PAGE_SIZE)),
  /** 1 when older messages exist. */
  has_more: flag01Schema,
});

export const chatSendRequestSchema = z.extend(identitySchema, {
  chat: z.object({
    text: textField(L.chatText, CHAT_TEXT_MAX),
    /** Client-made id: resending it stores the message once. */
    client_id: clientRequestIdSchema,
  }),
});
export const chatSendResponseSchema = z.extend(errorResponseSchema, { message: chatMessageSchema });

// ---- the operator side (header x-operator-authorization) -----------------------------------

export const OPERATOR_SUPPORT_ENDPOINTS = {
  contacts: 'operator/support/contacts',
  contactClose: 'operator/support/contact_close',
  threads: 'operator/support/threads',
  thread: 'operator/support/thread',
  reply: 'operator/support/reply',
} as const;

export const operatorContactsSchema = z.strictObject({
  status: z._default(z.enum(['open', 'closed']), 'open'),
  limit: z._default(z.int().check(z.gte(1)).check(z.lte(200)), 50),
});
export const operatorContactCloseSchema = z.strictObject({ contact_id: idSchema });
export const operatorThreadsSchema = z.strictObject({
  limit: z._default(z.int().check(z.gte(1)).check(z.lte(200)), 50),
});
export const operatorThreadSchema = z.strictObject({ user_id: idSchema, before_id: z.optional(idSchema) });
export const operatorReplySchema = z.strictObject({
  user_id: idSchema,
  text: textField(L.chatText, CHAT_TEXT_MAX),
  client_id: clientRequestIdSchema,
});

export const contactRecordSchema = z.object({
  contact_id: z.int().check(z.positive()),
  user_id: z.int().check(z.positive()),
  category: z.enum(CONTACT_CATEGORIES),
  text: z.string(),
  /** The player's recent plays when attached (station, prize, result, when), else null. */
  plays: z.nullable(
    z.array(
      z.object({
        play_id: z.int(),
        station_id: z.int(),
        prize_name: z.string(),
        result: z.string(),
        played_at: z.string(),
      }),
    ),
  ),
  status: z.enum(['open', 'closed']),
  created_at: z.string(),
});
export const operatorContactsResponseSchema = z.extend(errorResponseSchema, { list: z.array(contactRecordSchema) });
export const operatorContactCloseResponseSchema = z.extend(errorResponseSchema, { contact: contactRecordSchema });
export const operatorThreadsResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(
    z.object({
      user_id: z.int().check(z.positive()),
      nickname: z.string(),
      last_message: chatMessageSchema,
      /** Player messages after the last operator reply. */
      waiting: z.int().check(z.gte(0)),
    }),
  ),
});
export const operatorThreadResponseSchema = chatListResponseSchema;
