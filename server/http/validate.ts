import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { replyError } from './reply';

/**
 * Validates a request body against its contract schema. On failure answers 400 with a Japanese
 * error_info naming the first bad field, and returns null so the handler changes nothing.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.infer<S> | null {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : null;
  void replyError(reply, 400, field ? `リクエストの内容が正しくありません（${field}）。` : undefined);
  return null;
}
