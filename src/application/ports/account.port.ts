import type { Observable } from 'rxjs';
import type {
  AccountDeletionPreview,
  AdditionalKey,
  AdditionalList,
  AddressForm,
  AddressResponse,
  Flag,
  InviteInfo,
  NicknameInfo,
  Prefecture,
  Profile,
  TcInfo,
  TicketInfo,
  UnreadFlags,
  UnreadKind,
  UserData,
} from '../../domain';

/** An address as the player fills in the registration form (the service gives it its id). */
export type AddressDraft = Omit<AddressForm, 'id'>;

/** A place a postal code names: prefecture (one of the 47), city and town. */
export interface ZipPlace {
  readonly prefecture: string;
  readonly city: string;
  readonly town: string;
}

/** The saved address and the whole list after a registration or change. */
export interface SavedAddress {
  readonly address: AddressForm;
  readonly list: readonly AddressForm[];
}

/** The profile (spec §3) with the nickname info. */
export interface ProfileView {
  readonly profile: Profile;
  readonly nickname: NicknameInfo;
}

/** Profile fields to change; a field left out is kept. sex: 1 男性, 2 女性, 3 その他/回答しない. */
export interface ProfileChange {
  readonly sex?: 1 | 2 | 3;
  /** 'YYYY-MM-DD'; can be registered once and not changed afterwards. */
  readonly birth?: string;
  readonly prefectures?: Prefecture;
}

/** What a present code gave, and the balances after it. */
export interface PresentRedeemed {
  readonly present: { readonly kind: 'tc_free' | 'ticket'; readonly amount: number };
  readonly tc: TcInfo;
  readonly ticket: TicketInfo;
}

/**
 * The signed-in player's own account: settings, e-mail, addresses, profile and nickname, phone
 * check, present codes, invites. Every call needs a signed-in session (without one nothing is sent
 * and the observable errors); each returns a cold observable that emits once and completes, and
 * unsubscribing cancels the request. Refusals arrive as errors carrying the service's error_code and
 * Japanese error_info (400 invalid input, 401 bad identity, 404 not the player's, 409 not allowed now).
 */
export interface AccountPort {
  /** Hides or shows the character on the live feed; sent as 1 or 0 [R3-18, R5-1]. Emits the stored flag. */
  setHideCharacter(hidden: boolean): Observable<Flag>;
  /** Turns the sound on or off; sent as 1 or 0 [R3-18, R5-1]. Emits the stored flag. */
  setVolume(on: boolean): Observable<Flag>;
  /** The current e-mail ('' when none) and whether it is verified. */
  email(): Observable<{ readonly email: string; readonly verified: boolean }>;
  /** The address response (spec §3) [R3-4]: the main address flattened, birth, e-mail and every address. */
  addressBook(): Observable<AddressResponse>;
  /** Every saved address, the main one first, in the form's spelling [R3-3]. */
  addresses(): Observable<readonly AddressForm[]>;
  /** Saves a new address; the first one, or one with isMain, becomes the only main address. */
  registerAddress(draft: AddressDraft): Observable<SavedAddress>;
  /** Changes one of the player's addresses; isMain moves the main flag to it. */
  changeAddress(form: AddressForm): Observable<SavedAddress>;
  /** Deletes one of the player's addresses; emits the remaining list (a new main one if needed). */
  deleteAddress(id: number): Observable<readonly AddressForm[]>;
  /** The places a postal code names (Japan Post's table): none for a code it does not know. */
  lookupZip(zip: string): Observable<readonly ZipPlace[]>;
  profile(): Observable<ProfileView>;
  setProfile(change: ProfileChange): Observable<ProfileView>;
  setNickname(nickname: string): Observable<ProfileView>;
  /** Sends an SMS code to `tel` for the phone check. */
  sendPhoneCode(tel: string): Observable<{ readonly expiresAt: string }>;
  verifyPhone(code: string): Observable<{ readonly tel: string; readonly verifiedAt: string }>;
  /** Redeems a present code (each code once per player). */
  redeemPresentCode(code: string): Observable<PresentRedeemed>;
  /** Invite info [R3-16]: tickets per invited friend, title, link and text to share. */
  inviteInfo(): Observable<InviteInfo>;
  /** Agrees to the terms of use (agree_contract 1). */
  agreeToTerms(): Observable<void>;
  /** Sets one tutorial flag; emits every flag afterwards. */
  setAdditional(key: AdditionalKey, on: boolean): Observable<AdditionalList>;
  /** Marks one kind of unread flag as read, or every kind when omitted; emits the flags afterwards. */
  markRead(kind?: UnreadKind): Observable<UnreadFlags>;
  /** Ends the player's live-feed (media) tokens, e.g. on leaving the play screen; emits how many. */
  endMovieTokens(): Observable<number>;
  /** What deleting the account takes with it, and whether it asks for the password [R10-7]. */
  deletionPreview(): Observable<AccountDeletionPreview & { readonly hasPassword: boolean }>;
  /**
   * Deletes the account [R10-7]: tokens revoked, personal data erased; on success this device is
   * signed out. `password` is required when the account has one.
   */
  deleteAccount(password?: string): Observable<void>;
  /**
   * Everything about the signed-in player (spec §3 "User data") [R3-6]: auth and login info (vip_level
   * for the VIP logo, R2.6-4), nickname, profile, TC and tickets, crane items, unread flags, e-mail.
   * auth_info.access_token is the session's own token (the service never sends it back).
   */
  userData(): Observable<UserData>;
}
