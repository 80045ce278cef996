import { type APIRequestContext, type FrameLocator, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { seriousViolations } from './support/axe';
import { debugLogin, playerPage, stationFor, type Identity } from './support/players';

/** A new debug player (10,000 free TC, no birth date): sign-ups are rate-limited per client. */
const debugPlayer = (request: APIRequestContext, tag: string) =>
  debugLogin(request, `${tag.slice(0, 9)}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1e3)}`);

/** A new account with no TC and no birth date, signed in through the API. */
async function newPlayer(request: APIRequestContext, tag: string): Promise<Identity> {
  const email = `${tag}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.jp`;
  const answer = (await (
    await request.post('/api/auth/signup', { data: { email, password: 'mochimochi123' } })
  ).json()) as Identity & {
    error_code: number;
  };
  expect(answer.error_code).toBe(200);
  const who = { user_id: answer.user_id, access_token: answer.access_token };
  // The sign-up page stores the terms agreement with the account; an API sign-up does it itself.
  expect((await request.post('/api/user/agree', { data: { ...who, agree_contract: 1 } })).status()).toBe(200);
  return who;
}

async function tcOf(request: APIRequestContext, who: Identity): Promise<number> {
  const answer = (await (await request.post('/api/user/tc', { data: who })).json()) as { data: { tc_all: number } };
  return answer.data.tc_all;
}

/** The provider's page now in the purchase modal's frame, opened on its own page and checked with axe. */
async function providerPageViolations(page: Page): Promise<string[]> {
  const src = await page.locator('iframe.purchase__frame').getAttribute('src');
  const own = await page.context().newPage();
  await own.goto(src!);
  const violations = await seriousViolations(own);
  await own.close();
  return violations;
}

/**
 * The buy_tc and conversion events the development collector received for `who`, sorted by name:
 * each event is its own beacon, and two beacons may reach the server in either order (CI saw
 * conversion land before buy_tc), so only which events and how many times is the app's to keep.
 */
async function purchaseEvents(request: APIRequestContext, who: Identity): Promise<[string, unknown][]> {
  const answer = await request.post('/api/dev/analytics/events', { data: { since: 0 } });
  const list = ((await answer.json()) as { list: { name: string; params: Record<string, unknown> }[] }).list;
  return list
    .filter((e) => e.params.user_id === who.user_id && (e.name === 'buy_tc' || e.name === 'conversion'))
    .map((e): [string, unknown] => [e.name, e.params.price ?? null])
    .sort(([a], [b]) => a.localeCompare(b));
}

const modal = (page: Page) => page.getByTestId('modal-purchase');
const provider = (page: Page): FrameLocator => page.frameLocator('iframe.purchase__frame');

/** The age step: the birth date once [R2.5-5]. */
async function passAgeStep(page: Page, check = false) {
  await expect(modal(page).getByTestId('purchase-age')).toBeVisible();
  if (check) {
    await page.screenshot({ path: `e2e/screenshots/purchase-age-${test.info().project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await modal(page).getByLabel('生年月日').fill('1994-07-07');
  await modal(page).getByRole('button', { name: '登録して次へ' }).click();
  await expect(modal(page).getByTestId('purchase-top')).toBeVisible();
}

/** Buys the product with `tc` TC with the chosen card method, through the provider's page in the iframe. */
async function payByCard(
  page: Page,
  method: RegExp,
  tcLabel: string,
  card: string,
  onForm: () => Promise<void> = async () => undefined,
) {
  await modal(page).getByRole('radio', { name: method }).check();
  await modal(page)
    .getByRole('button', { name: new RegExp(`^${tcLabel} .*購入する$`) })
    .click();
  await expect(modal(page).getByTestId('purchase-iframe')).toBeVisible();
  const frame = provider(page);
  await expect(frame.getByLabel('カード番号')).toBeVisible();
  await onForm();
  await frame.getByLabel('カード番号').fill(card);
  await frame.getByLabel('有効期限（月/年）').fill('12/39');
  await frame.getByLabel('セキュリティコード').fill('123');
  await frame.getByLabel('カード名義（半角英字）').fill('HANAKO YAMADA');
  await frame.getByRole('button', { name: /円を支払う$/ }).click();
}

test.describe('money in: the purchase modals and the simulated provider', () => {
  test.describe.configure({ timeout: 120_000 });

  test('[R2.5-4] [R2.5-5] [R10-2] a guest is sent to login and back; the age step first; a card purchase in the iframe adds toll + free TC to the header; the TC history lists it', async ({
    browser,
    page,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    await page.goto('/settlement');
    await expect(page).toHaveURL(/\/login\?next=%2Fsettlement$/);

    const who = await debugPlayer(request, `buyer-${project[0]}`);
    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto('/');
    await expect(player.getByTestId('header-balance-amount')).toHaveText('10,000 TC');
    await player.getByTestId('header-balance').click();
    await passAgeStep(player, true);
    await expect(modal(player).getByTestId('purchase-limit')).toHaveText('今月のご購入上限：なし');
    // Pay methods of the web build in rank order, products with their bonus labels [R3-11, R3-12, R9-6, R9-7].
    await expect(modal(player).locator('.pay-method').first()).toContainText('クレジットカード');
    await expect(modal(player).getByText('2,000ボーナス')).toBeVisible();
    await player.screenshot({ path: `e2e/screenshots/purchase-top-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);

    await payByCard(player, /^クレジットカード/, '12,000 TC', '4242 4242 4242 4242', async () => {
      await player.screenshot({ path: `e2e/screenshots/purchase-iframe-${project}.png` });
      expect(await seriousViolations(player)).toEqual([]);
      expect(await providerPageViolations(player)).toEqual([]);
    });
    await expect(modal(player).getByTestId('purchase-complete')).toBeVisible();
    await expect(modal(player).getByTestId('purchase-complete')).toContainText('12,000 TCを追加しました');
    await expect(modal(player).getByTestId('purchase-complete')).toContainText('チケット 2枚');
    await player.screenshot({ path: `e2e/screenshots/purchase-complete-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    await expect(player.getByTestId('header-balance-amount')).toHaveText('22,000 TC');
    expect(await tcOf(request, who)).toBe(22_000);
    // The free TC (the welcome grant and the bonus, credited today) ends on its 90th day [R11-7].
    // A phone's header has room for the day only; the amount is in the TC history.
    await expect(player.getByTestId('header-free-expiring')).toHaveText(
      project === 'mobile' ? /^一部\d{1,2}\/\d{1,2}まで$/ : /^うち12,000TCは\d{1,2}\/\d{1,2}まで$/,
      { useInnerText: true },
    );
    // buy_tc with the price, and conversion for the first purchase: once each.
    await expect
      .poll(() => purchaseEvents(request, who))
      .toEqual([
        ['buy_tc', 10_000],
        ['conversion', null],
      ]);
    await modal(player).getByTestId('purchase-complete').getByRole('button', { name: 'とじる' }).click();

    await player.getByTestId('open-menu').click();
    await player.getByRole('button', { name: 'TC利用履歴' }).click();
    const history = player.getByTestId('tc-history');
    await expect(history.locator('tbody tr').first()).toContainText('TC購入');
    await expect(history.locator('tbody tr').first()).toContainText('+2,000');
    await expect(history.locator('tbody tr').first()).toContainText('+10,000');
    await expect(history.locator('tbody tr').first()).toContainText(/無償TCの期限 \d{4}\/\d{2}\/\d{2}/);
    await expect(history.getByTestId('tc-free-lots').getByRole('listitem')).toHaveText([
      /^12,000TC（\d{4}\/\d{2}\/\d{2} 24:00まで）$/,
    ]);
    await player.screenshot({ path: `e2e/screenshots/tc-history-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    await player.context().close();
  });

  test('[R10-2] 3-D Secure with its challenge; a declined card reaches the error modal; a cancel the cancel modal', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const who = await debugPlayer(request, `secure-${project[0]}`);
    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto('/');
    await player.getByTestId('header-balance').click();
    await passAgeStep(player);

    await payByCard(player, /^3Dセキュア/, '500 TC', '4242424242424242');
    await expect(provider(player).getByRole('heading', { name: '本人認証（3Dセキュア）' })).toBeVisible();
    await player.screenshot({ path: `e2e/screenshots/purchase-3ds-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    expect(await providerPageViolations(player)).toEqual([]);
    await provider(player).getByLabel('認証コード').fill('000000');
    await provider(player).getByRole('button', { name: '認証する' }).click();
    await expect(provider(player).getByRole('alert')).toContainText('あと2回');
    await provider(player).getByLabel('認証コード').fill('123456');
    await provider(player).getByRole('button', { name: '認証する' }).click();
    await expect(modal(player).getByTestId('purchase-complete')).toContainText('500 TCを追加しました');
    await expect(player.getByTestId('header-balance-amount')).toHaveText('10,500 TC');

    await modal(player).getByTestId('purchase-complete').getByRole('button', { name: 'とじる' }).click();
    await player.getByTestId('header-balance').click();
    await payByCard(player, /^クレジットカード/, '500 TC', '4000 0000 0000 0002');
    await expect(modal(player).getByTestId('purchase-error')).toBeVisible();
    await expect(modal(player).getByTestId('purchase-message')).toHaveText(
      'カードが承認されませんでした。別のカードをお試しいただくか、カード会社にお問い合わせください。',
    );
    await player.screenshot({ path: `e2e/screenshots/purchase-error-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);

    await modal(player).getByRole('button', { name: '購入画面に戻る' }).click();
    await modal(player)
      .getByRole('button', { name: /^500 TC .*購入する$/ })
      .click();
    await provider(player).getByRole('button', { name: 'キャンセルしてショップに戻る' }).click();
    await expect(modal(player).getByTestId('purchase-cancel')).toBeVisible();
    await expect(modal(player).getByTestId('purchase-message')).toHaveText('お支払いはキャンセルされました。');
    await player.screenshot({ path: `e2e/screenshots/purchase-cancel-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    expect(await tcOf(request, who)).toBe(10_500);
    await player.context().close();
  });

  test('[R2.1-5] the account-based payment goes through /purchase/{slug}, the bank page and its result page', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const who = await debugPlayer(request, `bank-${project[0]}`);
    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto('/settlement');
    await passAgeStep(player);
    await modal(player)
      .getByRole('radio', { name: /口座振替決済/ })
      .check();
    await modal(player)
      .getByRole('button', { name: /^1,050 TC .*購入する$/ })
      .click();
    await expect(player).toHaveURL(/\/purchase\/account-pay\?product_id=\d+$/);
    await expect(player.getByRole('heading', { level: 1 })).toHaveText('口座振替決済でのお支払い');
    await player.getByRole('button', { name: /円を支払う$/ }).click();
    await expect(player).toHaveURL(/\/provider\/pay\/[0-9a-f-]{36}$/);
    await expect(player.getByRole('heading', { name: '口座振替決済' })).toBeVisible();
    await player.screenshot({ path: `e2e/screenshots/purchase-bank-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    await player.getByRole('button', { name: /この口座から1,000円を支払う/ }).click();
    await expect(player).toHaveURL(/\/purchase\/account-pay\/result\/[0-9a-f-]{36}$/);
    await expect(player.getByTestId('settlement-status')).toHaveText('お支払いが完了しました。');
    await player.screenshot({ path: `e2e/screenshots/purchase-result-${project}.png` });
    expect(await tcOf(request, who)).toBe(11_050);
    // A reload of the result page reports nothing more: buy_tc and conversion once per settlement.
    await player.reload();
    await expect(player.getByTestId('settlement-status')).toHaveText('お支払いが完了しました。');
    await expect
      .poll(() => purchaseEvents(request, who))
      .toEqual([
        ['buy_tc', 1000],
        ['conversion', null],
      ]);
    await player.context().close();
  });

  test('a player with no TC at a station buys from the 402 alert, stays at the station and goes on to play', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const station = await stationFor(request, project === 'mobile' ? 10 : 11);
    const who = await newPlayer(request, `short-${project}`);
    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto(`/game/${station}`);
    await player.getByTestId('reserve').click();
    await expect(player.getByTestId('dialog')).toContainText('TCが不足しています');
    await player.screenshot({ path: `e2e/screenshots/play-need-tc-${project}.png` });
    await player.getByTestId('alert-buy-tc').click();
    await passAgeStep(player);
    await payByCard(player, /^クレジットカード/, '3,300 TC', '4242424242424242');
    await expect(modal(player).getByTestId('purchase-complete')).toBeVisible();
    await modal(player).getByTestId('purchase-complete').getByRole('button', { name: 'とじる' }).click();
    await player.getByTestId('dialog').getByRole('button', { name: 'とじる' }).click();
    await expect(player).toHaveURL(new RegExp(`/game/${station}$`));
    await player.getByTestId('reserve').click();
    await expect(player.getByTestId('your-turn')).toBeVisible();
    await player.getByTestId('confirm').click();
    await expect(player.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
    const left = await tcOf(request, who);
    expect(left).toBeLessThan(3300);
    // The header's balance follows the play's charge.
    await expect(player.getByTestId('header-balance-amount')).toHaveText(`${left.toLocaleString('en-US')} TC`);
    // The play's charge is in the TC used history.
    await player.getByTestId('open-menu').click();
    await player.getByRole('button', { name: 'TC利用履歴' }).click();
    await expect(player.getByTestId('tc-history').locator('tbody tr').first()).toContainText('プレイ');
    await player.context().close();
  });

  test('[R10-3] the spending limit set in the config modal: lowering at once, raising after 24 hours; the top step shows it and refuses a dearer product', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const who = await debugPlayer(request, `limit-${project[0]}`);
    await request.post('/api/account/profile/set', { data: { ...who, profile: { birth: '1988-02-02' } } });
    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto('/');
    await player.getByTestId('open-menu').click();
    await player.getByRole('button', { name: '設定' }).click();
    const limit = player.getByTestId('spending-limit');
    await limit.getByLabel('上限金額（円）').fill('3000');
    await limit.getByRole('button', { name: '上限を設定する' }).click();
    await expect(limit.getByTestId('spending-limit-current')).toHaveText('現在の上限：3,000円');
    // Raising waits 24 hours: the limit in force stays.
    await limit.getByLabel('上限金額（円）').fill('200000');
    await limit.getByRole('button', { name: '上限を設定する' }).click();
    await expect(limit.getByTestId('spending-limit-pending')).toContainText('200,000円');
    await expect(limit.getByTestId('spending-limit-current')).toHaveText('現在の上限：3,000円');
    await player.screenshot({ path: `e2e/screenshots/spending-limit-${project}.png` });
    expect(await seriousViolations(player)).toEqual([]);
    await player.keyboard.press('Escape');
    await player.keyboard.press('Escape');

    await player.getByTestId('header-balance').click();
    await expect(modal(player).getByTestId('purchase-limit')).toContainText(
      '今月のご購入上限：3,000円（残り 3,000円）',
    );
    await modal(player)
      .getByRole('button', { name: /^5,750 TC .*購入する$/ })
      .click();
    await expect(modal(player).getByTestId('purchase-refused')).toContainText(
      'ご自身で設定した月のご購入上限（3,000円）を超えるため購入できません',
    );
    await expect(modal(player).getByTestId('purchase-iframe')).toHaveCount(0);
    await player.context().close();
  });

  test('[R2.6-4] 100,000 TC bought within 30 days turns the header logo VIP at once', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const who = await debugPlayer(request, `vip-${testInfo.project.name[0]}`);
    // One 50,000 TC purchase already paid (through the API and the provider's form, as a browser posts it).
    await request.post('/api/account/profile/set', { data: { ...who, profile: { birth: '1988-02-02' } } });
    const opened = (await (
      await request.post('/api/purchase/tc', {
        data: { ...who, purchase: { product_id: 7, pay_method: 'credit_card' } },
      })
    ).json()) as { settlement: { payment_url: string } };
    const paid = await request.post(`${opened.settlement.payment_url}/card`, {
      form: { number: '4242424242424242', expiry: '12/39', cvc: '123', holder: 'TARO SATO' },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);

    const player = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await player.goto('/');
    await expect(player.getByTestId('header-balance-amount')).toHaveText('75,000 TC');
    await expect(player.getByTestId('header-logo')).toHaveAttribute('data-logo', 'normal');
    await player.getByTestId('header-balance').click();
    await payByCard(player, /^クレジットカード/, '65,000 TC', '4242424242424242');
    await expect(modal(player).getByTestId('purchase-complete')).toBeVisible();
    await expect(player.getByTestId('header-logo')).toHaveAttribute('data-logo', 'vip');
    await expect(player.getByTestId('header-balance-amount')).toHaveText('140,000 TC');
    await player.screenshot({ path: `e2e/screenshots/purchase-vip-${testInfo.project.name}.png` });
    await player.context().close();
  });
});
