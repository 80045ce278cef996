import { ADDRESS_FIELD_LABELS, VALIDATION_MESSAGES } from '../messages';
import { characterCount } from '../text/number-format';
import { EMAIL_MAX_LENGTH, isAcceptableText, isEmailAddress } from '../text/text-policy.rule';
import type { AddressForm } from './address.entity';
import { isPrefecture } from './prefectures.messages';

/**
 * Input bounds of the address form. The spec shows none; these are what a Japanese shop shipping
 * by Yamato or Sagawa uses: a carrier label holds about 32 full-width characters per address line,
 * and 20 characters is ample for a family or given name (counted in characters, not bytes).
 */
export const ADDRESS_BOUNDS = {
  lastNameMax: 20,
  firstNameMax: 20,
  /** 市区町村 and 番地・建物名 lines. */
  addressLineMax: 32,
  /** RFC 5321's limit for a whole address. */
  emailMax: EMAIL_MAX_LENGTH,
  zipDigits: 7,
  telMinDigits: 10,
  telMaxDigits: 11,
} as const;

export type AddressField = keyof typeof ADDRESS_FIELD_LABELS;

/**
 * Full-width digits (０–９) become ASCII digits and the many dash look-alikes a Japanese IME types
 * (－ ー ‐ − – — ｰ) become '-'; surrounding spaces are dropped.
 */
export function normalizeDigitsAndHyphens(text: string): string {
  return text
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[－ー‐−–—ｰ]/g, '-');
}

/**
 * A Japanese postal code: 7 digits, or 3 digits, a hyphen and 4 digits; full-width input accepted.
 * Returns the 7 digits, or null when the text is not a postal code.
 */
export function normalizeZip(text: string): string | null {
  const v = normalizeDigitsAndHyphens(text);
  return /^\d{3}-?\d{4}$/.test(v) ? v.replace('-', '') : null;
}

/** '1234567' → '123-4567' (as Japanese addresses print it); other text unchanged. */
export function formatZip(zip: string): string {
  const digits = normalizeZip(zip);
  return digits === null ? zip : `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

export type FieldCheck =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

/**
 * A Japanese phone number, hyphens allowed between digit groups, full-width accepted. 10 digits:
 * a landline or free dial (0 then a non-zero digit: 03-1234-5678, 0120-123-456). 11 digits: a mobile
 * or IP phone (070/080/090/050/060 …, 0800 free dial). Returns the digits on success.
 */
export function checkPhone(text: string): FieldCheck {
  const v = normalizeDigitsAndHyphens(text);
  if (v === '') return { ok: false, message: VALIDATION_MESSAGES.required(ADDRESS_FIELD_LABELS.tel) };
  if (!/^\d+(-\d+){0,3}$/.test(v)) return { ok: false, message: VALIDATION_MESSAGES.telLength };
  const digits = v.replace(/-/g, '');
  if (digits.length < ADDRESS_BOUNDS.telMinDigits || digits.length > ADDRESS_BOUNDS.telMaxDigits) {
    return { ok: false, message: VALIDATION_MESSAGES.telLength };
  }
  const valid = digits.length === 10 ? /^0[1-9]\d{8}$/.test(digits) : /^0[5-9]0\d{8}$/.test(digits);
  return valid ? { ok: true, value: digits } : { ok: false, message: VALIDATION_MESSAGES.telFormat };
}

/** A postal code check with its message. */
export function checkZip(text: string): FieldCheck {
  if (text.trim() === '') return { ok: false, message: VALIDATION_MESSAGES.required(ADDRESS_FIELD_LABELS.zip) };
  const digits = normalizeZip(text);
  return digits === null ? { ok: false, message: VALIDATION_MESSAGES.zipFormat } : { ok: true, value: digits };
}

function checkText(field: AddressField, text: string, max: number): FieldCheck {
  const label = ADDRESS_FIELD_LABELS[field];
  const v = text.trim();
  if (v === '') return { ok: false, message: VALIDATION_MESSAGES.required(label) };
  // The shared text policy (text-policy.rule.ts): the same refusals as a nickname.
  if (!isAcceptableText(v)) return { ok: false, message: VALIDATION_MESSAGES.invalidCharacters(label) };
  if (characterCount(v) > max) return { ok: false, message: VALIDATION_MESSAGES.tooLong(label, max) };
  return { ok: true, value: v };
}

/** An optional e-mail: '' passes; otherwise the domain's one e-mail check (isEmailAddress). */
export function checkEmail(text: string): FieldCheck {
  const v = text.trim();
  if (v === '') return { ok: true, value: '' };
  if (characterCount(v) > ADDRESS_BOUNDS.emailMax)
    return { ok: false, message: VALIDATION_MESSAGES.tooLong(ADDRESS_FIELD_LABELS.email, ADDRESS_BOUNDS.emailMax) };
  return isEmailAddress(v) ? { ok: true, value: v } : { ok: false, message: VALIDATION_MESSAGES.emailFormat };
}

export interface AddressValidation {
  readonly valid: boolean;
  /** One message per invalid field. */
  readonly errors: Readonly<Partial<Record<AddressField, string>>>;
  /** The form with trimmed text, the zip as 7 digits and the phone as digits; meaningful when valid. */
  readonly normalized: AddressForm;
}

/**
 * Validates the address form: names and address lines required and within ADDRESS_BOUNDS,
 * address1 one of the 47 prefectures, a Japanese postal code and phone number, an optional e-mail.
 */
export function validateAddressForm(form: AddressForm): AddressValidation {
  const checks: Record<AddressField, FieldCheck> = {
    lastName: checkText('lastName', form.lastName, ADDRESS_BOUNDS.lastNameMax),
    firstName: checkText('firstName', form.firstName, ADDRESS_BOUNDS.firstNameMax),
    zip: checkZip(form.zip),
    address1: isPrefecture(form.address1.trim())
      ? { ok: true, value: form.address1.trim() }
      : { ok: false, message: VALIDATION_MESSAGES.prefecture },
    address2: checkText('address2', form.address2, ADDRESS_BOUNDS.addressLineMax),
    address3: checkText('address3', form.address3, ADDRESS_BOUNDS.addressLineMax),
    tel: checkPhone(form.tel),
    email: checkEmail(form.email),
  };
  const errors: Partial<Record<AddressField, string>> = {};
  const value = (field: AddressField): string => {
    const c = checks[field];
    if (c.ok) return c.value;
    errors[field] = c.message;
    return form[field];
  };
  const normalized: AddressForm = {
    ...form,
    lastName: value('lastName'),
    firstName: value('firstName'),
    zip: value('zip'),
    address1: value('address1'),
    address2: value('address2'),
    address3: value('address3'),
    tel: value('tel'),
    email: value('email'),
  };
  return { valid: Object.keys(errors).length === 0, errors, normalized };
}
