import { firstValueFrom, filter, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TOKENS,
  type AccountDeletion,
  type AccountFlags,
  type AccountFlagsView,
  type AuthPort,
  type ContactForm,
  type CurrentUser,
  type EmailChange,
  type PasswordChange,
  type PasswordReset,
  type PhoneCheck,
  type PresentCodeRedeem,
  type ProfileSettings,
  type SessionPort,
  type SignUp,
  type SupportChat,
} from '../../src/application';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import type { AuthIdentity } from '../../src/domain';
import { createAppContainer } from '../../src/main/container';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';

const OPERATOR = 'operator-token-for-account-tests-0123456';

/**
 * The account and support use-cases over the real server, listening, with the real ky and
 * socket.io adapters: what a player's browser does, without the page.
 */
describe('account and support use-cases against the reference server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ listen: true, inMemory: true, env: { ONKURE_OPERATOR_TOKEN: OPERATOR } });
  });
  afterAll(async () => t?.close());

  const containers: { close(): void }[] = [];
  afterAll(() => containers.forEach((c) => c.close()));

  function client(identity: AuthIdentity | null = null) {
    const c = createAppContainer(
      { ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, realtimeUrl: t.origin, origin: t.origin, timeoutMs: 10_000 },
      [],
      { storage: null, cookies: () => '', navigator: { reload: () => undefined, goTo: () => undefined }, fetch },
    );
    const session = c.get<SessionPort>(TOKENS.SessionPort);
    if (identity) session.signIn(identity);
    const realtime = c.get<{ close?: () => void }>(TOKENS.RealtimePort);
    containers.push({ close: () => realtime.close?.() });
    const get = <T>(token: symbol) => c.get<T>(token);
    return { c, session, get, auth: get<AuthPort>(TOKENS.AuthPort) };
  }
  const db = () => t.server.store();
  const codeIn = async (auth: AuthPort) => /\d{6}/.exec((await firstValueFrom(auth.devOutbox()))[0]!.body)![0];
  const flagsOf = (flags: AccountFlags, until: (v: AccountFlagsView) => boolean) =>
    firstValueFrom(
      flags.flags$.pipe(
        filter((v): v is AccountFlagsView => v !== null && until(v)),
        timeout(5_000),
      ),
    );
  let seq = 0;
  const newEmail = () => `player${++seq}.${Date.now()}@example.jp`;

  async function signedUp() {
    const app = client();
    const signUp = app.get<SignUp>(TOKENS.SignUp);
    const email = newEmail();
    const done = await signUp.submitForm({ email, password: 'mochimochi123', confirm: 'mochimochi123', agree: true });
    expect(done).not.toBeNull();
    return { app, email, identity: done!.identity };
  }

  it('[R2.2-1] sign-up checks each field beside it and stores nothing until all pass; then signs in and agrees to the terms', async () => {
    const app = client();
    const signUp = app.get<SignUp>(TOKENS.SignUp);
    const [{ n: before } = { n: -1 }] = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    const refused = await signUp.submitForm({
      email: 'not-an-address',
      password: 'short',
      confirm: 'other',
      agree: false,
    });
    expect(refused).toBeNull();
    expect(signUp.snapshot.fieldErrors).toEqual({
      email: 'メールアドレスの形式が正しくありません（例：onkure@example.com）。',
      password: 'パスワードは8文字以上で入力してください。',
      confirm: '確認用のパスワードが一致しません。',
      agree: '利用規約への同意が必要です。',
    });
    const [{ n: after } = { n: -2 }] = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(after).toBe(before);
    const email = newEmail();
    const done = await signUp.submitForm({ email, password: 'mochimochi123', confirm: 'mochimochi123', agree: true });
    expect(app.session.current()?.user_id).toBe(done!.identity.user_id);
    const [row] = await db().query<{ agree_contract: number }>('SELECT agree_contract FROM users WHERE user_id = $1', [
      done!.identity.user_id,
    ]);
    expect(row!.agree_contract).toBe(1);
  });

  it('[R4.7-1] [R4.7-2] [R4.7-3] a new account: the badge lists every missing item and the first-profile prompt shows; the profile, the phone and the e-mail take theirs away', async () => {
    const { app } = await signedUp();
    const flags = app.get<AccountFlags>(TOKENS.AccountFlags);
    const first = await flagsOf(flags, () => true);
    // The sign-up address is the account's e-mail (verified or not): the e-mail item is not missing.
    expect(first.missing).toEqual(['address', 'phone', 'profile']);
    expect(first.newBadge).toBe(true);
    expect(first.profilePrompt).toBe(true);
    expect(first.termsPending).toBe(false);
    expect(first.tutorialsDue).toEqual(['tutorial_top', 'tutorial_play']);

    const profile = app.get<ProfileSettings>(TOKENS.ProfileSettings);
    await profile.start();
    await profile.save({ nickname: '', sex: '', birth: '3000-01-01', prefectures: '火星' });
    expect(Object.keys(profile.snapshot.fieldErrors).sort()).toEqual(['birth', 'nickname', 'prefectures', 'sex']);
    await profile.save({ nickname: 'もちこ', sex: '2', birth: '2000-04-01', prefectures: '北海道' });
    expect(profile.snapshot.error).toBeNull();
    expect(profile.snapshot.view?.nickname.nickname).toBe('もちこ');
    const afterProfile = await flagsOf(flags, (v) => !v.missing.includes('profile'));
    expect(afterProfile.profilePrompt).toBe(false);

    const phone = app.get<PhoneCheck>(TOKENS.PhoneCheck);
    await phone.sendCode('090-1234-abcd');
    expect(phone.snapshot.fieldErrors.tel).toBeDefined();
    await phone.sendCode('090-1234-5678');
    expect(phone.snapshot.sentTo).toBe('09012345678');
    await phone.verify(await codeIn(app.auth));
    expect(phone.snapshot.verifiedTel).toBe('09012345678');

    const last = await flagsOf(flags, (v) => !v.missing.includes('phone'));
    expect(last.missing).toEqual(['address']);

    // A new address by code becomes the account's e-mail, verified.
    const mail = app.get<EmailChange>(TOKENS.EmailChange);
    await mail.start();
    expect(mail.snapshot.view?.verified).toBe(false);
    const changed = newEmail();
    await mail.sendCode('not-an-address');
    expect(mail.snapshot.fieldErrors.email).toBe('メールアドレスの形式が正しくありません（例：onkure@example.com）。');
    await mail.sendCode(changed);
    const code = await codeIn(app.auth);
    expect(await mail.verify(code === '000000' ? '111111' : '000000')).toBe(false);
    expect(mail.snapshot.view?.email).not.toBe(changed);
    expect(await mail.verify(code)).toBe(true);
    expect(mail.snapshot.done).toEqual({ email: changed });
    expect(mail.snapshot.view).toEqual({ email: changed, verified: true, verificationRequired: false });
  });

  it('a present code credits free TC through the ledger once; a bad code is refused beside the field', async () => {
    const { app, identity } = await signedUp();
    const redeem = app.get<PresentCodeRedeem>(TOKENS.PresentCodeRedeem);
    await redeem.redeem('ab');
    expect(redeem.snapshot.fieldErrors.code).toBe('プレゼントコードは半角英数字4〜20文字で入力してください。');
    await redeem.redeem(' welcome500 ');
    expect(redeem.snapshot.done?.present).toEqual({ kind: 'tc_free', amount: 500 });
    expect(redeem.snapshot.done?.tc.tc_all).toBe(500);
    await redeem.redeem('WELCOME500');
    expect(redeem.snapshot.error).not.toBeNull();
    const rows = await db().query<{ amount: number }>(
      "SELECT delta AS amount FROM tc_ledger WHERE user_id = $1 AND reason = 'present_code'",
      [identity.user_id],
    );
    expect(rows.map((r) => r.amount)).toEqual([500]);
  });

  it('the password: a change checks the current one and ends other sessions; a reset by e-mail code signs in with the new one', async () => {
    const { app, email, identity } = await signedUp();
    const other = client();
    await firstValueFrom(other.auth.logIn(email, 'mochimochi123'));
    const change = app.get<PasswordChange>(TOKENS.PasswordChange);
    await change.submitForm({ current: 'wrong-pass1', next: 'newpass2026', confirm: 'newpass2026' });
    expect(change.snapshot.error).not.toBeNull();
    await change.submitForm({ current: 'mochimochi123', next: 'newpass2026', confirm: 'newpass2027' });
    expect(change.snapshot.fieldErrors.confirm).toBe('確認用のパスワードが一致しません。');
    await change.submitForm({ current: 'mochimochi123', next: 'newpass2026', confirm: 'newpass2026' });
    expect(change.snapshot.done).toBe(true);
    // This device stays signed in; the other one is out.
    await expect(firstValueFrom(app.auth.emailStatus())).resolves.toBeDefined();
    await expect(firstValueFrom(other.auth.emailStatus())).rejects.toMatchObject({ code: 401 });

    const guest = client();
    const reset = guest.get<PasswordReset>(TOKENS.PasswordReset);
    await reset.requestCode(email);
    expect(reset.snapshot.step).toBe('code');
    const mails = await firstValueFrom(guest.auth.devMailbox(email));
    const code = /\d{6}/.exec(mails[0]!.body)![0];
    const signedIn = await reset.reset({ code, password: 'resetpass99', confirm: 'resetpass99' });
    expect(signedIn?.identity.user_id).toBe(identity.user_id);
    await expect(firstValueFrom(app.auth.emailStatus())).rejects.toMatchObject({ code: 401 });
    await expect(firstValueFrom(client().auth.logIn(email, 'resetpass99'))).resolves.toBeDefined();
  });

  it('[R10-7] deletion shows what is lost, asks the password, revokes the tokens and erases the personal data; signing in again fails', async () => {
    const { app, email, identity } = await signedUp();
    await t.server
      .services()
      .prizes.recordWin(identity.user_id, { prize_kind: 'crane', product_name: 'ふわもこ ねこクッション' });
    const deletion = app.get<AccountDeletion>(TOKENS.AccountDeletion);
    await deletion.start();
    expect(deletion.snapshot.preview).toMatchObject({
      prizesNotRequested: 1,
      deliveriesNotShipped: 0,
      hasPassword: true,
    });
    await deletion.confirm({ password: '', confirmed: false });
    expect(Object.keys(deletion.snapshot.fieldErrors).sort()).toEqual(['confirm', 'password']);
    await deletion.confirm({ password: 'wrong-pass1', confirmed: true });
    expect(deletion.snapshot.error).not.toBeNull();
    expect(app.session.current()).not.toBeNull();
    await deletion.confirm({ password: 'mochimochi123', confirmed: true });
    expect(deletion.snapshot.done).toBe(true);
    expect(app.session.current()).toBeNull();
    const [user] = await db().query<{ email: string | null; nickname: string | null; password_hash: string | null }>(
      'SELECT email, nickname, password_hash FROM users WHERE user_id = $1',
      [identity.user_id],
    );
    expect(user).toMatchObject({ email: null, password_hash: null });
    await expect(firstValueFrom(client().auth.logIn(email, 'mochimochi123'))).rejects.toMatchObject({ code: 401 });
    await expect(firstValueFrom(client(identity).auth.emailStatus())).rejects.toMatchObject({ code: 401 });
  });

  it('the contact form is stored with the recent plays when asked; the chat gets the operator reply live and the unread mark goes when read', async () => {
    const { app, identity } = await signedUp();
    const contact = app.get<ContactForm>(TOKENS.ContactForm);
    await contact.send({ category: '', text: '  ', attachPlay: true });
    expect(Object.keys(contact.snapshot.fieldErrors).sort()).toEqual(['category', 'text']);
    const receipt = await contact.send({ category: 'prize', text: '景品が届きません。', attachPlay: true });
    expect(receipt?.contactId).toBeGreaterThan(0);
    const [stored] = await db().query<{ category: string; text: string }>(
      'SELECT category, text FROM support_contacts WHERE contact_id = $1',
      [receipt!.contactId],
    );
    expect(stored).toEqual({ category: 'prize', text: '景品が届きません。' });

    const chat = app.get<SupportChat>(TOKENS.SupportChat);
    await chat.start();
    expect(await chat.send('')).toBe(false);
    expect(chat.snapshot.fieldError).not.toBeNull();
    expect(await chat.send('ねこクッションの発送はいつですか？')).toBe(true);
    const reply = await fetch(`${t.apiBase}operator/support/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR}` },
      body: JSON.stringify({ user_id: identity.user_id, text: '明日発送いたします。', client_id: 'reply-0001' }),
    });
    expect(reply.status).toBe(200);
    await firstValueFrom(
      chat.state$.pipe(
        filter((s) => s.messages.some((m) => m.from === 'operator')),
        timeout(5_000),
      ),
    );
    expect(chat.snapshot.messages.map((m) => [m.from, m.text])).toEqual([
      ['player', 'ねこクッションの発送はいつですか？'],
      ['operator', '明日発送いたします。'],
    ]);
    // A reply while the chat is closed sets the unread mark; opening the chat reads it and clears it.
    chat.dispose();
    const second = await fetch(`${t.apiBase}operator/support/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR}` },
      body: JSON.stringify({ user_id: identity.user_id, text: '発送しました。', client_id: 'reply-0002' }),
    });
    expect(second.status).toBe(200);
    const flags = app.get<AccountFlags>(TOKENS.AccountFlags);
    app.get<CurrentUser>(TOKENS.CurrentUser).reload();
    await flagsOf(flags, (v) => v.unreadMessage);
    const again = app.get<SupportChat>(TOKENS.SupportChat);
    await again.start();
    expect(again.snapshot.messages.at(-1)?.text).toBe('発送しました。');
    await flagsOf(flags, (v) => !v.unreadMessage);
    again.dispose();
  });
});
