import { z } from 'zod';
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

/** Japanese names of input fields, for error_info texts that name the field. */
export const FIELD_LABELS_JA: Readonly<Record<string, string>> = {
  user_id: 'ユーザーID', access_token: 'アクセストークン', id: 'ID', is_main: 'メイン住所',
  first_name: '名', last_name: '姓', zip: '郵便番号', address1: '都道府県', address2: '市区町村・番地', address3: '建物名・部屋番号',
  tel: '電話番号', email: 'メールアドレス', password: 'パスワード', code: '認証コード', nickname: 'ニックネーム',
  sex: '性別', birth: '生年月日', prefectures: '都道府県', play_history_id: '獲得履歴ID', product_id: '商品', pay_method: '支払い方法',
  request_id: 'リクエストID', character: 'キャラクター非表示設定', volume: '音量設定', additional_key: '設定項目', additional_value: '設定値',
  agree_contract: '利用規約への同意', type: '種類', product_settlement_id: '決済ID', name: '名前',
};

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

/** Japanese postal code: 7 digits, with or without the hyphen; normalised to 123-4567. */
export const zipSchema = z
  .string({ error: '郵便番号を文字列で入力してください。' })
  .trim()
  .regex(/^[0-9]{3}-?[0-9]{4}$/, '郵便番号は7桁の数字で入力してください（例: 123-4567）。')
  .transform((v) => { const d = v.replace('-', ''); return `${d.slice(0, 3)}-${d.slice(3)}`; });

/** Japanese phone number: 10 or 11 digits starting with 0, hyphens allowed; normalised to digits. */
export const telSchema = z
  .string({ error: '電話番号を文字列で入力してください。' })
  .trim()
  .max(20, '電話番号は10桁または11桁の数字で入力してください。')
  .refine((v) => /^[0-9-]+$/.test(v) && /^0[0-9]{9,10}$/.test(v.replace(/-/g, '')), '電話番号は0から始まる10桁または11桁の数字で入力してください。')
  .transform((v) => v.replace(/-/g, ''));

/** An e-mail address, trimmed and lower-cased, at most 254 characters. */
export const emailSchema = z
  .string({ error: 'メールアドレスを文字列で入力してください。' })
  .trim()
  .toLowerCase()
  .max(254, 'メールアドレスは254文字以内で入力してください。')
  .regex(/^[^\s@"<>()[\]\\,;:]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, 'メールアドレスの形式が正しくありません。');

/** Address record (spec §3) [R3-3] as the server answers it. lead_times: estimated delivery days. */
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
  email: z.string().nullable(),
  lead_times: z.number().int().positive(),
});
export type AddressRecord = z.infer<typeof addressRecordSchema>;

/** The client-side address form's spelling (spec §3: isMain, firstName, lastName, leadTimes). */
export interface AddressForm {
  readonly id: number;
  readonly isMain: boolean;
  readonly firstName: string;
  readonly lastName: string;
  readonly zip: string;
  readonly address1: string;
  readonly address2: string;
  readonly address3: string;
  readonly tel: string;
  readonly email: string | null;
  readonly leadTimes: number;
}

/** Wire record → form [R3-3]. */
export function addressFormFromRecord(r: AddressRecord): AddressForm {
  return {
    id: r.id, isMain: r.is_main === 1, firstName: r.first_name, lastName: r.last_name, zip: r.zip,
    address1: r.address1, address2: r.address2, address3: r.address3, tel: r.tel, email: r.email, leadTimes: r.lead_times,
  };
}

/** Form → the wire input of register/change (lead_times is the server's to compute) [R3-3]. */
export function addressInputFromForm(f: Omit<AddressForm, 'id' | 'leadTimes'>): AddressInput {
  return {
    is_main: f.isMain ? 1 : 0, first_name: f.firstName, last_name: f.lastName, zip: f.zip,
    address1: f.address1, address2: f.address2, address3: f.address3, tel: f.tel, email: f.email,
  };
}

/** An address as the player enters it. */
export const addressInputSchema = z.object({
  is_main: flag01Schema.optional(),
  last_name: textField('姓', 30),
  first_name: textField('名', 30),
  zip: zipSchema,
  address1: textField('都道府県', 100),
  address2: textField('市区町村・番地', 100),
  address3: textField('建物名・部屋番号', 100),
  tel: telSchema,
  email: z.union([emailSchema, z.literal(''), z.null()]).optional().transform((v) => (v ? v : null)),
}, { error: '住所を入力してください。' });
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressListRequestSchema = identitySchema;
export const addressRegisterRequestSchema = identitySchema.extend({ address: addressInputSchema });
export const addressChangeRequestSchema = identitySchema.extend({ address: addressInputSchema.extend({ id: idSchema }) });
export const addressDeleteRequestSchema = identitySchema.extend({ address_delete: z.object({ id: idSchema }) });

export const addressListResponseSchema = errorResponseSchema.extend({ list: z.array(addressRecordSchema) });
export const addressResponseSchema = errorResponseSchema.extend({ address: addressRecordSchema, list: z.array(addressRecordSchema) });

// ---- profile and nickname -------------------------------------------------------------------

/** 0 unanswered, 1 male, 2 female, 9 other / prefer not to say. */
export const SEX_VALUES = [0, 1, 2, 9] as const;

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
    sex: z.union(SEX_VALUES.map((v) => z.literal(v)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<9>], { error: '性別の値が正しくありません。' }).optional(),
    birth: birthSchema.optional(),
    prefectures: z.number({ error: '都道府県を選択してください。' }).int('都道府県を選択してください。').min(1, '都道府県を選択してください。').max(47, '都道府県を選択してください。').optional(),
  }),
});
export const profileGetRequestSchema = identitySchema;

export const nicknameSchema = textField('ニックネーム', 16);
export const nicknameSetRequestSchema = identitySchema.extend({ nickname: z.object({ nickname: nicknameSchema }) });

/** Profile (spec §3) plus nickname info. */
export const profileResponseSchema = errorResponseSchema.extend({
  profile: z.object({ sex: z.number().int(), birth: z.string().nullable(), prefectures: z.number().int().nullable(), created_at: z.string() }),
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
