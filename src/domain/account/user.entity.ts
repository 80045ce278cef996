import type { Flag } from '../catalogue/prize.entity';
import type { ReserveStatus } from '../reservation/reservation.entity';
import type { DailyFreePlayInfo, FreeTcExpiring, TcInfo, TicketInfo } from '../wallet/wallet.entity';

/** Auth info (spec §3 user data) [R3-6]. */
export interface AuthInfo {
  readonly user_id: number;
  readonly access_token: string;
  readonly agree_contract: Flag;
}

/**
 * Login info (spec §3 user data) [R3-6]. `hide_character` is the character hide flag (the spec does
 * not print its wire name). `status` is the account status; 3 ignores maintenance pushes [R4.1-2].
 */
export interface LoginInfo {
  readonly sound: Flag;
  readonly hide_character: Flag;
  readonly vip_level: number;
  readonly status: number;
  /** 1 when the phone number is verified by SMS. */
  readonly is_sms: Flag;
  readonly notice_get: Flag;
  readonly play_info: { readonly station_id: number | null; readonly reserve_status: ReserveStatus | null };
  readonly additional_list: { readonly tutorial_top: Flag; readonly tutorial_play: Flag };
  readonly modal_list: readonly string[];
}

/** Nickname info; the spec writes these fields in camelCase [R3-6]. */
export interface NicknameInfo {
  readonly userId: number;
  readonly nickname: string;
  readonly isNicknameUnregistered: boolean;
}

/**
 * Profile [R3-6]. sex: 0 = not registered (1 男性, 2 女性, 3 その他/回答しない). birth: 'YYYY-MM-DD'
 * or '' when not registered. prefectures: a prefecture name or ''. created_at: service time text.
 */
export interface Profile {
  readonly sex: number;
  readonly birth: string;
  readonly prefectures: string;
  readonly created_at: string;
}

/** One crane item (power-up) the user holds; the spec lists the list but not its fields. */
export interface CraneItem {
  readonly item_id: number;
  readonly name: string;
  readonly count: number;
}

/** Unread flags [R3-6]. */
export interface UnreadFlags {
  readonly news: Flag;
  readonly prize: Flag;
  readonly kuji: Flag;
  readonly order_made_prize: Flag;
  readonly digital: Flag;
  readonly direct: Flag;
  readonly message: Flag;
}

/** Everything the client knows about the signed-in user (spec §3 "User data") [R3-6]. */
export interface UserData {
  readonly auth_info: AuthInfo;
  readonly login_info: LoginInfo;
  readonly nickname_info: NicknameInfo;
  readonly profile: Profile;
  readonly tc_info: TcInfo;
  /** The free TC that ends next (the header shows it) [R11-7]; null or absent when none ends. */
  readonly tc_free_expiring?: FreeTcExpiring | null;
  /** Today's free play (granted by this read on the day's first visit) [R11-8]; absent from older servers. */
  readonly daily_free_play?: DailyFreePlayInfo;
  readonly ticket_info: TicketInfo;
  readonly crane_items: readonly CraneItem[];
  readonly unread: UnreadFlags;
  /** The current e-mail address; '' when none is registered. */
  readonly email: string;
}

/** Tutorial flags of the login info's additional_list. */
export type AdditionalKey = 'tutorial_top' | 'tutorial_play';

export type AdditionalList = Readonly<Record<AdditionalKey, Flag>>;

/** Kinds of unread flags (spec §3 user data). */
export type UnreadKind = keyof UnreadFlags;
