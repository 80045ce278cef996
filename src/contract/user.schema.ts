import { z } from 'zod/mini';
import {
  PRIZE_DELIVERY_STATUSES,
  PRIZE_TYPES,
  RESERVE_STATUSES,
  type AddressResponse,
  type AuthInfo,
  type CraneItem,
  type DailyFreePlayInfo,
  type FreeTcExpiring,
  type LoginInfo,
  type NicknameInfo,
  type Profile,
  type UnreadFlags,
  type UserData,
} from '../domain';
import { errorResponseSchema } from './envelope';
import { addressRecordSchema } from './account.schema';
import { coercedFlagSchema, flag01Schema, idSchema, identitySchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/** The whitelisted keys of POST /user/user_additional (login info additional_list). */
export const ADDITIONAL_KEYS = ['tutorial_top', 'tutorial_play'] as const;
export type AdditionalKey = (typeof ADDITIONAL_KEYS)[number];

/** Kinds of unread flags (spec §3 user data). */
export const UNREAD_KINDS = [
  'news',
  'prize',
  'kuji',
  'order_made_prize',
  'digital',
  'direct',
  'message',
] as const satisfies readonly (keyof UnreadFlags)[];
export type UnreadKind = (typeof UNREAD_KINDS)[number];

// ---- request bodies of the §7 /user/* calls -------------------------------------------------

export const setHideCharacterRequestSchema = z.extend(identitySchema, {
  set_hide_character: z.object({ character: coercedFlagSchema }),
});
export const setVolumeRequestSchema = z.extend(identitySchema, {
  set_volume: z.object({ volume: coercedFlagSchema }),
});
export const getAddressRequestSchema = z.extend(identitySchema, { get_address: z.optional(z.object({})) });
export const getEmailRequestSchema = identitySchema;
export const getDeliveryRequestSchema = z.extend(identitySchema, {
  get_delivery: z.object({ play_history_id: idSchema }),
});
export const itemRequestSchema = identitySchema;
export const tcRequestSchema = identitySchema;
export const ticketRequestSchema = identitySchema;
/** read_info.type names one kind to mark read; without it every unread flag is cleared. */
export const readInfoRequestSchema = z.extend(identitySchema, {
  read_info: z.optional(z.object({ type: z.optional(z.enum(UNREAD_KINDS)) })),
});
export const agreeRequestSchema = z.extend(identitySchema, {
  agree_contract: z.literal(1, { error: M.agreeRequired }),
});
export const userAdditionalRequestSchema = z.extend(identitySchema, {
  additional_key: z.enum(ADDITIONAL_KEYS, { error: M.unknownSetting }),
  additional_value: coercedFlagSchema,
});
export const movieDeleteTokenRequestSchema = z.extend(identitySchema, { read_info: z.optional(z.object({})) });

// ---- answers ---------------------------------------------------------------------------------

/** An answer that carries nothing beyond error_code and error_info. */
export const plainResponseSchema = errorResponseSchema;

export const setHideCharacterResponseSchema = z.extend(errorResponseSchema, {
  set_hide_character: z.object({ character: flag01Schema }),
});
export const setVolumeResponseSchema = z.extend(errorResponseSchema, {
  set_volume: z.object({ volume: flag01Schema }),
});

/** Address response data (spec §3) [R3-4]: the main address flattened, plus every address. */
export const addressResponseDataSchema = z.extend(
  z.pick(addressRecordSchema, {
    first_name: true,
    last_name: true,
    zip: true,
    address1: true,
    address2: true,
    address3: true,
    tel: true,
    email: true,
  }),
  {
    address_bool: z.boolean(),
    /** 'YYYY-MM-DD', or '' when not registered. */
    birth: z.string(),
    all_address: z.object({
      /** id of the main address, or 0 when the user has none. */
      id: z.int().check(z.nonnegative()),
      birth: z.string(),
      email: z.string(),
      list: z.array(addressRecordSchema),
    }),
  },
) satisfies z.ZodMiniType<AddressResponse>;
export type AddressResponseData = z.infer<typeof addressResponseDataSchema>;
export const getAddressResponseSchema = z.extend(errorResponseSchema, { data: addressResponseDataSchema });

/** email is '' when none is registered (the domain's UserData.email). */
export const getEmailResponseSchema = z.extend(errorResponseSchema, {
  email: z.string(),
  email_verified: flag01Schema,
});

/**
 * A won prize's state: the domain's PRIZE_DELIVERY_STATUSES (grouped before / after / invalid,
 * R4.5-1): 'not_requested', its latest request's status, or 'expired' [R10-5].
 */
export type { PrizeDeliveryStatus } from '../domain';
export const WON_PRIZE_KINDS = ['crane', 'kuji', 'order_made', 'virtual'] as const;

/** One won prize as the item list and the delivery answers show it. */
export const wonPrizeSchema = z.object({
  play_history_id: z.int().check(z.positive()),
  station_id: z.nullable(z.int()),
  prize_kind: z.enum(WON_PRIZE_KINDS),
  product_name: z.string(),
  kuji_name: z.nullable(z.string()),
  prize_count: z.int().check(z.positive()),
  add_delivery_days: z.int().check(z.nonnegative()),
  is_reservation_delivery: flag01Schema,
  won_at: z.string(),
  delivery_status: z.enum(PRIZE_DELIVERY_STATUSES),
  prize_type: z.enum(PRIZE_TYPES),
  img_url: z.string(),
  digital_url: z.string(),
  keep_until: z.nullable(z.string()),
  delivery_id: z.nullable(z.int().check(z.positive())),
  prize_contact_number: z.string(),
});
export type WonPrize = z.infer<typeof wonPrizeSchema>;

export const deliveryAddressDataSchema = z.object({
  play_history_id: z.int().check(z.positive()),
  delivery_status: z.enum(PRIZE_DELIVERY_STATUSES),
  /** The address the prize ships to: the request's copy once requested, else the main address. */
  address: z.nullable(
    z.object({
      first_name: z.string(),
      last_name: z.string(),
      zip: z.string(),
      address1: z.string(),
      address2: z.string(),
      address3: z.string(),
      tel: z.string(),
      email: z.nullable(z.string()),
    }),
  ),
  prize: wonPrizeSchema,
  /** Unsent prize fields [R3-15]: prize_shipmented_at is '-' until shipped. */
  prize_contact_number: z.string(),
  prize_shipmented_at: z.string(),
});
export const getDeliveryResponseSchema = z.extend(errorResponseSchema, {
  get_delivery_address: z.object({ data: deliveryAddressDataSchema }),
});

export const itemInfoResponseSchema = z.extend(errorResponseSchema, {
  item_info: z.object({ list: z.array(wonPrizeSchema), count: z.int().check(z.nonnegative()) }),
});

/** TC info (spec §3) [R1-2]: tc_all is always tc_free + tc_toll. */
export const tcInfoSchema = z
  .object({
    tc_all: z.int().check(z.nonnegative()),
    tc_free: z.int().check(z.nonnegative()),
    tc_toll: z.int().check(z.nonnegative()),
  })
  .check(z.refine((tc) => tc.tc_all === tc.tc_free + tc.tc_toll, { error: 'tc_all must equal tc_free + tc_toll' }));
export type TcInfo = z.infer<typeof tcInfoSchema>;
/** Today's free play [R11-8]. */
export const dailyFreePlaySchema = z.object({
  available: flag01Schema,
  day: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  expires_at: z.string().check(z.maxLength(40)),
}) satisfies z.ZodMiniType<DailyFreePlayInfo>;
/** The free TC that ends next [R11-7]. */
export const freeTcExpiringSchema = z.object({
  amount: z.int().check(z.positive()),
  expires_at: z.string().check(z.maxLength(40)),
}) satisfies z.ZodMiniType<FreeTcExpiring>;
export const tcResponseSchema = z.extend(errorResponseSchema, { data: tcInfoSchema });

export const ticketInfoSchema = z.object({ ticket_all: z.int().check(z.nonnegative()) });
export const ticketResponseSchema = z.extend(errorResponseSchema, { data: ticketInfoSchema });

export const unreadFlagsSchema = z.object(
  Object.fromEntries(UNREAD_KINDS.map((k) => [k, flag01Schema])) as Record<UnreadKind, typeof flag01Schema>,
);
export const readInfoResponseSchema = z.extend(errorResponseSchema, { unread: unreadFlagsSchema });
export const agreeResponseSchema = z.extend(errorResponseSchema, { agree_contract: z.literal(1) });
export const userAdditionalResponseSchema = z.extend(errorResponseSchema, {
  additional_list: z.object({ tutorial_top: flag01Schema, tutorial_play: flag01Schema }),
});
export const movieDeleteTokenResponseSchema = z.extend(errorResponseSchema, {
  revoked: z.int().check(z.nonnegative()),
});

// ---- POST /user/user_data (designed: docs/api/user.md) ---------------------------------------

/** Path of the designed user-data call, relative to the API base. */
export const USER_DATA_ENDPOINT = 'user/user_data';

/**
 * The user data call takes the identity and nothing else: any other field is refused (400) rather
 * than ignored, so a client that sends a filter or a paging field learns it is not supported.
 */
export const userDataRequestSchema = z.strictObject(identitySchema.shape);

/** Login info (spec §3 user data) [R3-6]: the VIP logo reads vip_level [R2.6-4, R6-2]. */
export const loginInfoSchema = z.object({
  sound: flag01Schema,
  hide_character: flag01Schema,
  vip_level: z.int().check(z.nonnegative()),
  status: z.int(),
  is_sms: flag01Schema,
  notice_get: flag01Schema,
  /** The station the user is reserving or playing now, or nulls. */
  play_info: z.object({
    station_id: z.nullable(z.int().check(z.positive())),
    reserve_status: z.nullable(z.enum(RESERVE_STATUSES)),
  }),
  additional_list: z.object({ tutorial_top: flag01Schema, tutorial_play: flag01Schema }),
  modal_list: z.array(z.string()),
}) satisfies z.ZodMiniType<LoginInfo>;

/** One kind of crane item (power-up) the user holds; only kinds with a count above 0 are listed. */
export const craneItemSchema = z.object({
  item_id: z.int().check(z.positive()),
  name: z.string().check(z.minLength(1)),
  count: z.int().check(z.positive()),
}) satisfies z.ZodMiniType<CraneItem>;

/** The auth info as the server answers it: the access token never travels back (the client has it). */
export const authInfoAnswerSchema = z.object({
  user_id: z.int().check(z.positive()),
  agree_contract: flag01Schema,
}) satisfies z.ZodMiniType<Omit<AuthInfo, 'access_token'>>;

/** The domain's UserData without the access token, as POST /user/user_data answers it. */
export type UserDataAnswer = Omit<UserData, 'auth_info'> & { readonly auth_info: Omit<AuthInfo, 'access_token'> };

/** User data (spec §3) [R3-6] minus the access token. */
export const userDataSchema = z
  .object({
    auth_info: authInfoAnswerSchema,
    login_info: loginInfoSchema,
    nickname_info: z.object({
      userId: z.int().check(z.positive()),
      nickname: z.string(),
      isNicknameUnregistered: z.boolean(),
    }) satisfies z.ZodMiniType<NicknameInfo>,
    profile: z.object({
      sex: z.int(),
      birth: z.string(),
      prefectures: z.string(),
      created_at: z.string(),
    }) satisfies z.ZodMiniType<Profile>,
    tc_info: tcInfoSchema,
    tc_free_expiring: z.optional(z.nullable(freeTcExpiringSchema)),
    daily_free_play: z.optional(dailyFreePlaySchema),
    ticket_info: ticketInfoSchema,
    crane_items: z.array(craneItemSchema),
    unread: unreadFlagsSchema,
    /** The current e-mail address; '' when none is registered. */
    email: z.string(),
  })
  .check(
    z.refine((d) => d.nickname_info.userId === d.auth_info.user_id, {
      error: 'nickname_info.userId must equal auth_info.user_id',
    }),
  ) satisfies z.ZodMiniType<UserDataAnswer>;

export const userDataResponseSchema = z.extend(errorResponseSchema, { user_data: userDataSchema });
