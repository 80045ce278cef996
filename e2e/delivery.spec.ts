import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test, waitForAppOnLoad } from './support/test';
import { seriousViolations } from './support/axe';
import { debugLogin, OPERATOR_TOKEN, playerPage, stationFor, type Identity } from './support/players';
import { playRiggedWin, rigForWin } from './support/win';

/**
 * Prizes out end to end (docs/delivery.md): the prize box with its unread mark, an address added
 * in place, a delivery request waived by the weekly ticket, a second one charged through the
 * ledger, the operator shipping it, the tracking number in the player's history; kuji parcels,
 * the order-made check, too little TC; the address modals. Prizes come from the operator's grant
 * call (the crane win itself is shown over the real station room in test/server/station-rooms).
 */

// Every test here opens several modals and looks at each with axe: 90 s each, not the default 30 s.
test.describe.configure({ timeout: 90_000 });

const operator = (request: APIRequestContext, path: string, data: object) =>
  request.post(`/api/operator/${path}`, { data, headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` } });

/** A new debug player (10,000 free TC): sign-ups are rate-limited per client. */
const debugPlayer = (request: APIRequestContext, tag: string) =>
  debugLogin(request, `${tag.slice(0, 9)}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1e3)}`);

async function grant(request: APIRequestContext, who: Identity, prize: Record<string, unknown>): Promise<number> {
  const answer = await operator(request, 'prize_grant', { user_id: who.user_id, prize_kind: 'crane', ...prize });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { play_history_id: number }).play_history_id;
}

async function look(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}-${test.info().project.name}.png` });
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * A decoded-frame count of the clip's video that keeps rising, or a clip played to its end: it
 * plays. A clip can be as short as its 3 s tail (15 pictures of the sim camera) when the recorder's
 * first keyframe came late on a loaded machine; such a clip ends at 15 and never rises past it.
 */
async function expectClipPlays(page: Page) {
  const video = page.getByTestId('clip-video');
  await expect(video).toBeVisible();
  const play = page.getByTestId('clip-play');
  if ((await play.getAttribute('data-playing')) !== 'true') await play.click();
  await expect(play).toHaveAttribute('data-playing', 'true');
  await expect
    .poll(
      () =>
        video.evaluate((v: HTMLVideoElement) => {
          const frames = v.getVideoPlaybackQuality().totalVideoFrames;
          return v.ended && frames >= 10 ? Infinity : frames;
        }),
      { timeout: 10_000 },
    )
    .toBeGreaterThan(15);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth > 0, v.currentTime > 0, v.error])).toEqual([
    true,
    true,
    null,
  ]);
}

/**
 * The play's video from the play screen's history [R11-5]: it becomes ready a few seconds after the
 * result and plays (both cameras); shared, its page opens in a signed-out browser, names the prize
 * and plays too; unshared, that page says the video cannot be seen.
 */
