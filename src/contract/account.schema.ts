import { z } from 'zod';
import {
  checkPhone,
  EMAIL_MAX_LENGTH,
  isAcceptableText,
  isEmailAddress,
  NICKNAME_MAX,
  PREFECTURES,
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
    .trim()
    .min(min, M.required(label))
    .max(max, M.tooLong(label, max))
    .refine(isAcceptableText, M.invalidCharacters(label));
}

/** Japanese phone number by the domain's checkPhone (10 or 11 digits, hyphens allowed); normalised to digits. */
export const telSchema = z
  .string({ error: M.notString(L.tel) })
  .max(30, M.tooLongPlain(L.tel))
  .transform((v, ctx) => {
    const check = checkPhone(v);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return check.value;
  });

/** An e-mail address, trimmed and lower-cased, at most 254 characters. */
export const emailSchema = z
  .string({ error: M.notString(L.email) })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, M.emailTooLong)
  // The domain's one e-mail check, shared with the address e-mail.
  .refine(isEmailAddress, M.emailFormat);

export { LEAD_TIMES };

/** Address record (spec §3) [R3-3] as the server answers it; the domain's AddressRecord on the wire. */
export const addressRecordSchema = z.object({
  id: z.number().int().positive(),
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
}) satisfies z.ZodType<AddressRecord>;

const rawText = (label: string) => z.string({ error: M.notString(label) }).max(300, M.tooLongPlain(label));

/**
 * An address as the player enters it: strings of bounded size here; the field rules themselves
 * (required, lengths, prefecture, postal code, phone, e-mail) are the domain's validateAddressForm,
 * which the server runs too, so client and server refuse with the same Japanese message.
 */
export const addressInputSchema = z.object(
  {
    is_main: flag01Schema.optional(),
    last_name: rawText(L.lastName),
    first_name: rawText(L.firstName),
    zip: rawText(L.zip),
    address1: rawText(L.address1),
    address2: rawText(L.address2),
    address3: rawText(L.address3),
    tel: rawText(L.tel),
    email: z.union([rawText(L.email), z.null()]).optional(),
    lead_times: z.enum(LEAD_TIMES, { error: M.leadTimes }).optional(),
  },
  { error: M.addressRequired },
);
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressListRequestSchema = identitySchema;
export const addressRegisterRequestSchema = identitySchema.extend({ address: addressInputSchema });
export const addressChangeRequestSchema = identitySchema.extend({
  address: addressInputSchema.extend({ id: idSchema }),
});
export const addressDeleteRequestSchema = identitySchema.extend({ address_delete: z.object({ id: idSchema }) });

export const addressListResponseSchema = errorResponseSchema.extend({ list: z.array(addressRecordSchema) });

/** The postal-code lookup (Japan Post's table, bundled): the places one 7-digit code names. */
export const zipLookupRequestSchema = identitySchema.extend({
  zip_lookup: z.object({ zip: z.string({ error: M.notString(L.zip) }).max(20, M.tooLongPlain(L.zip)) }),
});
export const zipPlaceSchema = z.object({ prefecture: z.string(), city: z.string(), town: z.string() });
export const zipLookupResponseSchema = errorResponseSchema.extend({ zip: z.string(), places: z.array(zipPlaceSchema) });
export const addressResponseSchema = errorResponseSchema.extend({
  address: addressRecordSchema,
  list: z.array(addressRecordSchema),
});

// ---- profile and nickname -------------------------------------------------------------------

/** Profile sex as the domain's Profile has it: 0 not registered, 1 男性, 2 女性, 3 その他/回答しない. */
export const SEX_VALUES = [0, 1, 2, 3] as const;

/** A calendar date YYYY-MM-DD that exists (2023-02-30 is refused). */
export const birthSchema = z
  .string({ error: M.notString(L.birth) })
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, M.birthFormat)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '1900-01-01';
  }, M.birthInvalid);

export const profileSetRequestSchema = identitySchema.extend({
  profile: z.object({
    sex: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: M.sexRequired }).optional(),
    birth: birthSchema.optional(),
    prefectures: z.enum(PREFECTURES, { error: M.prefecture }).optional(),
  }),
});
export const profileGetRequestSchema = identitySchema;

export const nicknameSchema = textField(L.nickname, NICKNAME_MAX);
export const nicknameSetRequestSchema = identitySchema.extend({ nickname: z.object({ nickname: nicknameSchema }) });

/** Profile (spec §3) plus nickname info. */
export const profileResponseSchema = errorResponseSchema.extend({
  profile: z.object({
    sex: z.number().int(),
    birth: z.string(),
    prefectures: z.string(),
    created_at: z.string(),
  }) satisfies z.ZodType<Profile>,
  nickname_info: z.object({ userId: z.number().int(), nickname: z.string(), isNicknameUnregistered: z.boolean() }),
});

// ---- phone check, present codes, invite -----------------------------------------------------

export const verificationCodeSchema = z
  .string({ error: M.codeRequired })
  .trim()
  .regex(/^[0-9]{6}$/, M.codeFormat);

export const phoneSendCodeRequestSchema = identitySchema.extend({ phone: z.object({ tel: telSchema }) });
export const phoneVerifyRequestSchema = identitySchema.extend({
  phone_verify: z.object({ code: verificationCodeSchema }),
});
export const codeSentResponseSchema = errorResponseSchema.extend({ expires_at: z.string() });
export const phoneVerifiedResponseSchema = errorResponseSchema.extend({ tel: z.string(), tel_verified_at: z.string() });

export const presentCodeRequestSchema = identitySchema.extend({
  present_code: z.object({
    code: z
      .string({ error: M.presentCodeRequired })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{4,20}$/, M.presentCodeFormat),
  }),
});
export const presentCodeResponseSchema = errorResponseSchema.extend({
  present: z.object({ kind: z.enum(['tc_free', 'ticket']), amount: z.number().int().positive() }),
  tc: z.object({ tc_all: z.number().int(), tc_free: z.number().int(), tc_toll: z.number().int() }),
  ticket: z.object({ ticket_all: z.number().int() }),
});

export const inviteRequestSchema = identitySchema;
/** Invite info (spec §3) [R3-16]. */
export const inviteInfoSchema = z.object({
  invite_ticket: z.number().int().nonnegative(),
  title: z.string(),
  url: z.string(),
  text: z.string(),
});
export const inviteResponseSchema = errorResponseSchema.extend({ invite_info: inviteInfoSchema });

// ---- account deletion [R10-7] -------------------------------------------------------------------

export const accountDeletePreviewRequestSchema = identitySchema;
/** What deleting takes with it, shown before the player confirms. */
export const accountDeletePreviewResponseSchema = errorResponseSchema.extend({
  preview: z.object({
    prizes_not_requested: z.number().int().min(0),
    deliveries_not_shipped: z.number().int().min(0),
    tc_paid: z.number().int().min(0),
    tc_free: z.number().int().min(0),
    /** 1 when the account has a password, which the deletion then asks for. */
    has_password: flag01Schema,
  }),
});
/**
 * Deletes the account: every token revoked; e-mail, phone, profile, nickname, addresses and the
 * password erased; unshipped deliveries cancelled; ledger and play logs kept without personal data.
 */
export const accountDeleteRequestSchema = identitySchema.extend({
  account_delete: z.object({
    confirm: z.literal(1, { error: M.deleteConfirmRequired }),
    /** Required when the account has a password. */
    password: z.string().max(128, M.passwordTooLong).optional(),
  }),
});
export const accountDeleteResponseSchema = errorResponseSchema;
