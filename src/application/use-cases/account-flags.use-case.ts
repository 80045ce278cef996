import { inject, injectable } from 'inversify';
import {
  catchError,
  distinctUntilChanged,
  firstValueFrom,
  map,
  of,
  shareReplay,
  switchMap,
  type Observable,
} from 'rxjs';
import {
  isNewUser,
  missingAccountItems,
  parseServiceTime,
  showsFirstProfilePrompt,
  type AdditionalKey,
  type MissingAccountItem,
  type UserData,
} from '../../domain';
import type { AppConfig } from '../app-config';
import type { AccountPort } from '../ports/account.port';
import type { AuthPort } from '../ports/auth.port';
import type { ClockPort } from '../ports/clock.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';

/** What the header, the menu and the layout show about the signed-in player's account. */
export interface AccountFlagsView {
  /** The items the new-badge asks to complete, in display order [R4.7-1]. */
  readonly missing: readonly MissingAccountItem[];
  readonly newBadge: boolean;
  /** The first-profile prompt [R4.7-3]. */
  readonly profilePrompt: boolean;
  /** An operator's chat reply not yet read (the spec's unread `message`). */
  readonly unreadMessage: boolean;
  /** The terms are not yet agreed to (first sign-in): the agreement is asked before anything else. */
  readonly termsPending: boolean;
  /** Tutorials not yet seen. */
  readonly tutorialsDue: readonly AdditionalKey[];
}

const sameView = (a: AccountFlagsView | null, b: AccountFlagsView | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The account flags of §4.7 over the signed-in user's data (and the address response, which holds
 * address_bool): the new badge [R4.7-1], the new-user window [R4.7-2], the first-profile prompt
 * [R4.7-3]; the terms agreement of the first sign-in; the tutorials not yet seen. Null for a guest.
 * App-lifetime; follows CurrentUser (each reload recomputes). Commands: agree, tutorialSeen, signOut.
 */
@injectable()
export class AccountFlags {
  readonly flags$: Observable<AccountFlagsView | null>;

  constructor(
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'user$' | 'reload'>,
    @inject(TOKENS.AccountPort)
    private readonly account: Pick<AccountPort, 'addressBook' | 'agreeToTerms' | 'setAdditional'>,
    @inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'logOut'>,
    @inject(TOKENS.ClockPort) private readonly clock: Pick<ClockPort, 'now'>,
    @inject(TOKENS.AppConfig) private readonly config: Pick<AppConfig, 'target'>,
  ) {
    this.flags$ = this.currentUser.user$.pipe(
      switchMap((user) =>
        user === null
          ? of(null)
          : this.account.addressBook().pipe(
              map((book) => this.view(user, book.address_bool)),
              // Without the address answer the rest still shows; the badge counts the address as missing.
              catchError(() => of(this.view(user, false))),
            ),
      ),
      distinctUntilChanged(sameView),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
  }

  /** Agrees to the terms (user/agree) and reads the user again. */
  async agree(): Promise<void> {
    await firstValueFrom(this.account.agreeToTerms());
    this.currentUser.reload();
  }

  /** A tutorial was shown and closed: it is not shown again (user/user_additional). */
  async tutorialSeen(key: AdditionalKey): Promise<void> {
    await firstValueFrom(this.account.setAdditional(key, true));
    this.currentUser.reload();
  }

  /** Signs out (declining the terms, or the menu's sign-out). */
  async signOut(): Promise<void> {
    await firstValueFrom(this.auth.logOut(), { defaultValue: undefined });
  }

  /** Also after a change elsewhere (an address saved): the badge is read again. */
  refresh(): void {
    this.currentUser.reload();
  }

  private view(user: UserData, addressBool: boolean): AccountFlagsView {
    const missing = missingAccountItems(
      {
        address_bool: addressBool,
        is_sms: user.login_info.is_sms,
        email: user.email,
        sex: user.profile.sex,
        birth: user.profile.birth,
        prefectures: user.profile.prefectures,
        nickname: user.nickname_info.isNicknameUnregistered ? '' : user.nickname_info.nickname,
      },
      this.config.target,
    );
    const created = parseServiceTime(user.profile.created_at);
    const fresh = created !== null && isNewUser(created, this.clock.now());
    const additional = user.login_info.additional_list;
    return {
      missing,
      newBadge: missing.length > 0,
      profilePrompt: showsFirstProfilePrompt({
        isNewUser: fresh,
        isNicknameUnregistered: user.nickname_info.isNicknameUnregistered,
        sex: user.profile.sex,
        birth: user.profile.birth,
        nickname: user.nickname_info.isNicknameUnregistered ? '' : user.nickname_info.nickname,
      }),
      unreadMessage: user.unread.message === 1,
      termsPending: user.auth_info.agree_contract !== 1,
      tutorialsDue: (['tutorial_top', 'tutorial_play'] as const).filter((k) => additional[k] !== 1),
    };
  }
}
