import { isCalendarDay, mapped } from './schema-helpers';
import { z } from 'zod/mini';
import {
  checkPhone,
  EMAIL_MAX_LENGTH,
  isAcceptableText,
  isEmailAddress,
  NICKNAME_MAX,
  PASSWORD_MAX,
  PREFECTURES,
  PRESENT_CODE_PATTERN,
  VERIFICATION_CODE_PATTERN,
  type AddressRecord,
  type Profile,
} from '../domain';
import { errorResponseSchema } from './envelope';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';
import { ADDRESS_INPUT_LABELS as L, CONTRACT_MESSAGES as M, LEAD_TIMES } from './messages';

/**
 * Account calls we designed (the spec says "not shown"): addresses, profile, nickname, phone check,
 * present codes, invite info. Input schemas carry the Japanese messages the player reads, so the
 * client form and the server refuse the same input with the same words. See docs/api/user.md.
 */
export const ACCOUNT_ENDPOINTS = {
  addressList: 'account/address/list',
  addressRegister: 'account/address/register',
  addressChange: 'account/address/change',
  addressDelete: 'account/address/delete',
  profileGet: 'account/profile/get',
  profileSet: 'account/profile/set',
  nicknameSet: 'account/nickname/set',
  phoneSendCode: 'account/phone/send_code',
  phoneVerify: 'account/phone/verify',
  presentCode: 'account/present_code',
  invite: 'account/invite',
  zipLookup: 'account/address/zip_lookup',
  deletePreview: 'account/delete/preview',
  delete: 'account/delete',
} as const;

/** Most addresses one user may keep. */
export const MAX_ADDRESSES = 10;

/**
 * A trimmed text of 1..max characters under the domain's text policy (no control, bidi, noncharacter
 * or invisible-only text), with Japanese messages naming the field.
 */
export function textField(label: string, max: number, min = 1) {
  return z
    .string({ error: M.notString(label) })
    .check(z.trim())
    .check(z.minLength(min, M.required(label)))
    .check(z.maxLength(max, M.tooLong(label, max)))
    .check(z.refine(isAcceptableText, M.invalidCharacters(label)));
}

/** Japanese phone number by the domain's checkPhone (10 or 11 digits, hyphens allowed); normalised to digits. */
export const telSchema = mapped(
  z.string({ error: M.notString(L.tel) }).check(z.maxLength(30, M.tooLongPlain(L.tel))),
  (v, ctx) => {
    const check = checkPhone(v);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return check.value;
  },
);

/** An e-mail address, trimmed and lower-cased, at most 254 characters. */
export const emailSchema = z
  .string({ error: M.notString(L.email) })
  .check(z.trim())
  .check(z.toLowerCase())
  .check(z.maxLength(EMAIL_MAX_LENGTH, M.emailTooLong))
  // The domain's one e-mail check, shared with the address e-mail.
  .check(z.refine(isEmailAddress, M.emailFormat));

export { LEAD_TIMES };

/** Address record (spec §3) [R3-3] as the server answers it; the domain's AddressRecord on the wire. */
export const addressRecordSchema = z.object({
  id: z.int().check(z.positive()),
  is_main: flag01Schema,
  first_name: z.string(),
  last_name: z.string(),
  zip: z.string(),
  address1: z.string(),
  address2: z.string(),
  address3: z.string(),
  tel: z.string(),
  email: z.string(),
  lead_times: z.string(),
}) satisfies z.ZodMiniType<AddressRecord>;

const rawText = (label: string) =>
  z.string({ error: M.notString(label) }).check(z.maxLength(300, M.tooLongPlain(label)));

/**
 * An address as the player enters it: strings of bounded size here; the field rules themselves
 * (required, lengths, prefecture, postal code, phone, e-mail) are the domain's validateAddressForm,
 * which the server runs too, so client and server refuse with the same Japanese message.
 */
export const addressInputSchema = z.object(
  {
    is_main: z.optional(flag01Schema),
    last_name: rawText(L.lastName),
    first_name: rawText(L.firstName),
    zip: rawText(L.zip),
    address1: rawText(L.address1),
    address2: rawText(L.address2),
    address3: rawText(L.address3),
    tel: rawText(L.tel),
    email: z.optional(z.union([rawText(L.email), z.null()])),
    lead_times: z.optional(z.enum(LEAD_TIMES, { error: M.leadTimes })),
  },
  { error: M.addressRequired },
);
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressListRequestSchema = identitySchema;
export const addressRegisterRequestSchema = z.extend(identitySchema, { address: addressInputSchema });
export const addressChangeRequestSchema = z.extend(identitySchema, {
  address: z.extend(addressInputSchema, { id: idSchema }),
});
export const addressDeleteRequestSchema = z.extend(identitySchema, { address_delete: z.object({ id: idSchema }) });

export const addressListResponseSchema = z.extend(errorResponseSchema, { list: z.array(addressRecordSchema) });

