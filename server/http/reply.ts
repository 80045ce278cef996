import type { FastifyReply } from 'fastify';

/** Japanese error_info texts of the reference server, by error_code. */
export const ERROR_INFO = {
  400: 'リクエストの内容が正しくありません。',
  401: 'ログインの有効期限が切れました。もう一度ログインしてください。',
  402: 'TCが不足しています。',
  403: 'この操作は許可されていません。',
  404: 'お探しの情報が見つかりません。',
  409: 'この操作は現在の状態では実行できません。',
  413: 'リクエストが大きすぎます。',
  415: 'リクエストの形式に対応していません。',
  429: 'リクエストが多すぎます。しばらくしてからお試しください。',
  500: 'サーバーで問題が発生しました。しばらくしてからもう一度お試しください。',
  503: 'サーバーを起動しています。しばらくしてからもう一度お試しください。',
} as const;

/** invaliduser (MAINTENANCE_CODES in the domain) answers a call by a suspended user (users.status 2). */
export const INVALID_USER_INFO = 'このアカウントは現在ご利用いただけません。お問い合わせください。';

/** Sends a failure answer: `{ error_code, error_info }` with a fitting HTTP status [R3-19]. */
export function replyError(reply: FastifyReply, status: keyof typeof ERROR_INFO, info: string = ERROR_INFO[status], code: number = status) {
  return reply.code(status).send({ error_code: code, error_info: info });
}

/** Sends a success answer: error_code 200 and an empty error_info plus the payload [R8-1]. */
export function ok<T extends object>(payload: T): T & { error_code: 200; error_info: '' } {
  return { error_code: 200, error_info: '', ...payload };
}
