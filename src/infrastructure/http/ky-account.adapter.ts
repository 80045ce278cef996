import { z } from 'zod/mini';
import { mapped } from '../../contract/schema-helpers';
import { defer, tap, throwError, type Observable } from 'rxjs';
import type {
  AccountPort,
  AddressDraft,
  PresentRedeemed,
  ProfileChange,
  ProfileView,
  SavedAddress,
  SessionPort,
  ZipPlace,
} from '../../application';
import {
  type AccountDeletionPreview,
  addressFromForm,
  addressToForm,
  hideCharacterBody,
  volumeBody,
  type AddressForm,
  type AddressResponse,
  type Flag,
  type InviteInfo,
  type UnreadFlags,
  type UserData,
} from '../../domain';
import {
  ACCOUNT_ENDPOINTS,
  accountDeletePreviewResponseSchema,
  accountDeleteResponseSchema,
  ENDPOINTS,
  USER_DATA_ENDPOINT,
  userDataResponseSchema,
  addressListResponseSchema,
  zipLookupResponseSchema,
  addressResponseSchema,
  agreeResponseSchema,
  codeSentResponseSchema,
  getAddressResponseSchema,
  getEmailResponseSchema,
  inviteResponseSchema,
  movieDeleteTokenResponseSchema,
  phoneVerifiedResponseSchema,
  presentCodeResponseSchema,
  profileResponseSchema,
  readInfoResponseSchema,
  setHideCharacterResponseSchema,
  setVolumeResponseSchema,
  userAdditionalResponseSchema,
  type AddressInput,
} from '../../contract';
import { NotSignedInError } from './errors';
import type { KyHttpClient } from './ky-http-client';

import type { AdditionalKey, AdditionalList, UnreadKind } from '../../domain';

/** The form → the wire input of register/change [R3-3] (the service gives the id). */
function addressInput(draft: AddressDraft): AddressInput {
  const { id: _id, ...wire } = addressFromForm({ ...draft, id: 0 });
  return wire as AddressInput;
}

const profileView = mapped(profileResponseSchema, (a): ProfileView => ({
  profile: a.profile,
  nickname: a.nickname_info,
}));
const savedAddress = mapped(addressResponseSchema, (a): SavedAddress => ({
  address: addressToForm(a.address),
  list: a.list.map(addressToForm),
}));

/**
 * AccountPort over HTTP (ky): every answer validated with the shared contract schemas. The session
 * gives userData() the token the answer leaves out.
 */
export class KyAccount implements AccountPort {
  constructor(
    private readonly http: KyHttpClient,
    private readonly session: Pick<SessionPort, 'current' | 'signOut'>,
  ) {}

