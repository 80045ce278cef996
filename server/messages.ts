/** Japanese texts the reference server answers with (user-facing), in one place. */
export const SERVER_MESSAGES = {
  loginFailed: 'メールアドレスまたはパスワードが正しくありません。',
  loginSlowedDown: 'ログインの失敗が続いたため、この端末からはしばらくログインできません。時間をおいてお試しください。',
  tooManyRequests: 'リクエストが多すぎます。しばらくしてからお試しください。',
  purchaseRequestIdReused: 'このリクエストIDはすでに別の購入内容で使われています。',
  addressInUseNoticeSubject: '【オンクレ】このメールアドレスでの登録・確認の試みがありました',
  addressInUseNoticeBody: 'このメールアドレスは既にオンクレのアカウントに登録されています。どなたかがこのアドレスで新規登録またはメールアドレス確認を試みました。お心当たりがない場合は、このメールを破棄してください。',
} as const;
