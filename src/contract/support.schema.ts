import { z } from 'zod';
import { CHAT_PAGE_SIZE, CHAT_TEXT_MAX, CONTACT_CATEGORIES, CONTACT_TEXT_MAX } from '../domain';
import { textField } from './account.schema';
import { clientRequestIdSchema } from './delivery.schema';
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

export const contactRequestSchema = identitySchema.extend({
  contact: z.object({
    category: z.enum(CONTACT_CATEGORIES, { error: M.contactCategory }),
    text: textField(L.contactText, CONTACT_TEXT_MAX),
    /** 1: attach the player's recent plays (the last 10) so support can see what happened. */
    attach_play: flag01Schema.default(0),
  }),
});
export const contactResponseSchema = errorResponseSchema.extend({
  contact: z.object({ contact_id: z.number().int().positive(), created_at: z.string() }),
});

export const chatMessageSchema = z.object({
  message_id: z.number().int().positive(),
  from: z.enum(['player', 'operator']),
  text: z.string(),
  created_at: z.string(),
});
export type ChatMessageWire = z.infer<typeof chatMessageSchema>;

export const chatListRequestSchema = identitySchema.extend({
  /** Older messages than before_id; the newest page when omitted. Reading clears the message flag. */
  chat: z.object({ before_id: idSchema.optional() }).default({}),
});
export const chatListResponseSchema = errorResponseSchema.extend({
  /** Oldest first, at most CHAT_PAGE_SIZE. */
  list: z.array(chatMessageSchema).max(CHAT_PAGE_SIZE),
  /** 1 when older messages exist. */
  has_more: flag01Schema,
});

export const chatSendRequestSchema = identitySchema.extend({
  chat: z.object({
    text: textField(L.chatText, CHAT_TEXT_MAX),
    /** Client-made id: resending it stores the message once. */
    client_id: clientRequestIdSchema,
  }),
});
export const chatSendResponseSchema = errorResponseSchema.extend({ message: chatMessageSchema });

// ---- the operator side (header x-operator-authorization) -----------------------------------

export const OPERATOR_SUPPORT_ENDPOINTS = {
  contacts: 'operator/support/contacts',
  contactClose: 'operator/support/contact_close',
  threads: 'operator/support/threads',
  thread: 'operator/support/thread',
  reply: 'operator/support/reply',
} as const;

export const operatorContactsSchema = z
  .object({ status: z.enum(['open', 'closed']).default('open'), limit: z.number().int().min(1).max(200).default(50) })
  .strict();
export const operatorContactCloseSchema = z.object({ contact_id: idSchema }).strict();
export const operatorThreadsSchema = z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict();
export const operatorThreadSchema = z.object({ user_id: idSchema, before_id: idSchema.optional() }).strict();
export const operatorReplySchema = z
  .object({ user_id: idSchema, text: textField(L.chatText, CHAT_TEXT_MAX), client_id: clientRequestIdSchema })
  .strict();

export const contactRecordSchema = z.object({
  contact_id: z.number().int().positive(),
  user_id: z.number().int().positive(),
  category: z.enum(CONTACT_CATEGORIES),
  text: z.string(),
  /** The player's recent plays when attached (station, prize, result, when), else null. */
  plays: z
    .array(
      z.object({
        play_id: z.number().int(),
        station_id: z.number().int(),
        prize_name: z.string(),
        result: z.string(),
        played_at: z.string(),
      }),
    )
    .nullable(),
  status: z.enum(['open', 'closed']),
  created_at: z.string(),
});
export const operatorContactsResponseSchema = errorResponseSchema.extend({ list: z.array(contactRecordSchema) });
export const operatorContactCloseResponseSchema = errorResponseSchema.extend({ contact: contactRecordSchema });
export const operatorThreadsResponseSchema = errorResponseSchema.extend({
  list: z.array(
    z.object({
      user_id: z.number().int().positive(),
      nickname: z.string(),
      last_message: chatMessageSchema,
      /** Player messages after the last operator reply. */
      waiting: z.number().int().min(0),
    }),
  ),
});
export const operatorThreadResponseSchema = chatListResponseSchema;
