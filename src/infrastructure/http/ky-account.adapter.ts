import type { Observable } from 'rxjs';
import type { AccountPort, AddressDraft, PresentRedeemed, ProfileChange, ProfileView, SavedAddress } from '../../application';
import { addressFromForm, addressToForm, hideCharacterBody, volumeBody, type AddressForm, type AddressResponse, type Flag, type InviteInfo, type UnreadFlags } from '../../domain';
import {
  ACCOUNT_ENDPOINTS, ENDPOINTS, addressChangeRequestSchema, addressDeleteRequestSchema, addressListRequestSchema, addressListResponseSchema,
  addressRegisterRequestSchema, addressResponseSchema, agreeRequestSchema, agreeResponseSchema, codeSentResponseSchema, getAddressRequestSchema,
  getAddressResponseSchema, getEmailRequestSchema, getEmailResponseSchema, inviteRequestSchema, inviteResponseSchema, movieDeleteTokenRequestSchema,
  movieDeleteTokenResponseSchema, nicknameSetRequestSchema, phoneSendCodeRequestSchema, phoneVerifiedResponseSchema, phoneVerifyRequestSchema,
  presentCodeRequestSchema, presentCodeResponseSchema, profileGetRequestSchema, profileResponseSchema, profileSetRequestSchema,
  readInfoRequestSchema, readInfoResponseSchema, setHideCharacterRequestSchema, setHideCharacterResponseSchema, setVolumeRequestSchema,
  setVolumeResponseSchema, userAdditionalRequestSchema, userAdditionalResponseSchema, type AddressInput,
} from '../../contract';
import type { KyHttpClient } from './ky-http-client';
import { authedPost, sendCall } from './service-call';
import type { AdditionalKey, AdditionalList, UnreadKind } from '../../domain';

/** The form → the wire input of register/change [R3-3] (the service gives the id). */
function addressInput(draft: AddressDraft): AddressInput {
  const { id: _id, ...wire } = addressFromForm({ ...draft, id: 0 });
  return wire as AddressInput;
}

const profileView = profileResponseSchema.transform((a): ProfileView => ({ profile: a.profile, nickname: a.nickname_info }));
const savedAddress = addressResponseSchema.transform((a): SavedAddress => ({ address: addressToForm(a.address), list: a.list.map(addressToForm) }));

/**
 * The account calls, each described once (path, body, request and answer schemas): §7's /user/*
 * settings, e-mail, address, tutorial and unread calls, /movie/delete_token, and the designed
 * account calls (addresses, profile, nickname, phone check, present code, invite). KyAccount
 * sends them.
 */
export const accountCalls = {
  setHideCharacter: (hidden: boolean) => authedPost(ENDPOINTS.setHideCharacter, 'set_hide_character',
    { ...hideCharacterBody(hidden) }, setHideCharacterRequestSchema,
    setHideCharacterResponseSchema.transform((a): Flag => a.set_hide_character.character)),
  setVolume: (on: boolean) => authedPost(ENDPOINTS.setVolume, 'set_volume',
    { ...volumeBody(on) }, setVolumeRequestSchema,
    setVolumeResponseSchema.transform((a): Flag => a.set_volume.volume)),
  email: () => authedPost(ENDPOINTS.getEmail, 'get_email', {}, getEmailRequestSchema,
    getEmailResponseSchema.transform((a) => ({ email: a.email, verified: a.email_verified === 1 }))),
  addressBook: () => authedPost(ENDPOINTS.getAddress, 'get_address', { get_address: {} }, getAddressRequestSchema,
    getAddressResponseSchema.transform((a): AddressResponse => a.data)),
  addresses: () => authedPost(ACCOUNT_ENDPOINTS.addressList, 'address_list', {}, addressListRequestSchema,
    addressListResponseSchema.transform((a): readonly AddressForm[] => a.list.map(addressToForm))),
  registerAddress: (draft: AddressDraft) => authedPost(ACCOUNT_ENDPOINTS.addressRegister, 'address_register',
    { address: addressInput(draft) }, addressRegisterRequestSchema, savedAddress),
  changeAddress: (form: AddressForm) => authedPost(ACCOUNT_ENDPOINTS.addressChange, 'address_change',
    { address: { ...addressInput(form), id: form.id } }, addressChangeRequestSchema, savedAddress),
  deleteAddress: (id: number) => authedPost(ACCOUNT_ENDPOINTS.addressDelete, 'address_delete',
    { address_delete: { id } }, addressDeleteRequestSchema,
    addressListResponseSchema.transform((a): readonly AddressForm[] => a.list.map(addressToForm))),
  profile: () => authedPost(ACCOUNT_ENDPOINTS.profileGet, 'profile_get', {}, profileGetRequestSchema, profileView),
  setProfile: (change: ProfileChange) => authedPost(ACCOUNT_ENDPOINTS.profileSet, 'profile_set', { profile: { ...change } }, profileSetRequestSchema, profileView),
  setNickname: (nickname: string) => authedPost(ACCOUNT_ENDPOINTS.nicknameSet, 'nickname_set', { nickname: { nickname } }, nicknameSetRequestSchema, profileView),
  sendPhoneCode: (tel: string) => authedPost(ACCOUNT_ENDPOINTS.phoneSendCode, 'phone_send_code', { phone: { tel } }, phoneSendCodeRequestSchema,
    codeSentResponseSchema.transform((a) => ({ expiresAt: a.expires_at }))),
  verifyPhone: (code: string) => authedPost(ACCOUNT_ENDPOINTS.phoneVerify, 'phone_verify', { phone_verify: { code } }, phoneVerifyRequestSchema,
    phoneVerifiedResponseSchema.transform((a) => ({ tel: a.tel, verifiedAt: a.tel_verified_at }))),
  redeemPresentCode: (code: string) => authedPost(ACCOUNT_ENDPOINTS.presentCode, 'present_code', { present_code: { code } }, presentCodeRequestSchema,
    presentCodeResponseSchema.transform((a): PresentRedeemed => ({ present: a.present, tc: a.tc, ticket: a.ticket }))),
  inviteInfo: () => authedPost(ACCOUNT_ENDPOINTS.invite, 'invite', {}, inviteRequestSchema,
    inviteResponseSchema.transform((a): InviteInfo => a.invite_info)),
  agreeToTerms: () => authedPost(ENDPOINTS.agree, 'agree', { agree_contract: 1 }, agreeRequestSchema,
    agreeResponseSchema.transform((): void => undefined)),
  setAdditional: (key: AdditionalKey, on: boolean) => authedPost(ENDPOINTS.userAdditional, 'user_additional',
    { additional_key: key, additional_value: on ? 1 : 0 }, userAdditionalRequestSchema,
    userAdditionalResponseSchema.transform((a): AdditionalList => a.additional_list)),
  markRead: (kind?: UnreadKind) => authedPost(ENDPOINTS.readInfo, 'read_info', { read_info: kind ? { type: kind } : {} }, readInfoRequestSchema,
    readInfoResponseSchema.transform((a): UnreadFlags => a.unread)),
  endMovieTokens: () => authedPost(ENDPOINTS.movieDeleteToken, 'movie_delete_token', { read_info: {} }, movieDeleteTokenRequestSchema,
    movieDeleteTokenResponseSchema.transform((a) => a.revoked)),
};

