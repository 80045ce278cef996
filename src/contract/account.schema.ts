import { z } from 'zod';
import { checkPhone, PREFECTURES, type AddressRecord, type Profile } from '../domain';
import { errorResponseSchema } from './envelope';
import { flag01Schema, idSchema, identitySchema } from './user-identity.schema';

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
} as const;

/** Most addresses one user may keep. */
export const MAX_ADDRESSES = 10;


// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A trimmed text of 1..max characters without control characters, with Japanese messages naming the field. */
export function textField(label: string, max: number, min = 1) {
  return z
    .string({ error: `${label}を文字列で入力してください。` })
    .trim()
    .min(min, `${label}を入力してください。`)
    .max(max, `${label}は${max}文字以内で入力してください。`)
    .refine((v) => !CONTROL_CHARS.test(v), `${label}に使用できない文字が含まれています。`);
}

/** Japanese phone number by the domain's checkPhone (10 or 11 digits, hyphens allowed); normalised to digits. */
export const telSchema = z
  .string({ error: '電話番号を文字列で入力してください。' })
  .max(30, '電話番号が長すぎます。')
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
  .string({ error: 'メールアドレスを文字列で入力してください。' })
  .trim()
  .toLowerCase()
  .max(254, 'メールアドレスは254文字以内で入力してください。')
  // eslint-disable-next-line no-control-regex -- control characters (NUL above all) are what the class refuses
  .regex(/^[^\s@"<>()[\]\\,;:\u0000-\u001f\u007f]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, 'メールアドレスの形式が正しくありません。');

/**
 * Preferred delivery time slots an address may carry as lead_times ('' = any time). The domain
 * (src/domain/address) leaves the values to the service; these are the slots Japanese carriers offer.
 */
export const LEAD_TIMES = ['', '午前中', '14時〜16時', '16時〜18時', '18時〜20時', '19時〜21時'] as const;

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

const rawText = (label: string) => z.string({ error: `${label}を文字列で入力してください。` }).max(300, `${label}が長すぎます。`);

/**
 * An address as the player enters it: strings of bounded size here; the field rules themselves
 * (required, lengths, prefecture, postal code, phone, e-mail) are the domain's validateAddressForm,
 * which the server runs too, so client and server refuse with the same Japanese message.
 */
export const addressInputSchema = z.object({
  is_main: flag01Schema.optional(),
  last_name: rawText('姓'),
  first_name: rawText('名'),
  zip: rawText('郵便番号'),
  address1: rawText('都道府県'),
  address2: rawText('市区町村'),
  address3: rawText('番地・建物名'),
  tel: rawText('電話番号'),
  email: z.union([rawText('メールアドレス'), z.null()]).optional(),
  lead_times: z.enum(LEAD_TIMES, { error: 'お届け希望時間帯の値が正しくありません。' }).optional(),
}, { error: '住所を入力してください。' });
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressListRequestSchema = identitySchema;
export const addressRegisterRequestSchema = identitySchema.extend({ address: addressInputSchema });
export const addressChangeRequestSchema = identitySchema.extend({ address: addressInputSchema.extend({ id: idSchema }) });
export const addressDeleteRequestSchema = identitySchema.extend({ address_delete: z.object({ id: idSchema }) });

export const addressListResponseSchema = errorResponseSchema.extend({ list: z.array(addressRecordSchema) });
export const addressResponseSchema = errorResponseSchema.extend({ address: addressRecordSchema, list: z.array(addressRecordSchema) });

// ---- profile and nickname -------------------------------------------------------------------

/** Profile sex as the domain's Profile has it: 0 not registered, 1 男性, 2 女性, 3 その他/回答しない. */
export const SEX_VALUES = [0, 1, 2, 3] as const;

/** A calendar date YYYY-MM-DD that exists (2023-02-30 is refused). */
export const birthSchema = z
  .string({ error: '生年月日を文字列で入力してください。' })
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, '生年月日はYYYY-MM-DDの形式で入力してください。')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '1900-01-01';
  }, '生年月日が正しくありません。');

export const profileSetRequestSchema = identitySchema.extend({
  profile: z.object({
    sex: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '性別を選択してください。' }).optional(),
    birth: birthSchema.optional(),
    prefectures: z.enum(PREFECTURES, { error: '都道府県を選択してください。' }).optional(),
  }),
});
export const profileGetRequestSchema = identitySchema;

export const nicknameSchema = textField('ニックネーム', 16);
export const nicknameSetRequestSchema = identitySchema.extend({ nickname: z.object({ nickname: nicknameSchema }) });

/** Profile (spec §3) plus nickname info. */
export const profileResponseSchema = errorResponseSchema.extend({
  profile: z.object({ sex: z.number().int(), birth: z.string(), prefectures: z.string(), created_at: z.string() }) satisfies z.ZodType<Profile>,
  nickname_info: z.object({ userId: z.number().int(), nickname: z.string(), isNicknameUnregistered: z.boolean() }),
});

// ---- phone check, present codes, invite -----------------------------------------------------

export const verificationCodeSchema = z.string({ error: '認証コードを入力してください。' }).trim().regex(/^[0-9]{6}$/, '認証コードは6桁の数字で入力してください。');

export const phoneSendCodeRequestSchema = identitySchema.extend({ phone: z.object({ tel: telSchema }) });
export const phoneVerifyRequestSchema = identitySchema.extend({ phone_verify: z.object({ code: verificationCodeSchema }) });
export const codeSentResponseSchema = errorResponseSchema.extend({ expires_at: z.string() });
export const phoneVerifiedResponseSchema = errorResponseSchema.extend({ tel: z.string(), tel_verified_at: z.string() });

export const presentCodeRequestSchema = identitySchema.extend({
  present_code: z.object({
    code: z.string({ error: 'プレゼントコードを入力してください。' }).trim().toUpperCase().regex(/^[A-Z0-9]{4,20}$/, 'プレゼントコードは半角英数字4〜20文字で入力してください。'),
  }),
});
export const presentCodeResponseSchema = errorResponseSchema.extend({
  present: z.object({ kind: z.enum(['tc_free', 'ticket']), amount: z.number().int().positive() }),
  tc: z.object({ tc_all: z.number().int(), tc_free: z.number().int(), tc_toll: z.number().int() }),
  ticket: z.object({ ticket_all: z.number().int() }),
});

export const inviteRequestSchema = identitySchema;
/** Invite info (spec §3) [R3-16]. */
export const inviteInfoSchema = z.object({ invite_ticket: z.number().int().nonnegative(), title: z.string(), url: z.string(), text: z.string() });
export const inviteResponseSchema = errorResponseSchema.extend({ invite_info: inviteInfoSchema });