  setHideCharacter(hidden: boolean): Observable<Flag> {
    return this.http.post(
      ENDPOINTS.setHideCharacter,
      { ...hideCharacterBody(hidden) },
      mapped(setHideCharacterResponseSchema, (a): Flag => a.set_hide_character.character),
      'set_hide_character',
      { identity: 'required' },
    );
  }
  setVolume(on: boolean): Observable<Flag> {
    return this.http.post(
      ENDPOINTS.setVolume,
      { ...volumeBody(on) },
      mapped(setVolumeResponseSchema, (a): Flag => a.set_volume.volume),
      'set_volume',
      { identity: 'required' },
    );
  }
  email(): Observable<{ readonly email: string; readonly verified: boolean }> {
    return this.http.post(
      ENDPOINTS.getEmail,
      {},
      mapped(getEmailResponseSchema, (a) => ({ email: a.email, verified: a.email_verified === 1 })),
      'get_email',
      { identity: 'required' },
    );
  }
  addressBook(): Observable<AddressResponse> {
    return this.http.post(
      ENDPOINTS.getAddress,
      { get_address: {} },
      mapped(getAddressResponseSchema, (a): AddressResponse => a.data),
      'get_address',
      { identity: 'required' },
    );
  }
  addresses(): Observable<readonly AddressForm[]> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.addressList,
      {},
      mapped(addressListResponseSchema, (a): readonly AddressForm[] => a.list.map(addressToForm)),
      'address_list',
      { identity: 'required' },
    );
  }
  registerAddress(draft: AddressDraft): Observable<SavedAddress> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.addressRegister,
      { address: addressInput(draft) },
      savedAddress,
      'address_register',
      { identity: 'required' },
    );
  }
  changeAddress(form: AddressForm): Observable<SavedAddress> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.addressChange,
      { address: { ...addressInput(form), id: form.id } },
      savedAddress,
      'address_change',
      { identity: 'required' },
    );
  }
  deleteAddress(id: number): Observable<readonly AddressForm[]> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.addressDelete,
      { address_delete: { id } },
      mapped(addressListResponseSchema, (a): readonly AddressForm[] => a.list.map(addressToForm)),
      'address_delete',
      { identity: 'required' },
    );
  }
  lookupZip(zip: string): Observable<readonly ZipPlace[]> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.zipLookup,
      { zip_lookup: { zip } },
      mapped(zipLookupResponseSchema, (a): readonly ZipPlace[] => a.places),
      'zip_lookup',
      { identity: 'required' },
    );
  }
  profile(): Observable<ProfileView> {
    return this.http.post(ACCOUNT_ENDPOINTS.profileGet, {}, profileView, 'profile_get', { identity: 'required' });
  }
  setProfile(change: ProfileChange): Observable<ProfileView> {
    return this.http.post(ACCOUNT_ENDPOINTS.profileSet, { profile: { ...change } }, profileView, 'profile_set', {
      identity: 'required',
    });
  }
  setNickname(nickname: string): Observable<ProfileView> {
    return this.http.post(ACCOUNT_ENDPOINTS.nicknameSet, { nickname: { nickname } }, profileView, 'nickname_set', {
      identity: 'required',
    });
  }
  sendPhoneCode(tel: string): Observable<{ readonly expiresAt: string }> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.phoneSendCode,
      { phone: { tel } },
      mapped(codeSentResponseSchema, (a) => ({ expiresAt: a.expires_at })),
      'phone_send_code',
      { identity: 'required' },
    );
  }
  verifyPhone(code: string): Observable<{ readonly tel: string; readonly verifiedAt: string }> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.phoneVerify,
      { phone_verify: { code } },
      mapped(phoneVerifiedResponseSchema, (a) => ({ tel: a.tel, verifiedAt: a.tel_verified_at })),
      'phone_verify',
      { identity: 'required' },
    );
  }
  redeemPresentCode(code: string): Observable<PresentRedeemed> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.presentCode,
      { present_code: { code } },
      mapped(presentCodeResponseSchema, (a): PresentRedeemed => ({ present: a.present, tc: a.tc, ticket: a.ticket })),
      'present_code',
      { identity: 'required' },
    );
  }
  inviteInfo(): Observable<InviteInfo> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.invite,
      {},
      mapped(inviteResponseSchema, (a): InviteInfo => a.invite_info),
      'invite',
      { identity: 'required' },
    );
  }
  agreeToTerms(): Observable<void> {
    return this.http.post(
      ENDPOINTS.agree,
      { agree_contract: 1 },
      mapped(agreeResponseSchema, (): void => undefined),
      'agree',
      { identity: 'required' },
    );
  }
  setAdditional(key: AdditionalKey, on: boolean): Observable<AdditionalList> {
    return this.http.post(
      ENDPOINTS.userAdditional,
      { additional_key: key, additional_value: on ? 1 : 0 },
      mapped(userAdditionalResponseSchema, (a): AdditionalList => a.additional_list),
      'user_additional',
      { identity: 'required' },
    );
  }
  markRead(kind?: UnreadKind): Observable<UnreadFlags> {
    return this.http.post(
      ENDPOINTS.readInfo,
      { read_info: kind ? { type: kind } : {} },
      mapped(readInfoResponseSchema, (a): UnreadFlags => a.unread),
      'read_info',
      { identity: 'required' },
    );
  }
  deletionPreview(): Observable<AccountDeletionPreview & { readonly hasPassword: boolean }> {
    return this.http.post(
      ACCOUNT_ENDPOINTS.deletePreview,
      {},
      mapped(accountDeletePreviewResponseSchema, ({ preview: p }) => ({
        prizesNotRequested: p.prizes_not_requested,
        deliveriesNotShipped: p.deliveries_not_shipped,
        tcPaid: p.tc_paid,
        tcFree: p.tc_free,
        hasPassword: p.has_password === 1,
      })),
      'account_delete_preview',
      { identity: 'required' },
    );
  }
  deleteAccount(password?: string): Observable<void> {
    return this.http
      .post(
        ACCOUNT_ENDPOINTS.delete,
        { account_delete: password === undefined ? { confirm: 1 } : { confirm: 1, password } },
        mapped(accountDeleteResponseSchema, (): void => undefined),
        'account_delete',
        { identity: 'required' },
      )
      .pipe(tap(() => this.session.signOut()));
  }
  endMovieTokens(): Observable<number> {
    return this.http.post(
      ENDPOINTS.movieDeleteToken,
      { read_info: {} },
      mapped(movieDeleteTokenResponseSchema, (a) => a.revoked),
      'movie_delete_token',
      { identity: 'required' },
    );
  }

  /**
   * The user data [R3-6]. The identity is read once, when the call starts (the transport reads the
   * same one in the same tick): an answer about any other user_id is refused at the border, and the
   * token put back into auth_info is the one the request carried.
   */
  userData(): Observable<UserData> {
    return defer(() => {
      const identity = this.session.current();
      if (!identity) return throwError(() => new NotSignedInError('user_data'));
      const answer = mapped(
        userDataResponseSchema.check(
          z.refine((a) => a.user_data.auth_info.user_id === identity.user_id, {
            error: 'user_data.auth_info.user_id is not the signed-in user',
            path: ['user_data', 'auth_info', 'user_id'],
          }),
        ),
        (a): UserData => ({
          ...a.user_data,
          auth_info: { ...a.user_data.auth_info, access_token: identity.access_token },
        }),
      );
      return this.http.post(USER_DATA_ENDPOINT, {}, answer, 'user_data', { identity: 'required' });
    });
  }
}