/** AccountPort over HTTP (ky): every answer validated with the shared contract schemas. */
export class KyAccount implements AccountPort {
  constructor(private readonly http: KyHttpClient) {}

  setHideCharacter(hidden: boolean): Observable<Flag> { return sendCall(this.http, accountCalls.setHideCharacter(hidden)); }
  setVolume(on: boolean): Observable<Flag> { return sendCall(this.http, accountCalls.setVolume(on)); }
  email(): Observable<{ readonly email: string; readonly verified: boolean }> { return sendCall(this.http, accountCalls.email()); }
  addressBook(): Observable<AddressResponse> { return sendCall(this.http, accountCalls.addressBook()); }
  addresses(): Observable<readonly AddressForm[]> { return sendCall(this.http, accountCalls.addresses()); }
  registerAddress(draft: AddressDraft): Observable<SavedAddress> { return sendCall(this.http, accountCalls.registerAddress(draft)); }
  changeAddress(form: AddressForm): Observable<SavedAddress> { return sendCall(this.http, accountCalls.changeAddress(form)); }
  deleteAddress(id: number): Observable<readonly AddressForm[]> { return sendCall(this.http, accountCalls.deleteAddress(id)); }
  profile(): Observable<ProfileView> { return sendCall(this.http, accountCalls.profile()); }
  setProfile(change: ProfileChange): Observable<ProfileView> { return sendCall(this.http, accountCalls.setProfile(change)); }
  setNickname(nickname: string): Observable<ProfileView> { return sendCall(this.http, accountCalls.setNickname(nickname)); }
  sendPhoneCode(tel: string): Observable<{ readonly expiresAt: string }> { return sendCall(this.http, accountCalls.sendPhoneCode(tel)); }
  verifyPhone(code: string): Observable<{ readonly tel: string; readonly verifiedAt: string }> { return sendCall(this.http, accountCalls.verifyPhone(code)); }
  redeemPresentCode(code: string): Observable<PresentRedeemed> { return sendCall(this.http, accountCalls.redeemPresentCode(code)); }
  inviteInfo(): Observable<InviteInfo> { return sendCall(this.http, accountCalls.inviteInfo()); }
  agreeToTerms(): Observable<void> { return sendCall(this.http, accountCalls.agreeToTerms()); }
  setAdditional(key: AdditionalKey, on: boolean): Observable<AdditionalList> { return sendCall(this.http, accountCalls.setAdditional(key, on)); }
  markRead(kind?: UnreadKind): Observable<UnreadFlags> { return sendCall(this.http, accountCalls.markRead(kind)); }
  endMovieTokens(): Observable<number> { return sendCall(this.http, accountCalls.endMovieTokens()); }
}
