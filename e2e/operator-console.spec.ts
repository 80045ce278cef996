import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { debugLogin, hold, playerPage, stationFor, type Identity, tcOf } from './support/players';
import {
  consoleConfirm,
  consoleOpen,
  consoleSignIn,
  floorCard,
  operatorAccount,
  stillNotPublishedYet,
} from './support/console';

/** A fresh operator account (the logins are unique per project and run). */
const account = (request: APIRequestContext, role: 'admin' | 'floor' | 'support') =>
  operatorAccount(request, role, test.info().project.name.slice(0, 1));

/**
 * The operator console at /operator (docs/operator-console.md, R10-9), used as an operator would:
 * through real sign-in with accounts made by the development-only call, never the shared dev token.
 * Each screen is checked with axe (its default rules, every impact) and photographed at the
 * project's size (390×844 and 1280×800).
 */

test.describe.configure({ timeout: 90_000 });

/**
 * Console errors of the page (besides the fixture's CSP and hydration checks), and every failed
 * load that is not an API refusal the test expects (the browser logs each refused fetch as
 * "Failed to load resource": those are checked by URL instead).
 */
function consoleErrors(page: Page, expectedRefusals: RegExp = /\/api\/operator\/login$/): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (stillNotPublishedYet(r.status(), path)) return;
    if (r.status() >= 400 && !expectedRefusals.test(path)) errors.push(`${r.status()} ${path}`);
  });
  return errors;
}