async function watchAndShareClip(page: Page, prizeName: string) {
  const project = test.info().project.name;
  await page.getByTestId('show-history').click();
  const link = page.getByTestId('history').getByTestId('clip-link').first();
  // Written 3 s after the result: 録画中 until then, and the modal waits for it.
  await expect(link).toHaveText(/^(動画|録画中)$/);
  await link.click();
  const modal = page.getByTestId('play-clip');
  await expect(modal).toHaveAttribute('data-state', 'clip');
  await expectClipPlays(page);
  await page.getByTestId('clip-camera-side').click();
  await expect(page.getByTestId('clip-video')).toHaveAttribute('data-camera', 'side');
  await expectClipPlays(page);
  await expect(page.getByTestId('clip-facts')).toHaveText(/^\d+秒 ・ あと30日で削除されます$/);
  // The switch shows the change at once, and is disabled until the service has answered.
  await page.getByTestId('clip-share').check();
  await expect(page.getByTestId('clip-share')).toBeEnabled();
  const shareUrl = page.getByTestId('clip-share-url');
  await expect(shareUrl).toHaveValue(/\/clip\/[A-Za-z0-9_-]{22}$/);
  await look(page, 'clip-modal');
  const url = new URL(await shareUrl.inputValue());

  // Anyone with the link, signed out, in a browser of their own.
  const guest = await page.context().browser()!.newContext({
    baseURL: url.origin,
    viewport: test.info().project.use.viewport!,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  });
  const visitor = await guest.newPage();
  waitForAppOnLoad(visitor);
  await visitor.goto(url.pathname);
  await expect(visitor.getByTestId('clip-page')).toContainText(prizeName);
  await expect(visitor).toHaveTitle(new RegExp(`「${prizeName}」ゲットの瞬間`));
  await expect(visitor.locator('meta[property="og:video"]')).toHaveAttribute('content', /\/front\.webm$/);
  await expect(visitor.getByTestId('clip-result')).toHaveText('ゲット！');
  await expectClipPlays(visitor);
  await visitor.screenshot({ path: `e2e/screenshots/clip-page-${project}.png` });
  expect(await seriousViolations(visitor)).toEqual([]);

  // Unshared: the same link shows that the video cannot be seen.
  await page.getByTestId('clip-share').uncheck();
  await expect(page.getByTestId('clip-share')).toBeEnabled();
  await expect(shareUrl).toHaveCount(0);
  await visitor.reload();
  await expect(visitor.getByTestId('clip-not-found')).toContainText('この動画は見られません');
  await guest.close();
  await modal.getByRole('button', { name: 'とじる' }).click();
  await expect(modal).toHaveCount(0);
}

async function openFromMenu(page: Page, testId: string) {
  await page.getByTestId('open-menu').click();
  await page.getByTestId(testId).click();
}

async function fillAddress(page: Page, scope: ReturnType<Page['getByTestId']>) {
  const form = scope.getByTestId('address-form');
  await form.getByLabel('姓').fill('山田');
  await form.getByLabel('名', { exact: true }).fill('花子');
  await form.getByLabel('郵便番号').fill('150-0001');
  await form.getByLabel('都道府県').selectOption('東京都');
  await form.getByLabel('市区町村').fill('渋谷区神宮前');
  await form.getByLabel('番地・建物名').fill('1-2-3 オンクレハイツ101');
  await form.getByLabel('電話番号').fill('090-1234-5678');
  await form.getByTestId('address-save').click();
}

