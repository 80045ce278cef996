import type { FieldCheck } from '../address/address-validation.rule';
import { VALIDATION_MESSAGES } from '../messages';
import { CHAT_TEXT_MAX, CONTACT_TEXT_MAX } from '../support/support.entity';
import { NICKNAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PRESENT_CODE_LENGTH, VERIFICATION_CODE_DIGITS } from '../constants';
import { characterCount } from '../text/number-format';
import { EMAIL_MAX_LENGTH, isAcceptableText, isEmailAddress } from '../text/text-policy.rule';
import { ACCOUNT_FORM_LABELS as L, ACCOUNT_FORM_MESSAGES as M } from './account-forms.messages';

/** A one-time code as the service checks it (after trimming). */
export const VERIFICATION_CODE_PATTERN = new RegExp(`^[0-9]{${VERIFICATION_CODE_DIGITS}}$`);
/** A present code as the service checks it (after trimming and upper-casing). */
export const PRESENT_CODE_PATTERN = new RegExp(`^[A-Z0-9]{${PRESENT_CODE_LENGTH.min},${PRESENT_CODE_LENGTH.max}}$`);

const ok = (value: string): FieldCheck => ({ ok: true, value });
const no = (message: string): FieldCheck => ({ ok: false, message });

/** A trimmed text of 1..max characters under the text policy (the contract's textField). */
export function checkText(label: string, text: string, max: number): FieldCheck {
  const v = text.trim();
  if (v === '') return no(VALIDATION_MESSAGES.required(label));
  if (characterCount(v) > max) return no(VALIDATION_MESSAGES.tooLong(label, max));
  if (!isAcceptableText(v)) return no(VALIDATION_MESSAGES.invalidCharacters(label));
  return ok(v);
}

export const checkNickname = (text: string): FieldCheck => checkText(L.nickname, text, NICKNAME_MAX);
export const checkContactText = (text: string): FieldCheck => checkText(L.contactText, text, CONTACT_TEXT_MAX);
export const checkChatText = (text: string): FieldCheck => checkText(L.chatText, text, CHAT_TEXT_MAX);

/** A required e-mail address, lower-cased (the service keys accounts by it). */
export function checkRequiredEmail(text: string): FieldCheck {
  const v = text.trim().toLowerCase();
  if (v === '') return no(VALIDATION_MESSAGES.required(L.email));
  if (characterCount(v) > EMAIL_MAX_LENGTH) return no(VALIDATION_MESSAGES.tooLong(L.email, EMAIL_MAX_LENGTH));
  return isEmailAddress(v) ? ok(v) : no(VALIDATION_MESSAGES.emailFormat);
}

/** A new password: PASSWORD_MIN..PASSWORD_MAX characters with letters and digits (the sign-up rule). */
export function checkNewPassword(text: string): FieldCheck {
  if (text.length < PASSWORD_MIN) return no(M.passwordTooShort);
  if (text.length > PASSWORD_MAX) return no(M.passwordTooLong);
  if (!/[A-Za-z]/.test(text) || !/[0-9]/.test(text)) return no(M.passwordLettersAndDigits);
  return ok(text);
}

/** A one-time code: VERIFICATION_CODE_DIGITS digits (full-width accepted). */
export function checkCode(text: string): FieldCheck {
  const v = text.trim().replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (v === '') return no(M.codeRequired);
  return VERIFICATION_CODE_PATTERN.test(v) ? ok(v) : no(M.codeFormat);
}

/** A present code: PRESENT_CODE_LENGTH letters and digits, upper-cased. */
export function checkPresentCode(text: string): FieldCheck {
  const v = text.trim().toUpperCase();
  if (v === '') return no(M.presentCodeRequired);
  return PRESENT_CODE_PATTERN.test(v) ? ok(v) : no(M.presentCodeFormat);
}

/**
 * A birth date 'YYYY-MM-DD': a real calendar day from 1900-01-01 up to `today` (the player's own
 * day in Tokyo, 'YYYY-MM-DD'); a date in the future is not a birth date.
 */
export function checkBirth(text: string, today: string): FieldCheck {
  const v = text.trim();
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v)) return no(M.birthFormat);
  const d = new Date(`${v}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v || v < '1900-01-01' || v > today)
    return no(M.birthInvalid);
  return ok(v);
}
