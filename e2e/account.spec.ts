import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { seriousViolations } from './support/axe';
import { OPERATOR_TOKEN, stationFor, type Identity } from './support/players';

const operator = (request: APIRequestContext, path: string, data: object) =>
  request.post(`/api/operator/${path}`, { data, headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` } });

async function look(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}-${test.info().project.name}.png` });
  expect(await seriousViolations(page)).toEqual([]);
}

/** The session the app keeps in localStorage. */
const sessionOf = (page: Page) =>
  page.evaluate(() => JSON.parse(window.localStorage.getItem('onkure.session') ?? 'null') as Identity | null);

/** The 6-digit code of the newest dev-outbox message of the signed-in player (development only). */
async function newestCode(page: Page, request: APIRequestContext): Promise<string> {
  const who = (await sessionOf(page))!;
  const answer = (await (await request.post('/api/auth/dev_outbox', { data: who })).json()) as {
    list: { body: string }[];
  };
  return /\d{6}/.exec(answer.list[0]!.body)![0];
}

async function openFromMenu(page: Page, testId: string) {
  await page.getByTestId('open-menu').click();
  await page.getByTestId(testId).click();
}

/**
 * Closes the menu and its sub-modal with Escape, as a person does, and waits until they are gone:
 * each close goes back one history entry, and a key pressed before those arrive (Enter on the menu
 * button) would land while the old modals are still open.
 */
async function closeModals(page: Page) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.locator('[aria-modal="true"]')).toHaveCount(0);
}