test.describe('prizes out: the prize box, delivery and fulfilment', () => {
  test("[R4.5-1] [R11-5] a win in a play is told at once and waits in the prize box with the unread mark; the result offers the play's video, which plays in the browser, and once shared its page opens signed out", async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const station = await stationFor(request, project === 'mobile' ? 12 : 13);
    expect(station).toBeDefined();
    const rigged = await rigForWin(request, station);
    const who = await debugPlayer(request, `win${project}`);
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto(`/game/${station}`);
    await playRiggedWin(page, rigged);
    await expect(page.getByTestId('notice')).toContainText('景品を獲得しました');
    const prizeName = (await page.getByTestId('notice').textContent())!.match(/「(.+)」/)![1]!;
    // The result offers the play's video (issue 44); the history on the play screen links it too.
    await expect(page.getByTestId('result-clip')).toHaveText('この動画を見る・共有する');
    await page.getByTestId('finish').click();
    await watchAndShareClip(page, prizeName);
    await page.goto('/');
    await expect(page.getByTestId('menu-unread')).toBeAttached();
    await openFromMenu(page, 'menu-prize-box');
    const line = page.getByTestId('prize-box').getByTestId('prize-line');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(prizeName);
    await expect(line.getByTestId('prize-status')).toHaveText('未依頼');
    await expect(line.locator('img')).toHaveAttribute('src', /\/api\/images\//);
    await look(page, 'prize-box-won');
    await page.context().close();
  });

  test('[R4.5-1] [R5-3] [R9-1] [R10-4] [R3-15] [R10-6] the prize box with its mark; an address added in place; one request free by the ticket, the next charged; shipped with a tracking number', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const who = await debugPlayer(request, `dlv${project}`);
    await grant(request, who, { product_name: 'ふわもこ ねこクッション' });
    await grant(request, who, { product_name: 'ぴよぴよ ミニマスコット' });
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto('/');
    await expect(page.getByTestId('menu-unread')).toBeAttached();
    await openFromMenu(page, 'menu-prize-box');
    const box = page.getByTestId('prize-box');
    await expect(box.getByTestId('prize-line')).toHaveCount(2);
    await expect(box.getByTestId('delivery-ticket')).toHaveAttribute('data-held', '1');
    await expect(box.getByTestId('prize-keep-until').first()).toContainText('あと30日');
    await box.getByLabel('「ふわもこ ねこクッション」を発送する景品に選ぶ').check();
    await look(page, 'prize-box');

    // The first request: no address yet, one is added in place; the weekly ticket pays for it.
    await box.getByTestId('to-delivery-request').click();
    const req = page.getByTestId('delivery-request');
    await expect(req.getByText('お届け先が登録されていません。登録してください。')).toBeVisible();
    await req.getByTestId('delivery-add-address').click();
    await fillAddress(page, req);
    await expect(req.getByTestId('delivery-address')).toHaveCount(1);
    await expect(req.getByRole('radio')).toBeChecked();
    await expect(req.getByTestId('delivery-fee-waived')).toContainText('8,000TC');
    await look(page, 'delivery-request');
    await req.getByTestId('delivery-confirm').click();
    await expect(page.getByTestId('delivery-done')).toContainText('無料発送チケットを使いました');
    await expect(page.getByTestId('delivery-done')).toContainText('10,000TC');
    await look(page, 'delivery-done');
    await page.getByTestId('delivery-done').getByRole('button', { name: 'とじる' }).click();

    // The box reads its lists again: one left before, one after; the second request is charged.
    await expect(box.getByTestId('prize-line')).toHaveCount(1);
    await expect(box.getByTestId('delivery-ticket')).toHaveAttribute('data-held', '0');
    await box.getByLabel('「ぴよぴよ ミニマスコット」を発送する景品に選ぶ').check();
    await box.getByTestId('to-delivery-request').click();
    await expect(req.getByTestId('delivery-fee-amount')).toHaveText('8,000TC');
    await expect(req.getByTestId('delivery-fee')).toContainText('依頼後 2,000TC');
    await req.getByTestId('delivery-confirm').click();
    await expect(page.getByTestId('delivery-done')).toContainText('発送手数料 8,000TC');
    await expect(page.getByTestId('header-balance-amount')).toContainText('2,000');
    await page.getByTestId('delivery-done').getByRole('button', { name: 'とじる' }).click();
    await box.getByTestId('prize-tab-after').click();
    await expect(box.getByTestId('prize-line')).toHaveCount(2);
    await expect(box.getByTestId('prize-status').first()).toHaveText('発送準備中');
    await page.keyboard.press('Escape');
    await expect(box).toBeHidden();

    // The fee is in the TC used history.
    await page.getByTestId('open-menu').click();
    await page.getByRole('button', { name: 'TC利用履歴' }).click();
    await expect(page.getByTestId('tc-history').locator('tbody tr').first()).toContainText('配送料');
    await expect(page.getByTestId('tc-history').locator('tbody tr').first()).toContainText('−8,000');
    // The history is a sub-modal of the menu: Escape closes one, then the other.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The warehouse ships the paid request; the player reads the tracking number in the detail.
    const queue = (await (
      await operator(request, 'deliveries', { delivery_status: 'requested', limit: 500 })
    ).json()) as {
      list: { delivery_id: number; user_id: number; fee_tc: number }[];
    };
    const paid = queue.list.find((d) => d.user_id === who.user_id && d.fee_tc === 8_000)!;
    expect(
      (
        await operator(request, 'delivery_ship', { delivery_id: paid.delivery_id, tracking_number: '4455-6677-8899' })
      ).status(),
    ).toBe(200);
    await openFromMenu(page, 'menu-prize-box');
    // The after list shows the tracking number on the shipped prize [R3-15].
    await box.getByTestId('prize-tab-after').click();
    await expect(box.getByTestId('prize-tracking')).toHaveText('お問い合わせ番号 4455-6677-8899');
    await look(page, 'prize-box-after');
    await box.getByRole('button', { name: '発送履歴' }).click();
    const history = page.getByTestId('delivery-history');
    await expect(history.getByTestId('delivery-row')).toHaveCount(2);
    await expect(history.getByTestId('delivery-row').first()).toHaveAttribute('data-status', 'shipped');
    await history.getByTestId('delivery-row').first().getByRole('button').click();
    await expect(history.getByTestId('delivery-tracking')).toHaveText('4455-6677-8899');
    await expect(history.getByTestId('delivery-shipped-at')).not.toHaveText('-');
    await look(page, 'delivery-detail');
    // The other one is not shipped yet: '-' and a change of time slot is possible.
    await history.getByRole('button', { name: '戻る' }).click();
    await history.getByTestId('delivery-row').nth(1).getByRole('button').click();
    await expect(history.getByTestId('delivery-shipped-at')).toHaveText('-');
    await history.getByTestId('delivery-change').click();
    await history.getByLabel('お届け時間帯').selectOption('18時〜20時');
    await history.getByTestId('delivery-change-save').click();
    await expect(history.getByRole('status')).toHaveText('変更しました。');
    await expect(history.getByTestId('delivery-detail')).toContainText('18時〜20時');
    await page.context().close();
  });

  test('[R9-1] [R5-4] [R10-4] kuji prizes ship 15 to a parcel; the order-made check warns; too little TC offers the purchase modal', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const who = await debugPlayer(request, `kuj${testInfo.project.name}`);
    await grant(request, who, {
      prize_kind: 'kuji',
      product_name: 'A賞 もちもちクッション',
      kuji_name: 'ねこまる一番くじ',
      prize_count: 16,
    });
    await grant(request, who, { prize_kind: 'order_made', product_name: '似顔絵アクリルスタンド' });
    await grant(request, who, { prize_kind: 'order_made', product_name: '似顔絵アクリルスタンド' });
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto('/');
    await openFromMenu(page, 'menu-prize-box');
    const box = page.getByTestId('prize-box');
    await expect(box.getByTestId('prize-line')).toHaveCount(3);
    // One of two order-made pieces chosen: the check says one stays behind.
    await box.getByLabel('「似顔絵アクリルスタンド」を発送する景品に選ぶ').first().check();
    await expect(box.getByTestId('order-made-check')).toContainText('未発送が2個ありますが、選んでいるのは1個です');
    await box.getByLabel('「似顔絵アクリルスタンド」を発送する景品に選ぶ').first().uncheck();
    await expect(box.getByTestId('order-made-check')).toHaveCount(0);
    // 16 kuji prizes are two parcels: 16,000 TC; the ticket does not cover kuji alone; 10,000 TC is too little.
    await box.getByLabel('「A賞 もちもちクッション」を発送する景品に選ぶ').check();
    await box.getByTestId('to-delivery-request').click();
    const req = page.getByTestId('delivery-request');
    await req.getByTestId('delivery-add-address').click();
    await fillAddress(page, req);
    await expect(req.getByTestId('delivery-fee-amount')).toHaveText('16,000TC');
    await expect(req.getByTestId('delivery-need-tc')).toContainText('TCが足りません');
    await expect(req.getByTestId('delivery-confirm')).toBeDisabled();
    await look(page, 'delivery-need-tc');
    await req.getByRole('button', { name: 'TCを購入' }).click();
    await expect(page.getByTestId('modal-purchase')).toBeVisible();
    await page.context().close();
  });

  test('the address modals: register, change the main one, delete with its check', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const who = await debugPlayer(request, `adr${testInfo.project.name}`);
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto('/');
    await openFromMenu(page, 'menu-addresses');
    const list = page.getByTestId('address-list');
    await expect(list).toContainText('お届け先はまだ登録されていません。');
    await list.getByTestId('address-new').click();
    // A bad form keeps what was typed and says what is wrong, in Japanese, under each field.
    await list.getByTestId('address-save').click();
    await expect(list.getByTestId('address-form')).toContainText('郵便番号');
    await look(page, 'address-form-errors');
    // The postal code fills the prefecture and the city from Japan Post's table.
    const form = list.getByTestId('address-form');
    await form.getByLabel('郵便番号').fill('１５０－０００１');
    await expect(form.getByTestId('zip-lookup')).toContainText('郵便番号から住所を入力しました');
    await expect(form.getByLabel('都道府県')).toHaveValue('東京都');
    await expect(form.getByLabel('市区町村')).toHaveValue('渋谷区神宮前');
    await fillAddress(page, list);
    await expect(list.getByTestId('address-card')).toHaveCount(1);
    await expect(list.getByTestId('address-card')).toContainText('メイン');
    await list.getByRole('button', { name: '山田 花子様のお届け先を変更' }).click();
    await list.getByLabel('番地・建物名').fill('4-5-6 ねこまるビル2F');
    await list.getByTestId('address-save').click();
    await expect(list.getByTestId('address-card')).toContainText('ねこまるビル2F');
    await look(page, 'address-list');
    await list.getByRole('button', { name: '山田 花子様のお届け先を削除' }).click();
    await expect(list.getByTestId('address-delete')).toContainText('このお届け先を削除しますか？');
    await look(page, 'address-delete');
    await list.getByTestId('address-delete-confirm').click();
    await expect(list).toContainText('お届け先はまだ登録されていません。');
    await page.context().close();
  });
});

