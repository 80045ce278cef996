import type { z } from 'zod/mini';
import { CONTRACT_MESSAGES, FIELD_LABELS_JA } from './messages';

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/**
 * The Japanese error_info for a body its contract schema refuses: the schema's own message when it
 * is Japanese, else one naming the field. The server answers it.
 */
export function japaneseIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return CONTRACT_MESSAGES.requestInvalid;
  if (JAPANESE.test(issue.message)) return issue.message;
  const key = [...issue.path].reverse().find((p) => typeof p === 'string' && FIELD_LABELS_JA[p]);
  const label = typeof key === 'string' ? FIELD_LABELS_JA[key] : undefined;
  return label ? CONTRACT_MESSAGES.fieldInvalid(label) : CONTRACT_MESSAGES.requestInvalid;
}
