import { z } from 'zod';
import {
  PRIZE_DELIVERY_STATUSES,
  PRIZE_TYPES,
  RESERVE_STATUSES,
  type AddressResponse,
  type AuthInfo,
  type CraneItem,
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

export const setHideCharacterRequestSchema = identitySchema.extend({
  set_hide_character: z.object({ character: coercedFlagSchema }),
});
export const setVolumeRequestSchema = identitySchema.extend({
  set_volume: z.object({ volume: coercedFlagSchema }),
});
export const getAddressRequestSchema = identitySchema.extend({ get_address: z.object({}).optional() });
export const getEmailRequestSchema = identitySchema;
export const getDeliveryRequestSchema = identitySchema.extend({
  get_delivery: z.object({ play_history_id: idSchema }),
});
export const itemRequestSchema = identitySchema;
export const tcRequestSchema = identitySchema;
export const ticketRequestSchema = identitySchema;
/** read_info.type names one kind to mark read; without it every unread flag is cleared. */
export const readInfoRequestSchema = identitySchema.extend({
  read_info: z.object({ type: z.enum(UNREAD_KINDS).optional() }).optional(),
});
export const agreeRequestSchema = identitySchema.extend({ agree_contract: z.literal(1, { error: M.agreeRequired }) });
export const userAdditionalRequestSchema = identitySchema.extend({
  additional_key: z.enum(ADDITIONAL_KEYS, { error: M.unknownSetting }),
  additional_value: coercedFlagSchema,
});
export const movieDeleteTokenRequestSchema = identitySchema.extend({ read_info: z.object({}).optional() });

// ---- answers ---------------------------------------------------------------------------------

/** An answer that carries nothing beyond error_code and error_info. */
export const plainResponseSchema = errorResponseSchema;

export const setHideCharacterResponseSchema = errorResponseSchema.extend({
  set_hide_character: z.object({ character: flag01Schema }),
});
export const setVolumeResponseSchema = errorResponseSchema.extend({ set_volume: z.object({ volume: flag01Schema }) });

/** Address response data (spec §3) [R3-4]: the main address flattened, plus every address. */
export const addressResponseDataSchema = addressRecordSchema
  .pick({
    first_name: true,
    last_name: true,
    zip: true,
    address1: true,
    address2: true,
    address3: true,
    tel: true,
    email: true,
  })
  .extend({
    address_bool: z.boolean(),
    /** 'YYYY-MM-DD', or '' when not registered. */
    birth: z.string(),
    all_address: z.object({
      /** id of the main address, or 0 when the user has none. */
      id: z.number().int().nonnegative(),
      birth: z.string(),
      email: z.string(),
      list: z.array(addressRecordSchema),
    }),
  }) satisfies z.ZodType<AddressResponse>;
export type AddressResponseData = z.infer<typeof addressResponseDataSchema>;
export const getAddressResponseSchema = errorResponseSchema.extend({ data: addressResponseDataSchema });

/** email is '' when none is registered (the domain's UserData.email). */
export const getEmailResponseSchema = errorResponseSchema.extend({ email: z.string(), email_verified: flag01Schema });

/**
 * A won prize's state: the domain's PRIZE_DELIVERY_STATUSES (grouped before / after / invalid,
 * R4.5-1): 'not_requested', its latest request's status, or 'expired' [R10-5].
 */
export type { PrizeDeliveryStatus } from '../domain';
export const WON_PRIZE_KINDS = ['crane', 'kuji', 'order_made', 'virtual'] as const;

/** One won prize as the item list and the delivery answers show it. */
export const wonPrizeSchema = z.object({
  play_history_id: z.number().int().positive(),
  station_id: z.number().int().nullable(),
  prize_kind: z.enum(WON_PRIZE_KINDS),
  product_name: z.string(),
  kuji_name: z.string().nullable(),
  prize_count: z.number().int().positive(),
  add_delivery_days: z.number().int().nonnegative(),
  is_reservation_delivery: flag01Schema,
  won_at: z.string(),
  delivery_status: z.enum(PRIZE_DELIVERY_STATUSES),
  prize_type: z.enum(PRIZE_TYPES),
  img_url: z.string(),
  digital_url: z.string(),
  keep_until: z.string().nullable(),
  delivery_id: z.number().int().positive().nullable(),
  prize_contact_number: z.string(),
});
export type WonPrize = z.infer<typeof wonPrizeSchema>;

export const deliveryAddressDataSchema = z.object({
  play_history_id: z.number().int().positive(),
  delivery_status: z.enum(PRIZE_DELIVERY_STATUSES),
  /** The address the prize ships to: the request's copy once requested, else the main address. */
  address: z
    .object({
      first_name: z.string(),
      last_name: z.string(),
      zip: z.string(),
      address1: z.string(),
      address2: z.string(),
      address3: z.string(),
      tel: z.string(),
      email: z.string().nullable(),
    })
    .nullable(),
  prize: wonPrizeSchema,
  /** Unsent prize fields [R3-15]: prize_shipmented_at is '-' until shipped. */
  prize_contact_number: z.string(),
  prize_shipmented_at: z.string(),
});
export const getDeliveryResponseSchema = errorResponseSchema.extend({
  get_delivery_address: z.object({ data: deliveryAddressDataSchema }),
});

export const itemInfoResponseSchema = errorResponseSchema.extend({
  item_info: z.object({ list: z.array(wonPrizeSchema), count: z.number().int().nonnegative() }),
});

/** TC info (spec §3) [R1-2]: tc_all is always tc_free + tc_toll. */
export const tcInfoSchema = z
  .object({
    tc_all: z.number().int().nonnegative(),
    tc_free: z.number().int().nonnegative(),
    tc_toll: z.number().int().nonnegative(),
  })
  .refine((tc) => tc.tc_all === tc.tc_free + tc.tc_toll, { error: 'tc_all must equal tc_free + tc_toll' });
export type TcInfo = z.infer<typeof tcInfoSchema>;
export const tcResponseSchema = errorResponseSchema.extend({ data: tcInfoSchema });

export const ticketInfoSchema = z.object({ ticket_all: z.number().int().nonnegative() });
export const ticketResponseSchema = errorResponseSchema.extend({ data: ticketInfoSchema });

export const unreadFlagsSchema = z.object(
  Object.fromEntries(UNREAD_KINDS.map((k) => [k, flag01Schema])) as Record<UnreadKind, typeof flag01Schema>,
);
export const readInfoResponseSchema = errorResponseSchema.extend({ unread: unreadFlagsSchema });
export const agreeResponseSchema = errorResponseSchema.extend({ agree_contract: z.literal(1) });
export const userAdditionalResponseSchema = errorResponseSchema.extend({
  additional_list: z.object({ tutorial_top: flag01Schema, tutorial_play: flag01Schema }),
});
export const movieDeleteTokenResponseSchema = errorResponseSchema.extend({ revoked: z.number().int().nonnegative() });

// ---- POST /user/user_data (designed: docs/api/user.md) ---------------------------------------

/** Path of the designed user-data call, relative to the API base. */
export const USER_DATA_ENDPOINT = 'user/user_data';

/**
 * The user data call takes the identity and nothing else: any other field is refused (400) rather
 * than ignored, so a client that sends a filter or a paging field learns it is not supported.
 */
export const userDataRequestSchema = identitySchema.strict();

/** Login info (spec §3 user data) [R3-6]: the VIP logo reads vip_level [R2.6-4, R6-2]. */
export const loginInfoSchema = z.object({
  sound: flag01Schema,
  hide_character: flag01Schema,
  vip_level: z.number().int().nonnegative(),
  status: z.number().int(),
  is_sms: flag01Schema,
  notice_get: flag01Schema,
  /** The station the user is reserving or playing now, or nulls. */
  play_info: z.object({
    station_id: z.number().int().positive().nullable(),
    reserve_status: z.enum(RESERVE_STATUSES).nullable(),
  }),
  additional_list: z.object({ tutorial_top: flag01Schema, tutorial_play: flag01Schema }),
  modal_list: z.array(z.string()),
}) satisfies z.ZodType<LoginInfo>;

/** One kind of crane item (power-up) the user holds; only kinds with a count above 0 are listed. */
export const craneItemSchema = z.object({
  item_id: z.number().int().positive(),
  name: z.string().min(1),
  count: z.number().int().positive(),
}) satisfies z.ZodType<CraneItem>;

/** The auth info as the server answers it: the access token never travels back (the client has it). */
export const authInfoAnswerSchema = z.object({
  user_id: z.number().int().positive(),
  agree_contract: flag01Schema,
}) satisfies z.ZodType<Omit<AuthInfo, 'access_token'>>;

/** The domain's UserData without the access token, as POST /user/user_data answers it. */
export type UserDataAnswer = Omit<UserData, 'auth_info'> & { readonly auth_info: Omit<AuthInfo, 'access_token'> };

/** User data (spec §3) [R3-6] minus the access token. */
export const userDataSchema = z
  .object({
    auth_info: authInfoAnswerSchema,
    login_info: loginInfoSchema,
    nickname_info: z.object({
      userId: z.number().int().positive(),
      nickname: z.string(),
      isNicknameUnregistered: z.boolean(),
    }) satisfies z.ZodType<NicknameInfo>,
    profile: z.object({
      sex: z.number().int(),
      birth: z.string(),
      prefectures: z.string(),
      created_at: z.string(),
    }) satisfies z.ZodType<Profile>,
    tc_info: tcInfoSchema,
    ticket_info: ticketInfoSchema,
    crane_items: z.array(craneItemSchema),
    unread: unreadFlagsSchema,
    /** The current e-mail address; '' when none is registered. */
    email: z.string(),
  })
  .refine((d) => d.nickname_info.userId === d.auth_info.user_id, {
    error: 'nickname_info.userId must equal auth_info.user_id',
  }) satisfies z.ZodType<UserDataAnswer>;

export const userDataResponseSchema = errorResponseSchema.extend({ user_data: userDataSchema });