/** Presses Tab until the element with `testId` has the focus (keyboard only). */
async function tabTo(page: Page, testId: string, max = 80) {
  for (let i = 0; i < max; i += 1) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${testId} never got the focus`);
}

test.describe('the account and support', () => {
  test.describe.configure({ timeout: 300_000 });

  test('[R2.2-1] [R2.2-2] [R4.7-1] [R4.7-2] [R4.7-3] [R10-7] sign up, verify, profile, phone, present code, invite, contact, chat, password reset, deletion', async ({
    page,
    request,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = `hana-${testInfo.project.name}-${Date.now().toString(36)}@example.jp`;
    const nickname = `はな${Date.now().toString(36).slice(-4)}`;

    // A guest: the header offers sign-in and sign-up, which come back here.
    await page.goto('/');
    await expect(page.getByTestId('header-sign-in')).toBeVisible();
    if (testInfo.project.name === 'mobile') {
      // A phone's header has no room for both: sign-up is on the login page (and in the menu).
      await expect(page.getByTestId('header-sign-up')).toBeHidden();
      await page.getByTestId('header-sign-in').click();
      await page.getByRole('link', { name: '新規登録' }).click();
    } else {
      await page.getByTestId('header-sign-up').click();
    }
    await expect(page.getByRole('heading', { name: '新規会員登録' })).toBeVisible();
    await look(page, 'signup');

    // Bad input: a message beside each field, nothing sent.
    const form = page.getByTestId('signup-form');
    await form.getByLabel('メールアドレス').fill('hana@');
    await form.getByLabel('パスワード', { exact: true }).fill('short');
    await form.getByRole('button', { name: '登録する' }).click();
    await expect(form.getByText('メールアドレスの形式が正しくありません（例：onkure@example.com）。')).toBeVisible();
    await expect(form.getByText('パスワードは8文字以上で入力してください。')).toBeVisible();
    await expect(form.getByText('利用規約への同意が必要です。')).toBeVisible();
    await expect(form.getByLabel('メールアドレス')).toHaveAttribute('aria-invalid', 'true');
    await look(page, 'signup-errors');
    await form.getByLabel('メールアドレス').fill(email);
    await form.getByLabel('パスワード', { exact: true }).fill('mochimochi123');
    await form.getByLabel('パスワード（確認）').fill('mochimochi123');
    await form.getByLabel('利用規約とプライバシーポリシーに同意します').check();
    await form.getByRole('button', { name: '登録する' }).click();

    // The code sign-up sent is asked for at once [R2.2-2].
    await expect(page).toHaveURL(/\/emailvalid\?sent=1/);
    await expect(page.getByText(`ご登録の ${email} に確認コードをお送りしました`)).toBeVisible();
    await page.getByLabel('確認コード').fill(await newestCode(page, request));
    await page.getByRole('button', { name: '確認する' }).click();
    await expect(page.getByText(`${email} の確認が完了しました`)).toBeVisible();
    await page.getByRole('link', { name: 'トップへ戻る' }).click();

    // A new player: the first-profile prompt, the new badge and the top page's guide [R4.7-1, R4.7-3].
    await expect(page.getByTestId('profile-prompt-banner')).toBeVisible();
    await expect(page.getByTestId('menu-new-badge')).toBeVisible();
    const guide = page.getByTestId('tutorial-tutorial_top');
    await expect(guide).toBeVisible();
    await look(page, 'account-new-player-top');
    await guide.getByRole('button', { name: '次の説明へ' }).click();
    await guide.getByRole('button', { name: '次の説明へ' }).click();
    await guide.getByRole('button', { name: 'はじめる' }).click();
    await expect(guide).toBeHidden();

    // The profile from the prompt: messages beside the fields, then saved; the prompt goes.
    await page.getByTestId('profile-prompt-banner').getByRole('button', { name: '登録する' }).click();
    const profile = page.getByTestId('profile-form');
    await profile.getByRole('button', { name: '保存する' }).click();
    await expect(profile.getByText('ニックネームを入力してください。')).toBeVisible();
    await expect(profile.getByText('性別を選択してください。')).toBeVisible();
    await look(page, 'profile-prompt');
    await profile.getByLabel('ニックネーム').fill(nickname);
    await profile.getByLabel('性別').selectOption('2');
    await profile.getByLabel('生年月日').fill('2001-05-20');
    await profile.getByLabel('お住まいの都道府県').selectOption('福岡県');
    await profile.getByRole('button', { name: '保存する' }).click();
    await expect(page.getByTestId('profile-prompt')).toBeHidden();
    await expect(page.getByTestId('profile-prompt-banner')).toBeHidden();

    // The menu names what is still missing; the phone check by SMS code.
    await page.getByTestId('open-menu').click();
    await expect(page.getByTestId('menu-missing')).toHaveText('未登録の項目：お届け先住所、電話番号認証');
    await look(page, 'account-menu');
    await page.getByTestId('menu-phone').click();
    const phone = page.getByTestId('phone-check-modal');
    await phone.getByLabel('電話番号').fill('0120');
    await phone.getByRole('button', { name: 'SMSを送信' }).click();
    await expect(
      phone.getByText('電話番号は10桁または11桁の数字で入力してください（例：090-1234-5678）。'),
    ).toBeVisible();
    await phone.getByLabel('電話番号').fill('080-2345-6789');
    await phone.getByRole('button', { name: 'SMSを送信' }).click();
    await phone.getByLabel('認証コード（6桁）').fill(await newestCode(page, request));
    await phone.getByRole('button', { name: '認証する' }).click();
    await expect(phone.getByTestId('phone-verified')).toContainText('08023456789');
    await look(page, 'phone-check');
    await closeModals(page);

    // A present code: free TC through the ledger, in the balance and the TC history.
    await openFromMenu(page, 'menu-present');
    const present = page.getByTestId('present-code-modal');
    await present.getByLabel('プレゼントコード').fill('welcome500');
    await present.getByRole('button', { name: '受け取る' }).click();
    await expect(present.getByTestId('present-result')).toContainText('500 TC（無償）を受け取りました。');
    await look(page, 'present-code');
    await closeModals(page);
    await expect(page.getByTestId('header-balance-amount')).toHaveText('500 TC');
    await page.getByTestId('open-menu').click();
    await page.getByRole('button', { name: 'TC利用履歴' }).click();
    await expect(page.getByRole('dialog').last().getByText('プレゼントコード')).toBeVisible();
    await closeModals(page);

    // Invite: the link and the text copied.
    await openFromMenu(page, 'menu-invite');
    const invite = page.getByTestId('invite-modal');
    const url = await invite.getByTestId('invite-url').textContent();
    expect(url).toMatch(/^https?:\/\/.+/);
    await invite.getByTestId('invite-copy').click();
    await expect(invite.getByText('コピーしました。')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(url!);
    await look(page, 'invite');
    await closeModals(page);

    // The contact form, keyboard only: through the menu and the form.
    await page.getByTestId('open-menu').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('modal-menuTop')).toBeVisible();
    await tabTo(page, 'menu-contact');
    await page.keyboard.press('Enter');
    const contact = page.getByTestId('contact-form');
    await expect(contact).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(contact.getByLabel('お問い合わせの種類')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await expect(contact.getByLabel('お問い合わせ内容')).toBeFocused();
    await page.keyboard.type('獲得した景品の発送予定を教えてください。');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(contact.getByRole('checkbox')).toBeChecked();
    await look(page, 'contact-form');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const done = page.getByTestId('contact-done');
    await expect(done).toContainText('受付番号');
    await look(page, 'contact-done');
    const who = (await sessionOf(page))!;
    const inbox = (await (await operator(request, 'support/contacts', { status: 'open' })).json()) as {
      list: { user_id: number; category: string; text: string; plays: unknown[] | null }[];
    };
    expect(inbox.list.find((c) => c.user_id === who.user_id)).toMatchObject({
      category: 'prize',
      text: '獲得した景品の発送予定を教えてください。',
    });
    await page.keyboard.press('Escape');

    // The support chat: the operator (the operator API, another client) answers live.
    await openFromMenu(page, 'menu-chat');
    const chat = page.getByTestId('chat-modal');
    await chat.getByLabel('メッセージ').fill('ねこクッションはいつ届きますか？');
    await chat.getByRole('button', { name: '送信' }).click();
    await expect(chat.getByTestId('chat-log').getByText('ねこクッションはいつ届きますか？')).toBeVisible();
    const threads = (await (await operator(request, 'support/threads', {})).json()) as {
      list: { user_id: number; waiting: number }[];
    };
    expect(threads.list.find((x) => x.user_id === who.user_id)?.waiting).toBe(1);
    const reply = await operator(request, 'support/reply', {
      user_id: who.user_id,
      text: '明日発送いたします。もうしばらくお待ちください。',
      client_id: `reply-${Date.now()}`,
    });
    expect(reply.status()).toBe(200);
    await expect(
      chat.getByTestId('chat-log').getByText('明日発送いたします。もうしばらくお待ちください。'),
    ).toBeVisible();
    await look(page, 'chat-support');
    await closeModals(page);

    // Sign out, then the password reset by e-mail code signs in again.
    await openFromMenu(page, 'menu-account');
    await expect(page.getByTestId('account-email')).toContainText(email);
    await look(page, 'account-mail');
    await page.getByTestId('sign-out').click();
    await expect(page.getByTestId('header-sign-in')).toBeVisible();
    await page.getByTestId('header-sign-in').click();
    await page.getByRole('link', { name: 'パスワードをお忘れの方' }).click();
    // The login page's own e-mail field stays until the reset page's chunk has loaded: wait for the page.
    await expect(page.getByRole('heading', { name: 'パスワードの再設定' })).toBeVisible();
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByRole('button', { name: 'コードを送信' }).click();
    await expect(page.getByTestId('reset-code-form')).toBeVisible();
    const mailbox = (await (await request.post('/api/auth/dev_mailbox', { data: { recipient: email } })).json()) as {
      list: { body: string }[];
    };
    await page.getByLabel('認証コード（6桁）').fill(/\d{6}/.exec(mailbox.list[0]!.body)![0]);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('newpass2026');
    await page.getByLabel('新しいパスワード（確認）').fill('newpass2026');
    await look(page, 'password-reset');
    await page.getByRole('button', { name: 'パスワードを再設定する' }).click();
    await expect(page.getByTestId('header-balance')).toBeVisible();

    // Deletion [R10-7]: what is lost first, then the confirmation and the password.
    await openFromMenu(page, 'menu-account');
    await page.getByTestId('open-delete').click();
    const deletion = page.getByTestId('account-delete-form');
    await expect(page.getByTestId('account-delete-preview')).toContainText('無償 500 TC');
    await deletion.getByRole('button', { name: '退会する' }).click();
    await expect(deletion.getByText('退会の確認にチェックを入れてください。')).toBeVisible();
    await look(page, 'account-delete');
    await deletion.getByLabel('上記を確認し、退会します').check();
    await deletion.getByLabel('パスワード（確認のため）').fill('newpass2026');
    await deletion.getByRole('button', { name: '退会する' }).click();
    await expect(page.getByText('退会しました。ご利用ありがとうございました。')).toBeVisible();
    await expect(page.getByTestId('header-sign-in')).toBeVisible();
    // Signing in again fails; the old token is dead.
    const login = await request.post('/api/auth/login', { data: { email, password: 'newpass2026' } });
    expect(login.status()).toBe(401);
    expect((await request.post('/api/user/tc', { data: who })).status()).toBe(401);
  });

  test('[R4.7-1] terms asked on the first sign-in, the play screen guide shown once, the e-mail address changed with a code', async ({
    page,
    request,
  }, testInfo) => {
    const project = testInfo.project.name;
    const stamp = Date.now().toString(36);
    const email = `sora-${project}-${stamp}@example.jp`;
    const newEmail = `sora-new-${project}-${stamp}@example.jp`;
    // An account made without the terms (another client's sign-up): the app asks before anything else.
    const signedUp = (await (
      await request.post('/api/auth/signup', { data: { email, password: 'sorairo2026' } })
    ).json()) as Identity & { error_code: number };
    expect(signedUp.error_code).toBe(200);
    await page.goto('/');
    await page.evaluate((who) => window.localStorage.setItem('onkure.session', JSON.stringify(who)), {
      user_id: signedUp.user_id,
      access_token: signedUp.access_token,
    });
    await page.reload();
    const terms = page.getByTestId('terms-modal');
    await expect(terms).toBeVisible();
    await expect(page.getByRole('alertdialog', { name: '利用規約への同意' })).toBeVisible();
    await look(page, 'terms');
    await terms.getByTestId('terms-agree').click();
    await expect(terms).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('tutorial-tutorial_top')).toBeVisible();
    await expect(terms).toBeHidden();
    await page.getByTestId('tutorial-tutorial_top').getByRole('button', { name: 'スキップ' }).click();

    // The play screen's guide: its steps once, then never again; the reserve button stays in view.
    const station = await stationFor(request, project === 'mobile' ? 14 : 15);
    await page.goto(`/game/${station}`);
    const guide = page.getByTestId('tutorial-tutorial_play');
    await expect(guide).toContainText('あそびかた');
    await expect(guide).toContainText('1 / 3');
    await expect(page.getByTestId('profile-prompt-banner')).toBeHidden();
    await look(page, 'tutorial-play');
    await guide.getByRole('button', { name: '次の説明へ' }).click();
    await expect(guide).toContainText('ボタンを押している間アームが動きます。');
    await guide.getByRole('button', { name: '次の説明へ' }).click();
    await guide.getByRole('button', { name: 'はじめる' }).click();
    await expect(guide).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
    await expect(guide).toBeHidden();

    // The e-mail address changed from the account modal with the code sent to the new address.
    await openFromMenu(page, 'menu-account');
    const account = page.getByTestId('account-modal');
    await expect(page.getByTestId('account-email')).toContainText(email);
    await account.getByLabel('新しいメールアドレス').fill(newEmail);
    await account.getByRole('button', { name: '確認コードを送信' }).click();
    await expect(account.getByText(`${newEmail} 宛に確認コードを送信しました。`)).toBeVisible();
    const code = await newestCode(page, request);
    await account.getByLabel('認証コード（6桁）').fill(code === '000000' ? '111111' : '000000');
    await account.getByRole('button', { name: '確認する' }).click();
    await expect(account.getByRole('alert')).toBeVisible();
    await expect(page.getByTestId('account-email')).toContainText(email);
    await account.getByLabel('認証コード（6桁）').fill(code);
    await account.getByRole('button', { name: '確認する' }).click();
    await expect(page.getByTestId('account-email')).toContainText(newEmail);
    await expect(page.getByTestId('account-email')).toHaveAttribute('data-verified', '1');
    await expect(account.getByText(`メールアドレスを ${newEmail} に変更しました。`)).toBeVisible();
    await expect(account.getByLabel('新しいメールアドレス')).toHaveValue('');
    await look(page, 'account-email-changed');
    // The new address signs in; the old one no longer does.
    expect(
      (await request.post('/api/auth/login', { data: { email: newEmail, password: 'sorairo2026' } })).status(),
    ).toBe(200);
    expect((await request.post('/api/auth/login', { data: { email, password: 'sorairo2026' } })).status()).toBe(401);
  });
});