async function look(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${name}`,
  ).toEqual([]);
  await page.screenshot({ path: `e2e/screenshots/operator-${name}-${test.info().project.name}.png` });
}

test('the console page carries the strict CSP, signs in with the server’s words on a bad password, keeps the token out of cookies', async ({
  page,
  request,
}) => {
  const errors = consoleErrors(page);
  const login = await account(request, 'admin');
  const response = await page.goto('/operator');
  const csp = response!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(response!.headers()['x-content-type-options']).toBe('nosniff');
  await expect(page.getByRole('heading', { name: 'サインイン' })).toBeVisible();
  await look(page, 'signin');

  await consoleSignIn(page, login, 'not-the-password');
  await expect(page.getByTestId('op-signin-error')).toHaveText('ログインIDまたはパスワードが正しくありません。');
  await look(page, 'signin-error');

  await consoleSignIn(page, login);
  await expect(page.getByTestId('op-who')).toContainText('E2E admin（管理者）');
  const token = await page.evaluate(() => sessionStorage.getItem('onkure.operator.session'));
  expect(token).toBeTruthy();
  expect(await page.evaluate(() => document.cookie)).not.toContain(token!);
  // A reload keeps the session (sessionStorage), sign-out ends it on the server.
  await page.reload();
  await expect(page.getByTestId('op-who')).toBeVisible();
  await page.getByRole('button', { name: 'サインアウト' }).click();
  await consoleConfirm(page);
  await expect(page.getByRole('heading', { name: 'サインイン' })).toBeVisible();
  const after = await request.post('/api/operator/me', {
    data: {},
    headers: { 'x-operator-authorization': `Bearer ${token}` },
  });
  expect(after.status()).toBe(403);
  expect(errors).toEqual([]);
});

/** A player with a support chat message and a contact waiting. */
async function playerAsking(request: APIRequestContext): Promise<Identity> {
  const who = await debugLogin(request, `e2ecs${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1e3)}`);
  const chat = await request.post('/api/support/chat/send', {
    data: { ...who, chat: { text: '景品が届きません。確認をお願いします。', client_id: `e2e-chat-${Date.now()}` } },
  });
  expect(chat.status(), await chat.text()).toBe(200);
  const contact = await request.post('/api/support/contact', {
    data: { ...who, contact: { category: 'delivery', text: '発送状況を教えてください。', attach_play: 0 } },
  });
  expect(contact.status(), await contact.text()).toBe(200);
  return who;
}

test('an admin answers a player in support, messages and suspends them, runs an emergency, and each action appears in the audit log', async ({
  page,
  request,
}) => {
  const errors = consoleErrors(page);
  const login = await account(request, 'admin');
  const player = await playerAsking(request);
  await page.goto('/operator/support');
  await consoleSignIn(page, login);
  await expect(page.getByRole('heading', { level: 1, name: 'サポート' })).toBeVisible();

  // サポート: reply to the player's chat and close their contact, each confirmed and answered.
  const thread = page.getByTestId('op-thread').filter({ hasText: `#${player.user_id}` });
  await thread.getByRole('button', { name: 'スレッドを開く' }).click();
  await expect(page.getByTestId('op-thread-open')).toContainText('景品が届きません');
  await page.getByLabel('返信内容').fill('確認いたします。少々お待ちください。');
  await page.getByTestId('op-thread-open').getByRole('button', { name: '送信' }).click();
  await expect(page.getByTestId('op-outcome')).toContainText('返信しました。');
  await expect(page.getByTestId('op-thread-open')).toContainText('確認いたします。');
  const contact = page.getByTestId('op-contact').filter({ hasText: `ユーザー #${player.user_id}` });
  await contact.getByRole('button', { name: '対応済みにする' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText('対応済みにしました。');
  await expect(contact).toHaveCount(0);
  await look(page, 'support');
  // The player sees the reply in their chat.
  const chat = await request.post('/api/support/chat/list', { data: { ...player, chat: {} } });
  expect(JSON.stringify(await chat.json())).toContain('確認いたします。');

  await consoleOpen(page, '発送');
  await expect(page.getByRole('status').filter({ hasText: '読み込み中' })).toHaveCount(0);
  await look(page, 'fulfilment');

  // お知らせ・ユーザー: the player looked up, told to reload, suspended and restored; an emergency
  // maintenance started for everyone and ended.
  await consoleOpen(page, 'お知らせ・ユーザー');
  await page.getByLabel('ユーザーID').fill(String(player.user_id));
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page.getByTestId('op-user-status')).toHaveText('利用可能');
  const userCard = page.getByTestId('op-user');
  await userCard.getByLabel('種類').selectOption('reloaderror');
  await userCard.getByRole('button', { name: '送信' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText(/\d+ 件の接続に届きました。/);
  await userCard.getByRole('button', { name: '利用停止にする' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-user-status')).toHaveText('利用停止中');
  const refused = await request.post('/api/user/tc', { data: player });
  expect(((await refused.json()) as { error_code: number }).error_code).toBe(9002);
  await look(page, 'users');
  await userCard.getByRole('button', { name: '利用停止を解除' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-user-status')).toHaveText('利用可能');
  const broadcast = page.getByRole('form', { name: '全員へのお知らせ' });
  await broadcast.getByLabel('種類').selectOption('emergency');
  await broadcast.getByLabel('補足（任意、200文字まで）').fill('ただいま点検中です');
  await broadcast.getByRole('button', { name: '全員に送信' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText('件の接続に届きました。');
  await expect(page.getByTestId('op-emergency')).toContainText('ただいま点検中です');
  await page.getByRole('button', { name: '緊急メンテナンスを終了' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-emergency')).toHaveText('緊急メンテナンスは行っていません。');

  // 監査ログ: this operator's actions.
  await consoleOpen(page, '監査ログ');
  await page.getByLabel('オペレーターのログインID').fill(login);
  await page.getByRole('button', { name: '絞り込み' }).click();
  const rows = page.getByTestId('op-audit-row');
  await expect(rows.filter({ hasText: 'operator/support/reply' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/support/contact_close' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/user_status' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'operator/broadcast' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/emergency_end' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/login' }).first()).toBeVisible();
  await expect(rows.filter({ hasNotText: login })).toHaveCount(0);
  await look(page, 'audit');
  expect(errors).toEqual([]);
});

test('an admin watches a play live on the floor, ends one with a refund, replays another, and opens every screen', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // The longest flow of the suite (≈ 80 s): the console is an office tool, run at the desktop size;
  // its sign-in, support, fulfilment, users and audit screens are photographed at the phone size
  // (and checked with axe) by the tests above.
  test.skip(test.info().project.name !== 'desktop', 'the console flow runs in the desktop project only');
  test.setTimeout(150_000);
  const errors = consoleErrors(page, /\/api\/operator\/login$/);
  const project = test.info().project.name;
  const [ended, replayed] =
    project === 'mobile'
      ? [await stationFor(request, 8), await stationFor(request, 9)]
      : [await stationFor(request, 10), await stationFor(request, 11)];
  const login = await account(request, 'admin');
  await page.goto('/operator');
  await consoleSignIn(page, login);
  await expect(page).toHaveURL(/\/operator\/floor$/);
  await expect(page.getByTestId('op-station').first()).toBeVisible();
  await expect(page.getByTestId('op-floor-live')).toHaveText('ライブ更新中');
  const cardOf = (stationId: number) => floorCard(page, stationId);

  // A player starts a play: the floor shows it by push, with its phase and a ticking timer.
  const player = await debugLogin(request, `e2eop${project.slice(0, 1)}${Date.now().toString(36).slice(-6)}`);
  const a = await playerPage(browser, baseURL!, player, test.info().project.use.viewport!);
  await a.goto(`/game/${ended}`);
  const before = await tcOf(request, player);
  await a.getByTestId('reserve').click();
  await a.getByTestId('confirm').click();
  await expect(a.getByTestId('button-right')).toBeEnabled({ timeout: 15_000 });
  const card = cardOf(ended);
  await expect(card).toContainText('プレイ中', { timeout: 10_000 });
  await expect(card).toContainText(`（プレイ #`);
  const total = await page.getByTestId('op-station').count();
  await page.getByLabel('プレイ中・待ちあり・営業外の台だけ表示').check();
  await expect(card).toBeVisible();
  expect(await page.getByTestId('op-station').count()).toBeLessThan(total);
  await card.scrollIntoViewIfNeeded();
  await look(page, 'floor');
  await page.getByLabel('プレイ中・待ちあり・営業外の台だけ表示').uncheck();

  // End it with a refund, confirmed in the dialog: the refunded play is named, the player repaid once.
  await card.getByText('操作', { exact: true }).click();
  await card.getByRole('button', { name: 'プレイを終了して返金' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText(/プレイ #\d+ を返金しました。/);
  await expect(card).toContainText('プレイなし');
  await expect.poll(() => tcOf(request, player)).toBe(before);

  // A restock through its dialog.
  await card.getByLabel('在庫数').first().fill('12');
  await card.getByRole('button', { name: '在庫を設定' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText('在庫を設定しました。');

  // The player plays another station to the end; its logged play is replayed in the browser.
  await a.goto(`/game/${replayed}`);
  await a.getByTestId('reserve').click();
  await a.getByTestId('confirm').click();
  await expect(a.getByTestId('button-right')).toBeEnabled({ timeout: 15_000 });
  await hold(a, 'button-right', 800);
  await hold(a, 'button-back', 600);
  await expect(a.getByTestId('result')).toBeVisible({ timeout: 30_000 });
  // The result's window ticks down on the floor, from the play's ms_left.
  const timer = cardOf(replayed).getByRole('timer');
  await expect(timer).toHaveText(/残り \d+ 秒/, { timeout: 10_000 });
  const shown = await timer.textContent();
  await expect(timer).not.toHaveText(shown!, { timeout: 5_000 });
  await a.getByTestId('finish').click();
  await a.context().close();
  const other = cardOf(replayed);
  await other.getByText('操作', { exact: true }).click();
  await other.getByRole('button', { name: 'プレイログ' }).click();
  const log = page.getByTestId('op-playlog');
  await expect(log.getByTestId('op-playlog-row')).toHaveCount(1);
  await log.getByRole('button', { name: /を再現$/ }).click();
  await expect(log.getByTestId('op-replayed')).toContainText('記録と一致');
  await expect(log.getByRole('img', { name: /アームの軌跡/ })).toBeVisible();
  await log.scrollIntoViewIfNeeded();
  await look(page, 'playlog');

  // The chute sees a prize after that play's result (the development-only stand-in for the sensor):
  // the card shows it by push, with the play and its player; given to the player, it leaves the card.
  const history = (await (await request.post('/api/v2/play/history', { data: player })).json()) as {
    history: { list: { play_id: number }[] };
  };
  const late = history.history.list[0]!.play_id;
  expect((await request.post('/api/dev/chute_prize', { data: { station_id: replayed, play_id: late } })).ok()).toBe(
    true,
  );
  const stray = other.getByTestId('op-stray-prizes');
  await expect(stray).toContainText('プレイ外の落下景品 1件');
  await expect(stray.getByTestId('op-stray-prize')).toContainText(`プレイ #${late}`);
  await stray.scrollIntoViewIfNeeded();
  await look(page, 'stray-prize');
  await stray.getByRole('button', { name: /お客様に渡す/ }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText('景品をお客様の獲得景品に入れました。');
  await expect(other.getByTestId('op-stray-prizes')).toHaveCount(0);

  for (const [section, name] of [
    ['お知らせ・ユーザー', 'messages'],
    ['くじ', 'kuji'],
    ['数字', 'numbers'],
  ] as const) {
    await consoleOpen(page, section);
    await expect(page.getByRole('status').filter({ hasText: '読み込み中' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await look(page, name);
  }
  await expect(page.getByTestId('op-numbers')).toContainText(`#${replayed} `);

  // くじ: end a box's sale through its dialog; its seed is published and checks in the browser.
  await consoleOpen(page, 'くじ');
  const box = page
    .getByTestId('op-kuji-box')
    .filter({ has: page.getByRole('button', { name: '販売終了にする' }) })
    .first();
  const boxTitle = (await box.getByRole('heading').textContent())!;
  await box.getByRole('button', { name: '販売終了にする' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText('状態を変更しました。');
  const endedBox = page.getByTestId('op-kuji-box').filter({ has: page.getByRole('heading', { name: boxTitle }) });
  await expect(endedBox.getByTestId('op-kuji-status')).toHaveText('販売終了');
  await endedBox.getByRole('button', { name: 'シードを検証' }).click();
  await expect(endedBox.getByTestId('op-kuji-check')).toHaveText(
    '検証成功：シードから導いた並び順は公開済みのコミットメントと一致します。',
  );

  await consoleOpen(page, '監査ログ');
  await page.getByLabel('オペレーターのログインID').fill(login);
  await page.getByRole('button', { name: '絞り込み' }).click();
  const rows = page.getByTestId('op-audit-row');
  await expect(rows.filter({ hasText: 'operator/end_play' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/restock' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/kuji_box_status' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/stray_prize' })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('an admin ships one delivery with a tracking number and cancels another with its refund', async ({
  page,
  request,
}) => {
  const errors = consoleErrors(page);
  const login = await account(request, 'admin');
  await page.goto('/operator/fulfilment');
  await consoleSignIn(page, login);
  await expect(page.getByRole('heading', { level: 1, name: '発送' })).toBeVisible();
  const token = await page.evaluate(() => sessionStorage.getItem('onkure.operator.session'));
  // A player with two prizes (granted with this operator's own session) asks for two deliveries.
  const player = await debugLogin(
    request,
    `e2esh${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1e3)}`,
  );
  const address = await request.post('/api/account/address/register', {
    data: {
      ...player,
      address: {
        last_name: '山田',
        first_name: '花子',
        zip: '150-0001',
        address1: '東京都',
        address2: '渋谷区神宮前1-2-3',
        address3: 'オンクレハイツ101',
        tel: '090-1234-5678',
        email: 'hanako@example.jp',
      },
    },
  });
  expect(address.status(), await address.text()).toBe(200);
  const addressId = ((await address.json()) as { address: { id: number } }).address.id;
  const deliveryIds: number[] = [];
  for (const product of ['ふわもこ ねこクッション', 'ぴよぴよ ミニマスコット']) {
    const grant = await request.post('/api/operator/prize_grant', {
      data: { user_id: player.user_id, prize_kind: 'crane', product_name: product },
      headers: { 'x-operator-authorization': `Bearer ${token}` },
    });
    expect(grant.status(), await grant.text()).toBe(200);
    const prize = ((await grant.json()) as { play_history_id: number }).play_history_id;
    const asked = await request.post('/api/delivery/request', {
      data: {
        ...player,
        delivery_request: {
          request_id: `e2e-${player.user_id}-${prize}-req`,
          play_history_ids: [prize],
          address_id: addressId,
        },
      },
    });
    expect(asked.status(), await asked.text()).toBe(200);
    deliveryIds.push(((await asked.json()) as { delivery: { delivery_id: number } }).delivery.delivery_id);
  }
  const balance = () => tcOf(request, player);
  const before = await balance();

  await page.getByRole('button', { name: '再読み込み' }).click();
  const shipCard = page.getByTestId('op-delivery').filter({ hasText: `発送 #${deliveryIds[0]}` });
  await expect(shipCard).toContainText('ふわもこ ねこクッション');
  await shipCard.getByLabel('追跡番号').fill('1234-5678-9012');
  await shipCard.getByRole('button', { name: '発送済みにする' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText(`発送 #${deliveryIds[0]} を発送済みにしました。`);
  await expect(shipCard).toHaveCount(0);

  const cancelCard = page.getByTestId('op-delivery').filter({ hasText: `発送 #${deliveryIds[1]}` });
  await cancelCard.getByLabel('キャンセルの理由').fill('在庫切れのため');
  await cancelCard.getByRole('button', { name: 'キャンセルして返金' }).click();
  await consoleConfirm(page);
  await expect(page.getByTestId('op-outcome')).toContainText(`発送 #${deliveryIds[1]} をキャンセルしました。`);
  expect(await balance()).toBeGreaterThanOrEqual(before);

  await page.getByLabel('表示する状態').selectOption('shipped');
  await expect(page.getByTestId('op-delivery').filter({ hasText: `発送 #${deliveryIds[0]}` })).toContainText(
    '1234-5678-9012',
  );
  await look(page, 'fulfilment-shipped');
  // The player's history has the tracking number.
  const list = await request.post('/api/delivery/list', { data: player });
  expect(JSON.stringify(await list.json())).toContain('1234-5678-9012');
  // Both steps are in the audit log with the delivery's status before and after.
  await consoleOpen(page, '監査ログ');
  await page.getByLabel('オペレーターのログインID').fill(login);
  await page.getByRole('button', { name: '絞り込み' }).click();
  const rows = page.getByTestId('op-audit-row');
  await expect(rows.filter({ hasText: 'operator/delivery_ship' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'operator/delivery_ship' })).toContainText('1234-5678-9012');
  await expect(rows.filter({ hasText: 'operator/delivery_cancel' })).toHaveCount(1);

  // お金の照合: today's money reconciled on demand, each source side by side (the fees just taken and given back among them).
  await consoleOpen(page, 'お金の照合');
  const today = await page.evaluate(() =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date()),
  );
  await page.getByLabel('日付').fill(today);
  await page.getByTestId('op-money-run').click();
  await expect(page.getByTestId('op-money-ran-at')).toContainText('照合: ');
  await expect(page.getByTestId('op-money-sources')).toContainText(`${today} のお金`);
  await expect(page.getByTestId('op-money-sources').getByRole('row')).toHaveCount(7);
  await expect(page.getByRole('button', { name: new RegExp(`^${today}: (一致|不一致 \\d+件)$`) })).toBeVisible();
  await look(page, 'money');
  expect(errors).toEqual([]);
});

test('a floor account does not see the users section and is refused it by the server', async ({ page, request }) => {
  const errors = consoleErrors(page);
  const login = await account(request, 'floor');
  await page.goto('/operator');
  await consoleSignIn(page, login);
  await expect(page.getByTestId('op-who')).toContainText('（フロア）');
  const menu = page.getByRole('button', { name: 'メニュー' });
  if (await menu.isVisible()) await menu.click();
  const nav = page.getByRole('navigation', { name: 'コンソールのメニュー' });
  await expect(nav.getByRole('link', { name: 'フロア' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'お知らせ・ユーザー' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: '監査ログ' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: '発送' })).toHaveCount(0);
  // Typed in by hand, the section says it is not allowed; the server refuses the call anyway.
  await page.goto('/operator/messages');
  await expect(page.getByTestId('op-not-allowed')).toHaveText('この画面を使う権限がありません。');
  await look(page, 'floor-role-refused');
  const token = await page.evaluate(() => sessionStorage.getItem('onkure.operator.session'));
  for (const [path, data] of [
    ['operator/user_status', { user_id: 1, suspended: true }],
    ['operator/audit', {}],
  ] as const) {
    const res = await request.post(`/api/${path}`, {
      data,
      headers: { 'x-operator-authorization': `Bearer ${token}` },
    });
    expect(res.status(), path).toBe(403);
    expect(((await res.json()) as { error_info: string }).error_info).toBe('この操作を行う権限がありません。');
  }
  expect(errors).toEqual([]);
});
