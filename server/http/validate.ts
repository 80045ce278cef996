import type { FastifyReply } from 'fastify';
import type { z } from 'zod/mini';
import { japaneseIssue } from '../../src/contract';
import { replyError } from './reply';

/**
 * Validates a body (or query) against its contract schema. On failure answers 400 with a Japanese
 * error_info naming the field, and returns null so the handler changes nothing. Authenticated calls
 * check the identity first (requireUser), then the body.
 */
export function parseBody<S extends z.ZodMiniType>(schema: S, body: unknown, reply: FastifyReply): z.infer<S> | null {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  void replyError(reply, 400, japaneseIssue(result.error));
  return null;
}
