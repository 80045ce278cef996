import { inject, injectable } from 'inversify';
import { firstValueFrom, map, switchMap } from 'rxjs';
import {
  ACCOUNT_FORM_MESSAGES,
  checkBirth,
  checkCode,
  checkNewPassword,
  checkNickname,
  checkPhone,
  checkPresentCode,
  checkRequiredEmail,
  isPrefecture,
  jstIsoDate,
  refusalText,
  type AccountDeletionPreview,
  type FieldCheck,
  type InviteInfo,
  type Prefecture,
  VALIDATION_MESSAGES,
} from '../../domain';
import type { AccountPort, PresentRedeemed, ProfileView } from '../ports/account.port';
import type { AuthPort, SignedIn } from '../ports/auth.port';
import type { ClockPort } from '../ports/clock.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import { FormStore } from './form-store';
import { StateStore } from './state-store';

const ok = (value: string): FieldCheck => ({ ok: true, value });
const present = (text: string, message: string): FieldCheck => (text === '' ? { ok: false, message } : ok(text));
/** The repeated new password must equal the first. */
const sameAs = (first: string, again: string): FieldCheck =>
  first === again ? ok(again) : { ok: false, message: ACCOUNT_FORM_MESSAGES.passwordMismatch };

/**
 * Sign-up (e-mail, password twice, terms agreed): on success this device is signed in; the
 * agreement is stored with the new account, so the terms are not asked again.
 */
@injectable()
export class SignUp extends FormStore<'email' | 'password' | 'confirm' | 'agree', SignedIn> {
  constructor(@inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'signUp'>) {
    super({});
  }

  submitForm(input: { email: string; password: string; confirm: string; agree: boolean }): Promise<SignedIn | null> {
    return this.submit(
      {
        email: checkRequiredEmail(input.email),
        password: checkNewPassword(input.password),
        confirm: sameAs(input.password, input.confirm),
        agree: input.agree ? ok('1') : { ok: false, message: ACCOUNT_FORM_MESSAGES.agreeRequired },
      },
      (v) => this.auth.signUp(v.email!, v.password!, true),
    );
  }
}

/** The password change of the account modal: current, new, new again. */
@injectable()
export class PasswordChange extends FormStore<'current' | 'next' | 'confirm', true> {
  constructor(@inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'changePassword'>) {
    super({});
  }

  submitForm(input: { current: string; next: string; confirm: string }): Promise<true | null> {
    const next = checkNewPassword(input.next);
    return this.submit(
      {
        current: present(input.current, ACCOUNT_FORM_MESSAGES.passwordRequired),
        next:
          next.ok && input.next === input.current
            ? { ok: false, message: ACCOUNT_FORM_MESSAGES.newPasswordSame }
            : next,
        confirm: sameAs(input.next, input.confirm),
      },
      (v) => this.auth.changePassword(v.current!, v.next!).pipe(map((): true => true)),
    );
  }
}

/**
 * The password reset by e-mail code: step 'email' asks for a code (the answer never says whether
 * the address has an account), step 'code' sets the new password and signs this device in.
 */
@injectable()
export class PasswordReset extends FormStore<
  'email' | 'code' | 'password' | 'confirm',
  SignedIn,
  { readonly step: 'email' | 'code'; readonly email: string; readonly expiresAt: string | null }
> {
  constructor(
    @inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'requestPasswordReset' | 'resetPassword'>,
  ) {
    super({ step: 'email', email: '', expiresAt: null });
  }

  async requestCode(email: string): Promise<void> {
    const checked = checkRequiredEmail(email);
    if (this.snapshot.busy) return;
    if (!checked.ok) {
      this.setState((s) => ({ ...s, fieldErrors: { email: checked.message }, error: null }));
      return;
    }
    this.setState((s) => ({ ...s, busy: true, error: null, fieldErrors: {} }));
    try {
      const sent = await firstValueFrom(this.auth.requestPasswordReset(checked.value).pipe(this.untilDisposed()));
      this.setState((s) => ({ ...s, busy: false, step: 'code', email: checked.value, expiresAt: sent.expiresAt }));
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
    }
  }

  reset(input: { code: string; password: string; confirm: string }): Promise<SignedIn | null> {
    const email = this.snapshot.email;
    return this.submit(
      {
        code: checkCode(input.code),
        password: checkNewPassword(input.password),
        confirm: sameAs(input.password, input.confirm),
      },
      (v) => this.auth.resetPassword(email, v.code!, v.password!),
    );
  }

  /** Back to the first step (another address). */
  restart(): void {
    this.setState((s) => ({ ...s, step: 'email', expiresAt: null, error: null, fieldErrors: {} }));
  }
}

