import { expect, test, waitForAppOnLoad } from './support/test';
import { seriousViolations } from './support/axe';
import {
  debugLogin,
  expectTapsPassThrough,
  hold,
  OPERATOR_TOKEN,
  playerPage,
  stationFor,
  tcOf,
} from './support/players';

/**
 * The play loop end to end: the built app in Chromium against the reference server, real time,
 * two players in two browser contexts. Each project (mobile, desktop) plays its own station.
 */

test.describe('stations: watch, wait in line, play, result', () => {
  test.describe.configure({ timeout: 120_000 });

  test("A reserves and plays while B waits and sees its place change by push; A's result is recorded and B gets the turn", async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const viewport = testInfo.project.use.viewport!;
    const station = await stationFor(request, project === 'mobile' ? 0 : 1);
    const alice = await debugLogin(request, `alice-${project}`);
    const bob = await debugLogin(request, `bob-${project}`);
    const a = await playerPage(browser, baseURL!, alice, viewport);
    const b = await playerPage(browser, baseURL!, bob, viewport);
    await a.goto(`/game/${station}`);
    await b.goto(`/game/${station}`);
    // Both watch the machine as spectators (the station's HLS, issue 44).
    await expect(a.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
    await expect(b.getByTestId('viewers')).toContainText('人が視聴中');

    await a.getByTestId('reserve').click();
    await expect(a.getByTestId('your-turn')).toContainText('あなたの番です！');
    // Her turn: she watches in real time, in the service's default mode (jpg in e2e).
    await expect(a.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'jpg');
    await expect(a.locator('.cameras__still').first()).toBeVisible();
    await b.getByTestId('reserve').click();
    await expect(b.getByTestId('in-line')).toHaveAttribute('data-place', '2');
    await expect(b.getByTestId('in-line')).toContainText('あなたは2番目です');

    const before = await tcOf(request, alice);
    await a.getByTestId('confirm').click();
    await expect(a.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
    await expect(a.getByTestId('button-right')).toBeEnabled();
    await a.screenshot({ path: `e2e/screenshots/play-screen-${project}.png` });
    await hold(a, 'button-right', 900);
    await expect(a.getByTestId('latency')).toContainText(/操作→映像 \d+ms/);
    await hold(a, 'button-back', 700);
    await expect(a.getByTestId('result')).toBeVisible({ timeout: 20_000 });
    await a.screenshot({ path: `e2e/screenshots/play-result-${project}.png` });
    const result = await a.getByTestId('result').getAttribute('data-result');
    expect(['win', 'miss']).toContain(result);
    expect(await tcOf(request, alice)).toBe(
      before -
        (
          (await (
            await request.post('/api/contents/prize', { data: { shop_id: 1, prize: { station_id: station } } })
          ).json()) as { prize: { play_price: number }[] }
        ).prize[0]!.play_price,
    );

    // The play is in A's log with everything that decided it.
    await a.getByTestId('show-history').click();
    await expect(a.getByTestId('history').locator('li').first()).toContainText(/シード\d+/);

    await a.getByTestId('finish').click();
    // B's place changes by push: the turn is B's now.
    await expect(b.getByTestId('your-turn')).toBeVisible({ timeout: 10_000 });
    await expect(b.getByTestId('notice')).toContainText('あなたの番です');
    await expectTapsPassThrough(b.getByTestId('notice'));
    await b.screenshot({ path: `e2e/screenshots/play-your-turn-${project}.png` });
    await b.getByText('予約を取り消す').click();
    await expect(b.getByTestId('reserve')).toBeVisible();
    await a.context().close();
    await b.context().close();
  });

  test('A closes the page mid-play, comes back within the grace window and finishes the same play', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const viewport = testInfo.project.use.viewport!;
    const station = await stationFor(request, project === 'mobile' ? 2 : 3);
    const alice = await debugLogin(request, `carol-${project}`);
    const a = await playerPage(browser, baseURL!, alice, viewport);
    await a.goto(`/game/${station}`);
    await a.getByTestId('reserve').click();
    await a.getByTestId('confirm').click();
    await expect(a.getByTestId('button-right')).toBeEnabled({ timeout: 10_000 });
    await hold(a, 'button-right', 600);
    await a.close();
    const back = await a.context().newPage();
    waitForAppOnLoad(back);
    await back.goto(`/game/${station}`);
    // The same play, waiting for button ② where the claw stopped.
    await expect(back.getByTestId('button-back')).toBeEnabled({ timeout: 10_000 });
    await hold(back, 'button-back', 500);
    await expect(back.getByTestId('result')).toBeVisible({ timeout: 20_000 });
    const history = (await (await request.post('/api/v2/play/history', { data: alice })).json()) as {
      history: { list: { inputs: { button: string; command: string }[] }[] };
    };
    expect(history.history.list).toHaveLength(1);
    expect(history.history.list[0]!.inputs.map((i) => `${i.button}:${i.command}`)).toEqual([
      'right:press',
      'right:release',
      'back:press',
      'back:release',
    ]);
    await back.getByTestId('finish').click();
    await a.context().close();
  });

  test('an injected fault mid-play refunds the play once and tells the player', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const viewport = testInfo.project.use.viewport!;
    const station = await stationFor(request, project === 'mobile' ? 4 : 5);
    const alice = await debugLogin(request, `dave-${project}`);
    const a = await playerPage(browser, baseURL!, alice, viewport);
    await a.goto(`/game/${station}`);
    const before = await tcOf(request, alice);
    await a.getByTestId('reserve').click();
    await a.getByTestId('confirm').click();
    await expect(a.getByTestId('button-right')).toBeEnabled({ timeout: 10_000 });
    expect(await tcOf(request, alice)).toBeLessThan(before);
    const fault = await request.post('/api/operator/fault', {
      data: { station_id: station },
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(((await fault.json()) as { station: { refunded_play_id: number | null } }).station.refunded_play_id).toEqual(
      expect.any(Number),
    );
    await expect(a.getByTestId('dialog')).toContainText('消費したTCはお返ししています');
    await a.screenshot({ path: `e2e/screenshots/play-refunded-${project}.png` });
    expect(await tcOf(request, alice)).toBe(before);
    // A second fault changes nothing.
    await request.post('/api/operator/fault', {
      data: { station_id: station },
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(await tcOf(request, alice)).toBe(before);
    await request.post('/api/operator/station_status', {
      data: { station_id: station, station_status: 'open' },
      headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
    });
    await a.context().close();
  });

  test('a guest who presses reserve is asked to sign in and led to the login page; the play screen has no serious accessibility violations; a player with TC reserves', async ({
    page,
    request,
  }, testInfo) => {
    const station = await stationFor(request, 7);
    await page.goto(`/game/${station}`);
    await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'hls');
    await page.getByTestId('reserve').click();
    await expect(page.getByTestId('dialog')).toContainText('プレイするにはログインしてください。');
    await expect(page.getByRole('alertdialog', { name: 'プレイするにはログインしてください。' })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/play-guest-${testInfo.project.name}.png` });
    // With the alert open and after it closes, no serious accessibility violation.
    for (const open of [true, false]) {
      if (!open) await page.getByTestId('dialog').getByRole('button', { name: 'とじる' }).click();
      await expect(page.getByTestId('dialog')).toHaveCount(open ? 1 : 0);
      expect(await seriousViolations(page)).toEqual([]);
    }
    // The sign-in alert leads to the login page, which comes back to the station [R2.2-1 guest-only].
    const email = `erin-${testInfo.project.name}-${Date.now()}@example.jp`;
    const signedUp = (await (
      await request.post('/api/auth/signup', { data: { email, password: 'mochimochi123' } })
    ).json()) as { error_code: number; user_id: number; access_token: string };
    expect(signedUp.error_code).toBe(200);
    // The sign-up page stores the terms agreement with the account; an API sign-up does it itself.
    const agreed = await request.post('/api/user/agree', {
      data: { user_id: signedUp.user_id, access_token: signedUp.access_token, agree_contract: 1 },
    });
    expect(agreed.status()).toBe(200);
    await page.getByTestId('reserve').click();
    // The alert offers both ways in, each coming back to this station.
    await expect(page.getByTestId('sign-up-link')).toHaveAttribute(
      'href',
      `/signup?next=${encodeURIComponent(`/game/${station}`)}`,
    );
    await page.getByTestId('sign-in-link').click();
    await expect(page.getByRole('heading', { name: 'ログイン' })).toBeVisible();
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel('パスワード').fill('mochimochi123');
    await page.getByRole('button', { name: 'ログインする' }).click();
    await expect(page).toHaveURL(new RegExp(`/game/${station}$`));
    // Signed in, the login page sends the visitor home.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/game/${station}`);
    // A new account has no TC yet: the reserve is refused in Japanese before taking a place.
    await page.getByTestId('reserve').click();
    await expect(page.getByTestId('dialog')).toContainText('TCが不足しています');
    await page.getByTestId('dialog').getByRole('button', { name: 'とじる' }).click();
    // The debug login gives a player with TC.
    await page.goto(`/debug/login?next=/game/${station}`);
    await page.getByLabel('ユーザー名').fill(`erin-${testInfo.project.name}`);
    await page.getByRole('button', { name: 'ログインする' }).click();
    await expect(page).toHaveURL(new RegExp(`/game/${station}$`));
    await page.getByTestId('reserve').click();
    await expect(page.getByTestId('your-turn')).toBeVisible();
    await page.getByText('予約を取り消す').click();
  });
});