/** The postal-code lookup (Japan Post's table, bundled): the places one 7-digit code names. */
export const zipLookupRequestSchema = z.extend(identitySchema, {
  zip_lookup: z.object({ zip: z.string({ error: M.notString(L.zip) }).check(z.maxLength(20, M.tooLongPlain(L.zip))) }),
});
export const zipPlaceSchema = z.object({ prefecture: z.string(), city: z.string(), town: z.string() });
export const zipLookupResponseSchema = z.extend(errorResponseSchema, {
  zip: z.string(),
  places: z.array(zipPlaceSchema),
});
export const addressResponseSchema = z.extend(errorResponseSchema, {
  address: addressRecordSchema,
  list: z.array(addressRecordSchema),
});

// ---- profile and nickname -------------------------------------------------------------------

/** Profile sex as the domain's Profile has it: 0 not registered, 1 男性, 2 女性, 3 その他/回答しない. */
export const SEX_VALUES = [0, 1, 2, 3] as const;

/** A calendar date YYYY-MM-DD that exists (2023-02-30 is refused). */
export const birthSchema = z
  .string({ error: M.notString(L.birth) })
  .check(z.regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, M.birthFormat))
  .check(z.refine((v) => isCalendarDay(v) && v >= '1900-01-01', M.birthInvalid));

export const profileSetRequestSchema = z.extend(identitySchema, {
  profile: z.object({
    sex: z.optional(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: M.sexRequired })),
    birth: z.optional(birthSchema),
    prefectures: z.optional(z.enum(PREFECTURES, { error: M.prefecture })),
  }),
});
export const profileGetRequestSchema = identitySchema;

export const nicknameSchema = textField(L.nickname, NICKNAME_MAX);
export const nicknameSetRequestSchema = z.extend(identitySchema, { nickname: z.object({ nickname: nicknameSchema }) });

/** Profile (spec §3) plus nickname info. */
export const profileResponseSchema = z.extend(errorResponseSchema, {
  profile: z.object({
    sex: z.int(),
    birth: z.string(),
    prefectures: z.string(),
    created_at: z.string(),
  }) satisfies z.ZodMiniType<Profile>,
  nickname_info: z.object({ userId: z.int(), nickname: z.string(), isNicknameUnregistered: z.boolean() }),
});

// ---- phone check, present codes, invite -----------------------------------------------------

export const verificationCodeSchema = z
  .string({ error: M.codeRequired })
  .check(z.trim())
  .check(z.regex(VERIFICATION_CODE_PATTERN, M.codeFormat));

export const phoneSendCodeRequestSchema = z.extend(identitySchema, { phone: z.object({ tel: telSchema }) });
export const phoneVerifyRequestSchema = z.extend(identitySchema, {
  phone_verify: z.object({ code: verificationCodeSchema }),
});
export const codeSentResponseSchema = z.extend(errorResponseSchema, { expires_at: z.string() });
export const phoneVerifiedResponseSchema = z.extend(errorResponseSchema, {
  tel: z.string(),
  tel_verified_at: z.string(),
});

export const presentCodeRequestSchema = z.extend(identitySchema, {
  present_code: z.object({
    code: z
      .string({ error: M.presentCodeRequired })
      .check(z.trim())
      .check(z.toUpperCase())
      .check(z.regex(PRESENT_CODE_PATTERN, M.presentCodeFormat)),
  }),
});
export const presentCodeResponseSchema = z.extend(errorResponseSchema, {
  present: z.object({ kind: z.enum(['tc_free', 'ticket']), amount: z.int().check(z.positive()) }),
  tc: z.object({ tc_all: z.int(), tc_free: z.int(), tc_toll: z.int() }),
  ticket: z.object({ ticket_all: z.int() }),
});

export const inviteRequestSchema = identitySchema;
/** Invite info (spec §3) [R3-16]. */
export const inviteInfoSchema = z.object({
  invite_ticket: z.int().check(z.nonnegative()),
  title: z.string(),
  url: z.string(),
  text: z.string(),
});
export const inviteResponseSchema = z.extend(errorResponseSchema, { invite_info: inviteInfoSchema });

// ---- account deletion [R10-7] -------------------------------------------------------------------

export const accountDeletePreviewRequestSchema = identitySchema;
/** What deleting takes with it, shown before the player confirms. */
export const accountDeletePreviewResponseSchema = z.extend(errorResponseSchema, {
  preview: z.object({
    prizes_not_requested: z.int().check(z.gte(0)),
    deliveries_not_shipped: z.int().check(z.gte(0)),
    tc_paid: z.int().check(z.gte(0)),
    tc_free: z.int().check(z.gte(0)),
    /** 1 when the account has a password, which the deletion then asks for. */
    has_password: flag01Schema,
    /** The videos of the player's plays that go with the account (absent from older servers). */
    clips: z.optional(z.int().check(z.gte(0))),
  }),
});
/**
 * Deletes the account: every token revoked; e-mail, phone, profile, nickname, addresses and the
 * password erased; unshipped deliveries cancelled; ledger and play logs kept without personal data.
 */
export const accountDeleteRequestSchema = z.extend(identitySchema, {
  account_delete: z.object({
    confirm: z.literal(1, { error: M.deleteConfirmRequired }),
    /** Required when the account has a password. */
    password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX, M.passwordTooLong))),
  }),
});
export const accountDeleteResponseSchema = errorResponseSchema;
