import type { FastifyReply } from 'fastify';
import { ERROR_INFO } from '../messages';

export { ERROR_INFO, INVALID_USER_INFO } from '../messages';

/** Sends a failure answer: `{ error_code, error_info }` with a fitting HTTP status [R3-19]. */
export function replyError(
  reply: FastifyReply,
  status: keyof typeof ERROR_INFO,
  info: string = ERROR_INFO[status],
  code: number = status,
) {
  return reply.code(status).send({ error_code: code, error_info: info });
}

/** Sends a success answer: error_code 200 and an empty error_info plus the payload [R8-1]. */
export function ok<T extends object>(payload: T): T & { error_code: 200; error_info: '' } {
  return { error_code: 200, error_info: '', ...payload };
}
