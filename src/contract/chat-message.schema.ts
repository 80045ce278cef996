import { z } from 'zod/mini';

/**
 * One support chat message (docs/support.md): in the chat calls' answers and in the realtime push
 * to the player. Its own module, so the realtime adapter (in every page's JavaScript) takes it
 * without the support calls' schemas.
 */
export const chatMessageSchema = z.object({
  message_id: z.int().check(z.positive()),
  from: z.enum(['player', 'operator']),
  text: z.string(),
  created_at: z.string(),
});
export type ChatMessageWire = z.infer<typeof chatMessageSchema>;
