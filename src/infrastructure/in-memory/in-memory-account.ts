import type { Observable } from 'rxjs';
import type { AccountPort, AddressDraft, PresentRedeemed, ProfileChange, ProfileView, SavedAddress } from '../../application';
import {
  addressResponseOf, formatZip, PREFECTURES, tcInfo, validateAddressForm, type AddressForm, type AddressRecord, type AddressResponse, type Flag,
  type InviteInfo, type UnreadFlags,
} from '../../domain';
import { ADDITIONAL_KEYS, MAX_ADDRESSES, UNREAD_KINDS, type AddressInput } from '../../contract';
import { accountCalls } from '../http/ky-account.adapter';
import { accountStateOf, type AccountState, type StoredAddress } from './in-memory-account-state';
import { InMemoryVerification } from './in-memory-auth';
import { InMemoryRefusal, type InMemoryBackend, type InMemoryUser } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';
import type { AdditionalKey, AdditionalList, UnreadKind } from '../../domain';

/** As the server (INVITE_TICKET, ONKURE_PUBLIC_URL default). */
const INVITE_TICKET = 3;
const INVITE_BASE_URL = 'http://localhost:8080';
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The server's checkAddress: the domain's validateAddressForm, first message as a 400; normalised values. */
function checkAddress(input: Omit<AddressInput, 'id'>): Omit<AddressRecord, 'id' | 'is_main'> & { is_main: Flag | undefined } {
  const result = validateAddressForm({
    id: 0, isMain: input.is_main === 1, lastName: input.last_name, firstName: input.first_name, zip: input.zip,
    address1: input.address1, address2: input.address2, address3: input.address3, tel: input.tel, email: input.email ?? '', leadTimes: input.lead_times ?? '',
  });
  if (!result.valid) throw new InMemoryRefusal(400, Object.values(result.errors)[0] ?? '住所の入力内容が正しくありません。');
  const f = result.normalized;
  return {
    is_main: input.is_main, first_name: f.firstName, last_name: f.lastName, zip: formatZip(f.zip), address1: f.address1,
    address2: f.address2, address3: f.address3, tel: f.tel, email: f.email, lead_times: input.lead_times ?? '',
  };
}

const record = ({ user_id: _u, ...r }: StoredAddress): AddressRecord => r;

/** AccountPort in memory: the same rules and refusals as the reference server's account routes. */
export class InMemoryAccount implements AccountPort {
  private readonly state: AccountState;
  private readonly verification: InMemoryVerification;

  constructor(private readonly caller: InMemoryCaller) {
    this.state = accountStateOf(caller.backend);
    this.verification = new InMemoryVerification(caller.backend, this.state);
  }

  private get backend(): InMemoryBackend {
    return this.caller.backend;
  }

  /** The user's addresses, main first, then by id (as the server lists them). */
  private list(userId: number): AddressRecord[] {
    return this.state.addresses.filter((a) => a.user_id === userId).sort((a, b) => b.is_main - a.is_main || a.id - b.id).map(record);
  }

  private replace(old: StoredAddress, next: StoredAddress): void {
    this.state.addresses.splice(this.state.addresses.indexOf(old), 1, next);
  }

  private profileView(user: InMemoryUser) {
    return {
      profile: {
        sex: user.sex ?? 0, birth: user.birth ?? '', prefectures: user.prefecture ? (PREFECTURES[user.prefecture - 1] ?? '') : '', created_at: new Date(user.created_at).toISOString(),
      },
      nickname_info: { userId: user.user_id, nickname: user.nickname ?? '', isNicknameUnregistered: !user.nickname },
    };
  }

  setHideCharacter(hidden: boolean): Observable<Flag> {
    return this.caller.serve(accountCalls.setHideCharacter(hidden), (body, user) => {
      user.hide_character = body.set_hide_character.character;
      return { set_hide_character: { character: body.set_hide_character.character } };
    });
  }

  setVolume(on: boolean): Observable<Flag> {
    return this.caller.serve(accountCalls.setVolume(on), (body, user) => {
      user.sound = body.set_volume.volume;
      return { set_volume: { volume: body.set_volume.volume } };
    });
  }

  email(): Observable<{ readonly email: string; readonly verified: boolean }> {
    return this.caller.serve(accountCalls.email(), (_body, user) => ({ email: user.email ?? '', email_verified: user.email_verified_at ? 1 : 0 }));
  }

