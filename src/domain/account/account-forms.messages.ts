import { PASSWORD_MAX, PASSWORD_MIN, PRESENT_CODE_LENGTH, VERIFICATION_CODE_DIGITS } from '../constants';

/**
 * The account and support forms' messages: the client's checks beside each field and the
 * service's refusals (src/contract/messages.ts takes these) are the same words.
 */
export const ACCOUNT_FORM_MESSAGES = {
  codeRequired: '認証コードを入力してください。',
  codeFormat: `認証コードは${VERIFICATION_CODE_DIGITS}桁の数字で入力してください。`,
  presentCodeRequired: 'プレゼントコードを入力してください。',
  presentCodeFormat: `プレゼントコードは半角英数字${PRESENT_CODE_LENGTH.min}〜${PRESENT_CODE_LENGTH.max}文字で入力してください。`,
  birthFormat: '生年月日はYYYY-MM-DDの形式で入力してください。',
  birthInvalid: '生年月日が正しくありません。',
  sexRequired: '性別を選択してください。',
  passwordTooShort: `パスワードは${PASSWORD_MIN}文字以上で入力してください。`,
  passwordTooLong: `パスワードは${PASSWORD_MAX}文字以内で入力してください。`,
  passwordLettersAndDigits: 'パスワードには英字と数字を両方含めてください。',
  passwordRequired: 'パスワードを入力してください。',
  newPasswordSame: '新しいパスワードは現在のパスワードと別のものにしてください。',
  passwordMismatch: '確認用のパスワードが一致しません。',
  contactCategory: 'お問い合わせの種類を選んでください。',
  agreeRequired: '利用規約への同意が必要です。',
  deleteConfirmRequired: '退会の確認にチェックを入れてください。',
} as const;

/** Field names the account and support forms use in their messages. */
export const ACCOUNT_FORM_LABELS = {
  nickname: 'ニックネーム',
  email: 'メールアドレス',
  contactText: 'お問い合わせ内容',
  chatText: 'メッセージ',
} as const;
