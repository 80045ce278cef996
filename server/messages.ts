/** Japanese texts the reference server answers with (user-facing), in one place. */
export const SERVER_MESSAGES = {
  loginFailed: 'メールアドレスまたはパスワードが正しくありません。',
  loginSlowedDown: 'ログインの失敗が続いたため、この端末からはしばらくログインできません。時間をおいてお試しください。',
  tooManyRequests: 'リクエストが多すぎます。しばらくしてからお試しください。',
  purchaseRequestIdReused: 'このリクエストIDはすでに別の購入内容で使われています。',
  requestTimeout: 'リクエストの受信が時間内に完了しませんでした。',
} as const;
