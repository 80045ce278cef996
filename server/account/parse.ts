import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { FIELD_LABELS_JA } from '../../src/contract';
import { replyError } from '../http/reply';

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** The Japanese error_info for a refused body: the schema's own message, or one naming the field. */
export function japaneseIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'リクエストの内容が正しくありません。';
  if (JAPANESE.test(issue.message)) return issue.message;
  const key = [...issue.path].reverse().find((p) => typeof p === 'string' && FIELD_LABELS_JA[p]);
  const label = typeof key === 'string' ? FIELD_LABELS_JA[key] : undefined;
  return label ? `「${label}」の内容が正しくありません。` : 'リクエストの内容が正しくありません。';
}

/**
 * Validates a body against its contract schema. On failure answers 400 with a Japanese error_info
 * that names the field, and returns null so the handler changes nothing.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, reply: FastifyReply): z.infer<S> | null {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  void replyError(reply, 400, japaneseIssue(result.error));
  return null;
}