/** Where the account's e-mail stands, for the account modal. */
export interface EmailView {
  readonly email: string | null;
  readonly verified: boolean;
  readonly verificationRequired: boolean;
}

/**
 * The account modal's e-mail part: the address and its verification state; a change (or a first
 * verification) sends a code to the new address and verifies it, which makes it the account's.
 */
@injectable()
export class EmailChange extends FormStore<
  'email' | 'code',
  { readonly email: string },
  { readonly view: EmailView | null; readonly sentTo: string | null; readonly loadError: string | null }
> {
  constructor(
    @inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'emailStatus' | 'sendEmailCode' | 'verifyEmail'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ view: null, sentTo: null, loadError: null });
  }

  async start(): Promise<void> {
    try {
      const status = await firstValueFrom(this.auth.emailStatus().pipe(this.untilDisposed()));
      this.setState((s) => ({
        ...s,
        view: { email: status.email, verified: status.verified, verificationRequired: status.verificationRequired },
      }));
    } catch (error) {
      this.setState((s) => ({ ...s, loadError: refusalText(error) }));
    }
  }

  async sendCode(email: string): Promise<void> {
    const sent = await this.submit({ email: checkRequiredEmail(email) }, (v) =>
      this.auth.sendEmailCode(v.email).pipe(map(() => ({ email: v.email! }))),
    );
    // Sending is a step, not the end: the code comes next.
    if (sent) this.setState((s) => ({ ...s, sentTo: sent.email, done: null }));
  }

  /** True when the code made the new address the account's (`done` then holds it). */
  async verify(code: string): Promise<boolean> {
    const done = await this.submit({ code: checkCode(code) }, (v) =>
      this.auth.verifyEmail(v.code!).pipe(map((a) => ({ email: a.email }))),
    );
    if (done) {
      this.setState((s) => ({
        ...s,
        sentTo: null,
        view: { email: done.email, verified: true, verificationRequired: false },
      }));
      this.currentUser.reload();
    }
    return done !== null;
  }
}

/** The phone check: the number gets an SMS code, the code verifies it [R4.7-1 "phone verification"]. */
@injectable()
export class PhoneCheck extends FormStore<
  'tel' | 'code',
  { readonly tel: string },
  { readonly sentTo: string | null; readonly verifiedTel: string | null }
> {
  constructor(
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'sendPhoneCode' | 'verifyPhone'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ sentTo: null, verifiedTel: null });
  }

  async sendCode(tel: string): Promise<void> {
    const sent = await this.submit({ tel: checkPhone(tel) }, (v) =>
      this.account.sendPhoneCode(v.tel!).pipe(map(() => ({ tel: v.tel! }))),
    );
    if (sent) this.setState((s) => ({ ...s, sentTo: sent.tel, done: null }));
  }

  async verify(code: string): Promise<void> {
    const done = await this.submit({ code: checkCode(code) }, (v) =>
      this.account.verifyPhone(v.code!).pipe(map((a) => ({ tel: a.tel }))),
    );
    if (done) {
      this.setState((s) => ({ ...s, sentTo: null, verifiedTel: done.tel }));
      this.currentUser.reload();
    }
  }

  /** Another number (the code did not arrive, or a typo). */
  restart(): void {
    this.setState((s) => ({ ...s, sentTo: null, error: null, fieldErrors: {} }));
  }
}

/** A present code redeemed: the TC (through the ledger) or tickets it gives, the balances after. */
@injectable()
export class PresentCodeRedeem extends FormStore<'code', PresentRedeemed> {
  constructor(
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'redeemPresentCode'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({});
  }

  async redeem(code: string): Promise<void> {
    const done = await this.submit({ code: checkPresentCode(code) }, (v) => this.account.redeemPresentCode(v.code!));
    if (done) this.currentUser.reload();
  }
}

/** Profile fields as the form holds them: sex '' | '1' | '2' | '3', birth 'YYYY-MM-DD' or ''. */
export interface ProfileInput {
  readonly nickname: string;
  readonly sex: string;
  readonly birth: string;
  readonly prefectures: string;
}

