import type { ChatMessage } from '../../domain';
import type { ChatMessageWire } from '../../contract';

/** A chat message on the wire → the domain's (the chat calls' answers and the realtime push). */
export const toChatMessage = (m: ChatMessageWire): ChatMessage => ({
  messageId: m.message_id,
  from: m.from,
  text: m.text,
  createdAt: m.created_at,
});
