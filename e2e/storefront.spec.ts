import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { seriousViolations } from './support/axe';

/** The analytics events the development collector received after `since`. */
async function collected(
  request: APIRequestContext,
  since = 0,
): Promise<{ seq: number; name: string; params: Record<string, unknown> }[]> {
  const answer = await request.post('/api/dev/analytics/events', { data: { since } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { list: { seq: number; name: string; params: Record<string, unknown> }[] }).list;
}

async function lastSeq(request: APIRequestContext): Promise<number> {
  return (await collected(request)).at(-1)?.seq ?? 0;
}

/** Signs a fresh debug player in through the page, then goes to `next`. */
async function signInAs(page: Page, name: string, next: string): Promise<void> {
  await page.goto(`/debug/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'ユーザー名' }).fill(name);
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, '\\$&')}$`));
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('storefront', () => {
  test('[R9-2] [R7-12] the top page rows: carousel with side banner, news and new arrivals; a tab and a slide are reported to analytics', async ({
    page,
    request,
  }, testInfo) => {
    const since = await lastSeq(request);
    await page.goto('/');
    const carousel = page.getByTestId('carousel');
    await expect(carousel.getByRole('img')).toBeVisible();
    await expect(page.getByTestId('side-banner').getByRole('img')).toHaveCount(3);
    await expect(page.getByRole('heading', { name: 'お知らせ', level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: '新入荷（景品ストア）' })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/storefront-top-${testInfo.project.name}.png` });
    await page.getByRole('heading', { name: '新入荷（景品ストア）' }).scrollIntoViewIfNeeded();
    // The catalogue rows on the screen have rendered their cards (they render as they come near it).
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            [...document.querySelectorAll('.prize-card--pending')].filter((card) => {
              const box = card.getBoundingClientRect();
              return box.bottom > 0 && box.top < window.innerHeight;
            }).length,
        ),
      )
      .toBe(0);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `e2e/screenshots/storefront-rows-${testInfo.project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);

    // A tab: its listing, reported as filtering_click.
    const tab = page.getByRole('navigation', { name: 'カテゴリ' }).getByRole('link').nth(1);
    const tabName = (await tab.textContent())!;
    await tab.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tabName);
    await page.goBack();

    // The first slide opens its information page, reported as carousel_click.
    await carousel.getByRole('link').click();
    await expect(page).toHaveURL(/\/information\/autumn-festival$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('オンクレ秋まつり開催中！');
    await expect
      .poll(async () => (await collected(request, since)).map((e) => e.name))
      .toEqual(['filtering_click', 'carousel_click']);
    const events = await collected(request, since);
    expect(events[0]!.params).toMatchObject({ title_all: tabName, is_pc: 1, site_type: 1, user_id: 0, shop_id: 1 });
    expect(events[1]!.params).toMatchObject({ title: 'オンクレ秋まつり開催中', type_id: 1, is_pc: 1, site_type: 1 });
  });

  test('[R2.1-1] [R9-2] information: the list pages 100 at a time and an item opens its page; a bad tag is the 404 page', async ({
    page,
  }, testInfo) => {
    await page.goto('/information');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('お知らせ一覧');
    await expect(page.locator('.information__row')).toHaveCount(100);
    await expect(page.getByRole('navigation', { name: 'ページ送り' })).toContainText('1 / 2ページ');
    await page.screenshot({ path: `e2e/screenshots/information-list-${testInfo.project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: '次へ' }).click();
    await expect(page.locator('.information__row')).toHaveCount(23);
    await page.locator('.information__row').first().click();
    await expect(page).toHaveURL(/\/information\/[a-z0-9-]+$/);
    await expect(page.getByRole('navigation', { name: 'パンくずリスト' })).toContainText('お知らせ一覧');
    await page.screenshot({ path: `e2e/screenshots/information-detail-${testInfo.project.name}.png` });
    await page.goto('/information/No_Such');
    await expect(page.getByTestId('error-path')).toHaveText('Page Not Found /information/No_Such');
  });

  test('[R2.5-1] [R2.5-2] modals: the menu opens a search as its sub-modal; a third modal is refused and its alert shows in the search', async ({
    page,
  }, testInfo) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'メニュー' }).click();
    await page.getByTestId('modal-menuTop').getByRole('button', { name: '景品をさがす' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(2);
    await page.getByRole('searchbox', { name: 'キーワード' }).fill('存在しない景品ワード');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('inline-alert')).toHaveText(
      '条件に合う景品が見つかりませんでした。条件を変えてお試しください。',
    );
    await expect(page.getByRole('dialog')).toHaveCount(2);
    await page.screenshot({ path: `e2e/screenshots/modal-stack-${testInfo.project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    // A click in a dialog's own box (its padding) leaves it open; one on the backdrop closes the top one.
    await page.getByTestId('modal-search').click({ position: { x: 4, y: 4 } });
    await expect(page.getByRole('dialog')).toHaveCount(2);
    await page.mouse.click(4, 4);
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expect(page.getByTestId('modal-menuTop')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('[R3-17] [R7-12] title search with several params lists the matches in the modal; the word is reported as search_word', async ({
    page,
    request,
  }, testInfo) => {
    const since = await lastSeq(request);
    await page.goto('/');
    await page.getByRole('button', { name: 'メニュー' }).click();
    await page.getByRole('button', { name: 'くわしく検索' }).click();
    const form = page.getByRole('search', { name: 'くわしく検索' });
    await form.getByRole('searchbox').fill('うさぎ');
    await form.getByRole('checkbox', { name: '今すぐ遊べる台のみ' }).check();
    await expect(form.getByRole('combobox', { name: 'キャラクター' }).getByRole('option')).not.toHaveCount(1);
    await page.screenshot({ path: `e2e/screenshots/title-search-${testInfo.project.name}.png` });
    await form.getByRole('button', { name: '検索する' }).click();
    await expect(page.getByRole('heading', { name: /^検索結果 \d+件$/ })).toBeVisible();
    await expect(page.getByRole('dialog').last().getByTestId('prize-card').first()).toBeVisible();
    await expect
      .poll(async () =>
        (await collected(request, since)).filter((e) => e.name === 'search_word').map((e) => e.params.search_word),
      )
      .toEqual(['うさぎ']);
  });

  test("[R2.5-2] a card's details open the prize detail, and the footer opens the rules, the legal display and the FAQ", async ({
    page,
  }, testInfo) => {
    // Two accessibility scans of the whole top page: 28 s of the 30 s limit on a busy two-core machine.
    test.slow();
    await page.goto('/');
    const card = page.getByTestId('prize-card').first();
    const name = (await card.getByRole('heading', { level: 3 }).textContent())!;
    await card.getByRole('button', { name: `${name}の詳細` }).click();
    const detail = page.getByTestId('modal-prizeDetail');
    await expect(detail.getByRole('heading', { name })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/prize-detail-${testInfo.project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('contentinfo').getByRole('button', { name: 'よくある質問' }).click();
    await expect(page.getByTestId('modal-faq').getByRole('heading', { name: 'よくある質問', level: 2 })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/faq-${testInfo.project.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('contentinfo').getByRole('button', { name: '特定商取引法に基づく表示' }).click();
    await expect(page.getByTestId('modal-legal')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('[R2.5-2] an open modal is a history entry of its page: back closes it; closing it leaves its entry, and a second close at once stays on the page', async ({
    page,
  }) => {
    await page.goto('/');
    const tab = page.getByRole('navigation', { name: 'カテゴリ' }).getByRole('link').nth(1);
    await tab.click();
    const address = page.url();
    await expect(page).not.toHaveURL(/\/$/);
    const menu = page.getByRole('button', { name: 'メニュー' });
    const dialog = page.getByTestId('modal-menuTop');
    // Back closes the modal and stays on the page.
    await menu.click();
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toHaveCount(0);
    expect(page.url()).toBe(address);
    // Two close requests in one go (Escape's cancel event twice, before the app has re-rendered or
    // the browser has moved): the first closes the modal and goes back off its entry, the second
    // finds nothing to close.
    await menu.click();
    await expect(dialog).toBeVisible();
    await dialog.evaluate((element) => {
      for (let i = 0; i < 2; i += 1) element.dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    await expect(dialog).toHaveCount(0);
    await page.waitForFunction(() => !(window.history.state?.usr as { modalDepth?: number } | null)?.modalDepth);
    expect(page.url()).toBe(address);
    // The modals left no entries behind: the next back is the page before.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });

  test('[R2.5-6] a notice toast shows above the open modals: saving a setting in the menu', async ({
    page,
  }, testInfo) => {
    await signInAs(page, unique('toast'), '/');
    await page.getByRole('button', { name: 'メニュー' }).click();
    await page.getByTestId('modal-menuTop').getByRole('button', { name: '設定' }).click();
    await page.getByTestId('modal-config').getByRole('checkbox', { name: 'サウンド' }).click();
    const toast = page.getByTestId('toast');
    await expect(toast).toHaveText('設定を保存しました');
    // The modals are in the browser's top layer: the toast is drawn there too, after them.
    expect(await toast.evaluate((element) => element.matches(':popover-open'))).toBe(true);
    await page.screenshot({ path: `e2e/screenshots/modal-toast-${testInfo.project.name}.png` });
  });

  test('keyboard only: tab to the menu, open it, move inside it, close it with Escape and land back on the menu button; then change the carousel slide', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('carousel').getByRole('img')).toBeVisible();
    const menu = page.getByRole('button', { name: 'メニュー' });
    for (let i = 0; i < 10 && !(await menu.evaluate((el) => el === document.activeElement)); i += 1)
      await page.keyboard.press('Tab');
    await expect(menu).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('modal-menuTop');
    await expect(dialog).toBeVisible();
    const focusInDialog = () =>
      page.evaluate(() => document.querySelector('[data-testid=modal-menuTop]')!.contains(document.activeElement));
    await page.keyboard.press('Tab');
    expect(await focusInDialog()).toBe(true);
    // However far one tabs, the focus goes round the dialog's controls and never reaches the page
    // behind it (past the last control it is on the browser's own, with nothing in the page focused).
    const stops = new Set<string>();
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const active = document.activeElement;
        if (active === null || active === document.body) return 'browser';
        return document.querySelector('[data-testid=modal-menuTop]')!.contains(active) ? 'dialog' : 'page';
      });
      stops.add(stop);
    }
    expect(stops.has('page')).toBe(false);
    expect(stops.has('dialog')).toBe(true);
    for (let i = 0; i < 2 && !(await focusInDialog()); i += 1) await page.keyboard.press('Tab');
    expect(await focusInDialog()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(menu).toBeFocused();

    const next = page.getByRole('button', { name: '次のピックアップ' });
    for (let i = 0; i < 15 && !(await next.evaluate((el) => el === document.activeElement)); i += 1)
      await page.keyboard.press('Tab');
    await expect(next).toBeFocused();
    await expect(page.locator('.carousel__position')).toHaveText('1 / 5');
    await page.keyboard.press('Enter');
    await expect(page.locator('.carousel__position')).toHaveText('2 / 5');
  });

  test('[R2.6-3] [R2.6-5] [R2.5-3] the error page: home link to the top, and the footer company logo asks before opening the corporate site in a new tab', async ({
    page,
    context,
  }, testInfo) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません。');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('contentinfo').getByRole('button', { name: '運営会社' }).click();
    await expect(page.getByRole('alertdialog')).toContainText(
      '運営会社のサイトを新しいタブで開きます。よろしいですか？',
    );
    await page.screenshot({ path: `e2e/screenshots/error-page-corporate-${testInfo.project.name}.png` });
    // No network here: the corporate site answers from the test.
    await context.route('https://corp.onkure.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>corp</title>' }),
    );
    const popup = context.waitForEvent('page');
    await page.getByRole('alertdialog').getByRole('button', { name: '開く' }).click();
    const tab = await popup;
    await tab.waitForLoadState();
    expect(tab.url()).toMatch(/^https:\/\/corp\.onkure\.example\/?$/);
    await page.getByTestId('home-link').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('prize-card').first()).toBeVisible();
  });

  test('[R2.2-2] /emailvalid: a guest goes to the top; a new player verifies the address with the code from the outbox', async ({
    page,
  }, testInfo) => {
    await page.goto('/emailvalid');
    await expect(page).toHaveURL(/\/$/);
    await signInAs(page, unique('mail'), '/emailvalid');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールアドレスの確認');
    const address = `${unique('m')}@example.jp`;
    await page.getByRole('textbox', { name: 'メールアドレス' }).fill(address);
    await page.getByRole('button', { name: '確認コードを送る' }).click();
    await expect(page.getByText(`${address} に確認コードを送りました`, { exact: false })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/emailvalid-${testInfo.project.name}.png` });
    const code = await page.evaluate(async () => {
      const identity = JSON.parse(localStorage.getItem('onkure.session')!) as { user_id: number; access_token: string };
      const answer = await fetch('/api/auth/dev_outbox', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(identity),
      });
      const body = (await answer.json()) as { list: { body: string }[] };
      return /(\d{6})/.exec(body.list[0]!.body)![1]!;
    });
    await page.getByRole('textbox', { name: '確認コード' }).fill(code);
    await page.getByRole('button', { name: '確認する' }).click();
    await expect(page.getByText(`${address} の確認が完了しました。`, { exact: false })).toBeVisible();
  });

  test("[R2.1-1] the arrival-items page lists the store's new arrivals", async ({ page }, testInfo) => {
    await page.goto('/arrival-items');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('新入荷景品');
    await expect(page.locator('.arrival-card').first()).toBeVisible();
    expect(await page.locator('.arrival-card').count()).toBeLessThanOrEqual(50);
    await page.screenshot({ path: `e2e/screenshots/arrival-items-${testInfo.project.name}.png` });
  });
});