/**
 * Nickname and profile [R4.7-3]: every field required (sex, birth, prefecture, nickname); the birth
 * date is set once and then shown, not asked again. Saving refreshes the user, which ends the
 * first-profile prompt and the new badge's profile item.
 */
@injectable()
export class ProfileSettings extends FormStore<
  keyof ProfileInput,
  ProfileView,
  { readonly view: ProfileView | null; readonly loadError: string | null }
> {
  constructor(
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'profile' | 'setProfile' | 'setNickname'>,
    @inject(TOKENS.ClockPort) private readonly clock: Pick<ClockPort, 'now'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ view: null, loadError: null });
  }

  async start(): Promise<void> {
    try {
      const view = await firstValueFrom(this.account.profile().pipe(this.untilDisposed()));
      this.setState((s) => ({ ...s, view }));
    } catch (error) {
      this.setState((s) => ({ ...s, loadError: refusalText(error) }));
    }
  }

  async save(input: ProfileInput): Promise<void> {
    const registeredBirth = this.snapshot.view?.profile.birth ?? '';
    const sex = ['1', '2', '3'].includes(input.sex)
      ? ok(input.sex)
      : { ok: false as const, message: ACCOUNT_FORM_MESSAGES.sexRequired };
    const prefecture = isPrefecture(input.prefectures)
      ? ok(input.prefectures)
      : { ok: false as const, message: VALIDATION_MESSAGES.prefecture };
    const view = await this.submit(
      {
        nickname: checkNickname(input.nickname),
        sex,
        birth: registeredBirth !== '' ? ok(registeredBirth) : checkBirth(input.birth, jstIsoDate(this.clock.now())),
        prefectures: prefecture,
      },
      (v) => {
        const change = {
          sex: Number(v.sex) as 1 | 2 | 3,
          prefectures: v.prefectures as Prefecture,
          ...(registeredBirth === '' ? { birth: v.birth! } : {}),
        };
        // The nickname first (its own refusals), then the profile, whose answer holds both.
        return this.account.setNickname(v.nickname!).pipe(switchMap(() => this.account.setProfile(change)));
      },
    );
    if (view) {
      this.setState((s) => ({ ...s, view }));
      this.currentUser.reload();
    }
  }
}

/** The invite-friend modal: tickets per invited friend, title, link and text to share [R3-16]. */
@injectable()
export class InviteFriend extends StateStore<
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly info: InviteInfo }
  | { readonly kind: 'error'; readonly message: string }
> {
  constructor(@inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'inviteInfo'>) {
    super({ kind: 'loading' });
  }

  async start(): Promise<void> {
    try {
      const info = await firstValueFrom(this.account.inviteInfo().pipe(this.untilDisposed()));
      this.setState({ kind: 'ready', info });
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }
}

/**
 * Account deletion [R10-7]: what it takes with it (prizes not requested, deliveries not shipped,
 * TC held) is shown first; the player ticks the confirmation and, when the account has one, gives
 * the password. Success signs this device out.
 */
@injectable()
export class AccountDeletion extends FormStore<
  'password' | 'confirm',
  true,
  {
    readonly preview: (AccountDeletionPreview & { readonly hasPassword: boolean }) | null;
    readonly loadError: string | null;
  }
> {
  constructor(
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'deletionPreview' | 'deleteAccount'>,
  ) {
    super({ preview: null, loadError: null });
  }

  async start(): Promise<void> {
    try {
      const preview = await firstValueFrom(this.account.deletionPreview().pipe(this.untilDisposed()));
      this.setState((s) => ({ ...s, preview }));
    } catch (error) {
      this.setState((s) => ({ ...s, loadError: refusalText(error) }));
    }
  }

  confirm(input: { password: string; confirmed: boolean }): Promise<true | null> {
    const hasPassword = this.snapshot.preview?.hasPassword ?? true;
    return this.submit(
      {
        confirm: input.confirmed ? ok('1') : { ok: false, message: ACCOUNT_FORM_MESSAGES.deleteConfirmRequired },
        ...(hasPassword ? { password: present(input.password, ACCOUNT_FORM_MESSAGES.passwordRequired) } : {}),
      },
      (v) => this.account.deleteAccount(hasPassword ? v.password : undefined).pipe(map((): true => true)),
    );
  }
}