  addressBook(): Observable<AddressResponse> {
    return this.caller.serve(accountCalls.addressBook(), (_body, user) => {
      return { data: addressResponseOf(this.list(user.user_id), user) };
    });
  }

  addresses(): Observable<readonly AddressForm[]> {
    return this.caller.serve(accountCalls.addresses(), (_body, user) => ({ list: this.list(user.user_id) }));
  }

  registerAddress(draft: AddressDraft): Observable<SavedAddress> {
    return this.caller.serve(accountCalls.registerAddress(draft), (body, user) => {
      const values = checkAddress(body.address);
      const mine = this.state.addresses.filter((a) => a.user_id === user.user_id);
      if (mine.length >= MAX_ADDRESSES) throw new InMemoryRefusal(409, `住所は${MAX_ADDRESSES}件まで登録できます。`);
      const makeMain = mine.length === 0 || values.is_main === 1;
      if (makeMain) for (const a of mine) if (a.is_main) this.replace(a, { ...a, is_main: 0 });
      const stored: StoredAddress = { ...values, id: this.state.nextId(), user_id: user.user_id, is_main: makeMain ? 1 : 0 };
      this.state.addresses.push(stored);
      return { address: record(stored), list: this.list(user.user_id) };
    });
  }

  changeAddress(form: AddressForm): Observable<SavedAddress> {
    return this.caller.serve(accountCalls.changeAddress(form), (body, user) => {
      const { id, ...input } = body.address;
      const values = checkAddress(input);
      const current = this.state.addresses.find((a) => a.user_id === user.user_id && a.id === id);
      if (!current) throw new InMemoryRefusal(404, '住所が見つかりません。');
      if (current.is_main && values.is_main === 0) throw new InMemoryRefusal(409, 'メインの住所は、別の住所をメインにしてから変更してください。');
      const makeMain = current.is_main === 1 || values.is_main === 1;
      if (makeMain && !current.is_main) {
        for (const a of this.state.addresses.filter((x) => x.user_id === user.user_id && x.is_main)) this.replace(a, { ...a, is_main: 0 });
      }
      const next: StoredAddress = { ...values, id, user_id: user.user_id, is_main: makeMain ? 1 : 0 };
      this.replace(current, next);
      return { address: record(next), list: this.list(user.user_id) };
    });
  }

  deleteAddress(id: number): Observable<readonly AddressForm[]> {
    return this.caller.serve(accountCalls.deleteAddress(id), (body, user) => {
      const gone = this.state.addresses.find((a) => a.user_id === user.user_id && a.id === body.address_delete.id);
      if (!gone) throw new InMemoryRefusal(404, '住所が見つかりません。');
      this.state.addresses.splice(this.state.addresses.indexOf(gone), 1);
      if (gone.is_main) {
        const oldest = this.state.addresses.filter((a) => a.user_id === user.user_id).sort((a, b) => a.id - b.id)[0];
        if (oldest) this.replace(oldest, { ...oldest, is_main: 1 });
      }
      return { list: this.list(user.user_id) };
    });
  }

  profile(): Observable<ProfileView> {
    return this.caller.serve(accountCalls.profile(), (_body, user) => this.profileView(user));
  }

  setProfile(change: ProfileChange): Observable<ProfileView> {
    return this.caller.serve(accountCalls.setProfile(change), (body, user) => {
      const p = body.profile;
      if (p.birth !== undefined && user.birth !== null && user.birth !== p.birth) throw new InMemoryRefusal(409, '生年月日は一度登録すると変更できません。');
      if (p.birth !== undefined && p.birth > this.backend.now().toISOString().slice(0, 10)) throw new InMemoryRefusal(400, '生年月日に未来の日付は指定できません。');
      if (p.sex !== undefined) user.sex = p.sex;
      if (p.birth !== undefined) user.birth = p.birth;
      if (p.prefectures !== undefined) user.prefecture = PREFECTURES.indexOf(p.prefectures) + 1;
      return this.profileView(user);
    });
  }

  setNickname(nickname: string): Observable<ProfileView> {
    return this.caller.serve(accountCalls.setNickname(nickname), (body, user) => {
      user.nickname = body.nickname.nickname;
      return this.profileView(user);
    });
  }