test('digital prizes viewed in the app, direct and pre-order prizes with their lead times', async ({
  browser,
  request,
  baseURL,
}, testInfo) => {
  const who = await debugPlayer(request, `dig${testInfo.project.name}`);
  const top = (await (
    await request.post('/api/contents/top_page_prize', { data: { shop_id: 1, is_top_page: 1 } })
  ).json()) as { sale_list: { list: { img_url: string }[] }[] };
  const picture = new URL(top.sale_list[0]!.list[0]!.img_url, baseURL).pathname;
  await grant(request, who, { prize_type: 'digital', product_name: 'ねこまる 限定壁紙', digital_url: picture });
  await grant(request, who, {
    prize_type: 'direct',
    product_name: 'もちもち抱き枕（メーカー直送）',
    add_delivery_days: 14,
  });
  await grant(request, who, {
    product_name: 'ぱんだ日和 フィギュア（予約）',
    is_reservation_delivery: 1,
    add_delivery_days: 30,
  });
  const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
  await page.goto('/');
  await openFromMenu(page, 'menu-prize-box');
  const box = page.getByTestId('prize-box');
  await expect(box.getByTestId('prize-tab-after')).toContainText('1');
  await box.getByRole('button', { name: 'デジタル景品' }).click();
  const digital = page.getByTestId('prize-kind-digital');
  await digital.getByRole('button', { name: '「ねこまる 限定壁紙」を表示' }).click();
  await expect(digital.getByRole('img', { name: 'デジタル景品「ねこまる 限定壁紙」' })).toBeVisible();
  await look(page, 'prize-digital');
  await page.keyboard.press('Escape');
  await box.getByRole('button', { name: 'メーカー直送景品' }).click();
  await expect(page.getByTestId('prize-kind-direct')).toContainText('メーカー発送まで約14日');
  await page.keyboard.press('Escape');
  await box.getByRole('button', { name: '入荷待ち景品' }).click();
  await expect(page.getByTestId('prize-kind-arrival')).toContainText('入荷予定: 発送依頼から約30日');
  await look(page, 'prize-arrival');
  await page.context().close();
});