  sendPhoneCode(tel: string): Observable<{ readonly expiresAt: string }> {
    return this.caller.serve(accountCalls.sendPhoneCode(tel), (body, user) => this.verification.send(user, 'tel', body.phone.tel));
  }

  verifyPhone(code: string): Observable<{ readonly tel: string; readonly verifiedAt: string }> {
    return this.caller.serve(accountCalls.verifyPhone(code), (body, user) => {
      const done = this.verification.verify(user, 'tel', body.phone_verify.code);
      return { tel: done.target, tel_verified_at: done.verified_at };
    });
  }

  redeemPresentCode(code: string): Observable<PresentRedeemed> {
    return this.caller.serve(accountCalls.redeemPresentCode(code), (body, user) => {
      const now = this.backend.now().getTime();
      const pc = this.state.presentCodes.find((c) => c.code === body.present_code.code);
      if (!pc) throw new InMemoryRefusal(404, 'プレゼントコードが見つかりません。');
      if (new Date(pc.starts_at).getTime() > now || new Date(pc.ends_at).getTime() < now) throw new InMemoryRefusal(409, 'このプレゼントコードは有効期間外です。');
      const key = `${pc.code}:${user.user_id}`;
      if (this.state.redemptions.has(key)) throw new InMemoryRefusal(409, 'このプレゼントコードはすでに使用済みです。');
      this.state.redemptions.add(key);
      if (pc.kind === 'tc_free') this.backend.credit(user.user_id, 'free', pc.amount, 'present_code', pc.code);
      else this.state.creditTickets(user.user_id, pc.amount, 'present_code');
      const { tc_free, tc_toll } = this.backend.balance(user.user_id);
      return { present: { kind: pc.kind, amount: pc.amount }, tc: tcInfo(tc_free, tc_toll), ticket: { ticket_all: this.state.tickets(user.user_id) } };
    });
  }

  inviteInfo(): Observable<InviteInfo> {
    return this.caller.serve(accountCalls.inviteInfo(), (_body, user) => {
      let code = this.state.inviteCodes.get(user.user_id);
      if (!code) {
        const taken = new Set(this.state.inviteCodes.values());
        do code = Array.from({ length: 8 }, () => INVITE_ALPHABET[Math.floor(Math.random() * INVITE_ALPHABET.length)]).join('');
        while (taken.has(code));
        this.state.inviteCodes.set(user.user_id, code);
      }
      const url = `${INVITE_BASE_URL}/?invite=${code}`;
      return {
        invite_info: {
          invite_ticket: INVITE_TICKET,
          title: 'お友達招待キャンペーン',
          url,
          text: `オンラインクレーンゲーム「オンクレ」で一緒に遊ぼう！招待コード「${code}」で登録すると、招待した人にチケット${INVITE_TICKET}枚をプレゼント。\n${url}`,
        },
      };
    });
  }

  agreeToTerms(): Observable<void> {
    return this.caller.serve(accountCalls.agreeToTerms(), (_body, user) => {
      user.agree_contract = 1;
      return { agree_contract: 1 };
    });
  }

  setAdditional(key: AdditionalKey, on: boolean): Observable<AdditionalList> {
    return this.caller.serve(accountCalls.setAdditional(key, on), (body, user) => {
      const list = { ...(this.state.additionals.get(user.user_id) ?? Object.fromEntries(ADDITIONAL_KEYS.map((k) => [k, 0 as Flag])) as Record<AdditionalKey, Flag>) };
      list[body.additional_key] = body.additional_value;
      this.state.additionals.set(user.user_id, list);
      return { additional_list: list };
    });
  }

  markRead(kind?: UnreadKind): Observable<UnreadFlags> {
    return this.caller.serve(accountCalls.markRead(kind), (body, user) => {
      const unread = this.state.unread.get(user.user_id) ?? new Set<UnreadKind>();
      const type = body.read_info?.type;
      if (type) unread.delete(type);
      else unread.clear();
      this.state.unread.set(user.user_id, unread);
      return { unread: Object.fromEntries(UNREAD_KINDS.map((k) => [k, unread.has(k) ? 1 : 0])) };
    });
  }

  endMovieTokens(): Observable<number> {
    // The fakes issue no live-feed tokens, so there is never one to revoke.
    return this.caller.serve(accountCalls.endMovieTokens(), () => ({ revoked: 0 }));
  }
}
