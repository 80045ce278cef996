import type { APIRequestContext } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { consoleConfirm, consoleSignIn, floorCard, operatorAccount } from './support/console';
import { debugLogin, hold, OPERATOR_TOKEN, playerPage, stationFor } from './support/players';
import { expect, test } from './support/test';

/**
 * Fair play (issue 45, docs/fair-play.md). [R11-6]: an operator's change to a station's settings
 * while a player is in a run waits for the run to end, and every change is published on the
 * station's page. [R11-7]: free TC ends in lots, shown in the header and the TC history. [R11-8]: a
 * daily free play at the ticket stations. [R11-9]: staff assist, asked and answered from the console.
 */
const operator = (request: APIRequestContext, path: string, data: object) =>
  request.post(`/api/operator/${path}`, { data, headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` } });

test.describe('settings that never change under a player', () => {
  test.describe.configure({ timeout: 90_000 });

  test("[R11-6] an operator raises the arm power from the console while a player is in a run: the console shows it waiting, the run's plays keep the old power (its play log), the change comes in when the run ends, and the station's settings history shows it", async ({
    page: console,
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    // The camera page's stations (e2e/camera-page.spec.ts): its test leaves no line and no settings.
    const station = await stationFor(request, project === 'mobile' ? 20 : 21);
    // Between runs a change is in force at once: a known starting power.
    const start = await operator(request, 'station_settings', {
      station_id: station,
      arm_strength: 0.5,
      reason: 'adjustment',
    });
    expect(start.status()).toBe(200);
    // The operator has the floor open, the station's actions unfolded.
    await console.goto('/operator');
    await consoleSignIn(console, await operatorAccount(request, 'floor', 'fair'));
    await expect(console).toHaveURL(/\/operator\/floor$/);
    const card = floorCard(console, station);
    await expect(card.getByTestId('op-settings')).toContainText('アームパワー 50%');
    await card.getByText('操作', { exact: true }).click();
    const form = card.getByTestId('op-settings-form');
    await form.getByLabel('アームの強さ（0〜1）').fill('0.9');
    await form.getByLabel('理由（公開されます）').selectOption({ label: '故障の修理・点検' });

    const player = await debugLogin(request, `fair-${project}`);
    const page = await playerPage(browser, baseURL!, player, testInfo.project.use.viewport!);
    await page.goto(`/game/${station}`);
    await page.getByTestId('reserve').click();
    await page.getByTestId('confirm').click();
    await expect(page.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });

    // Mid-run (the play's buttons wait 15 s for a first press), the operator raises the power: the
    // console says the change waits, and the station's card shows it waiting.
    await expect(card).toContainText('プレイ中', { timeout: 10_000 });
    await form.getByRole('button', { name: '設定を変更' }).click();
    await consoleConfirm(console);
    await expect(console.getByTestId('op-outcome')).toContainText('プレイ中のため、このプレイが終わってから反映します');
    await expect(card.getByTestId('op-settings-pending')).toHaveText(
      '反映待ち（プレイ終了後）：アームパワー 50% → 90%（理由：故障の修理・点検）',
    );
    await card.getByTestId('op-settings').scrollIntoViewIfNeeded();
    await console.screenshot({ path: `e2e/screenshots/settings-pending-console-${project}.png` });

    // The run goes on: this play, then a continue.
    await hold(page, 'button-right', 300);
    await hold(page, 'button-back', 300);
    await expect(page.getByTestId('result')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('continue').click();
    await expect(page.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
    await hold(page, 'button-right', 300);
    await hold(page, 'button-back', 300);
    await expect(page.getByTestId('result')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('finish').click();
    // The console's card: in force now, nothing waiting.
    await expect(card.getByTestId('op-settings-pending')).toHaveCount(0);
    await expect(card.getByTestId('op-settings')).toContainText('アームパワー 90%');
    // The station's card (the floor as a whole is checked in e2e/operator-console.spec.ts).
    expect(
      await seriousViolations(console, { include: [`[data-testid="op-station"][data-station-id="${station}"]`] }),
    ).toEqual([]);

    // Both plays of the run ran with the power it started with, under one settings version.
    const log = (await (await request.post('/api/v2/play/history', { data: player })).json()) as {
      history: { list: { base_arm_strength: number; settings_version: number | null }[] };
    };
    const [second, first] = log.history.list;
    expect([first!.base_arm_strength, second!.base_arm_strength]).toEqual([0.5, 0.5]);
    expect(second!.settings_version).toBe(first!.settings_version);

    // The run is over: the change is in force, and the station's page publishes it.
    await page.getByTestId('open-settings-history').click();
    const dialog = page.getByTestId('settings-history');
    await expect(dialog).toHaveAttribute('data-state', 'loaded');
    const newest = dialog.getByTestId('settings-version').first();
    await expect(newest).toContainText('アームパワー 50% → 90%');
    await expect(newest).toContainText('理由：故障の修理・点検');
    await expect(newest).toContainText('現在の設定');
    await expect(newest.locator('strong')).toHaveText(`設定 第${first!.settings_version! + 1}版`);
    await page.screenshot({ path: `e2e/screenshots/settings-history-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();

    // Put the station back as the other tests find it (between runs: at once).
    expect(
      (
        await operator(request, 'arm_strength', { station_id: station, arm_strength: 0.5, reason: 'adjustment' })
      ).status(),
    ).toBe(200);
  });
});

test.describe('staff assist', () => {
  test.describe.configure({ timeout: 120_000 });

  test('[R11-9] after the station’s misses in a row the player asks for a staff assist; the turn is held with the time shown; the console’s assist queue shows it with the live picture and marks it done; the player plays on, and the play log and the station’s history record it', async ({
    page: console,
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    // The settings test's stations (above): it leaves them between runs.
    const station = await stationFor(request, project === 'mobile' ? 20 : 21);
    // Two misses in a row at this station (a published setting).
    const set = await operator(request, 'station_settings', {
      station_id: station,
      assist_misses: 2,
      reason: 'assist',
    });
    expect(set.status()).toBe(200);
    await console.goto('/operator');
    await consoleSignIn(console, await operatorAccount(request, 'floor', 'assist'));
    const queue = console.getByTestId('op-assist-queue');
    await expect(queue).toContainText('スタッフアシストの依頼はありません');

    const player = await debugLogin(request, `assist-${project}`);
    const page = await playerPage(browser, baseURL!, player, testInfo.project.use.viewport!);
    await page.goto(`/game/${station}`);
    await page.getByTestId('reserve').click();
    await page.getByTestId('confirm').click();
    const assist = page.getByTestId('staff-assist');
    // Plays with short moves (the claw drops by the chute) until two misses in a row count.
    for (let plays = 0; ; plays += 1) {
      expect(plays, 'two misses in a row within five plays').toBeLessThan(5);
      await expect(page.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
      await hold(page, 'button-right', 300);
      await hold(page, 'button-back', 300);
      await expect(page.getByTestId('result')).toBeVisible({ timeout: 20_000 });
      if ((await assist.getAttribute('data-state')) === 'available') break;
      await expect(assist).toHaveAttribute('data-state', 'counting');
      await page.getByTestId('continue').click();
    }
    await expect(assist).toContainText('2回続けて取れませんでした');
    await assist.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/staff-assist-available-${project}.png` });
    await page.getByTestId('staff-assist-ask').click();
    await expect(assist).toHaveAttribute('data-state', 'asked');
    // The ask is counted (a designed analytics event, through the development collector).
    await expect
      .poll(async () => {
        const answer = await request.post('/api/dev/analytics/events', { data: { name: 'staff_assist_request' } });
        const { list } = (await answer.json()) as { list: { params: Record<string, unknown> }[] };
        return list.filter((e) => e.params.user_id === player.user_id).map((e) => e.params.misses);
      })
      .toEqual([2]);
    await expect(assist).toContainText(/最長あと[45]分\d\d秒/);
    await expect(page.getByTestId('continue')).toBeDisabled();
    await page.screenshot({ path: `e2e/screenshots/staff-assist-asked-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);

    // The console's queue shows it with the station's live picture; the turn stays held meanwhile.
    const request_ = queue.getByTestId('op-assist');
    await expect(request_).toHaveAttribute('data-station', String(station), { timeout: 10_000 });
    await expect(request_).toContainText('2回連続ミス');
    await expect(request_.getByRole('img')).toBeVisible();
    await expect(floorCard(console, station).getByTestId('op-assist-request')).toBeVisible();
    await request_.scrollIntoViewIfNeeded();
    await console.screenshot({ path: `e2e/screenshots/staff-assist-console-${project}.png` });
    // The assist queue and the station's card (the floor as a whole: e2e/operator-console.spec.ts).
    expect(
      await seriousViolations(console, {
        include: ['[data-testid="op-assist-queue"]', `[data-testid="op-station"][data-station-id="${station}"]`],
      }),
    ).toEqual([]);
    await request_.getByTestId('op-assist-done').click();
    await consoleConfirm(console);
    await expect(console.getByTestId('op-outcome')).toContainText('対応完了にしました');
    await expect(queue).toContainText('スタッフアシストの依頼はありません');

    // The player hears of it: the count starts again and the continue window runs.
    await expect(assist).toHaveAttribute('data-outcome', 'done');
    await expect(assist).toContainText('スタッフが景品の位置を直しました');
    await expect(page.getByTestId('continue')).toBeEnabled();
    await page.screenshot({ path: `e2e/screenshots/staff-assist-done-${project}.png` });
    await page.getByTestId('finish').click();

    // The play log names it; the station's public history lists it, with no player named.
    const log = (await (await request.post('/api/v2/play/history', { data: player })).json()) as {
      history: { list: { staff_assist?: { status: string; misses: number } | null }[] };
    };
    expect(log.history.list[0]!.staff_assist).toMatchObject({ status: 'done', misses: 2 });
    await page.getByTestId('open-settings-history').click();
    const history = page.getByTestId('settings-history');
    await expect(history).toHaveAttribute('data-state', 'loaded');
    await expect(history.getByTestId('settings-assist').first()).toContainText('2回続けて取れなかったあとの依頼');
    await history.getByTestId('settings-assist').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/staff-assist-history-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();

    // The station as the other tests find it.
    expect(
      (
        await operator(request, 'station_settings', { station_id: station, assist_misses: 10, reason: 'assist' })
      ).status(),
    ).toBe(200);
  });
});

/** The open ticket station of a character (the seed has one each for characters 2 and 4). */
async function ticketStation(request: APIRequestContext, characterId: number): Promise<number> {
  const res = await request.post('/api/contents/prize', { data: { shop_id: 1, prize: { character_id: characterId } } });
  const body = (await res.json()) as { prize_ticket: { station_id: number; station_status: string }[] };
  return body.prize_ticket.find((s) => s.station_status === 'open')!.station_id;
}

test.describe('a daily free play', () => {
  test.describe.configure({ timeout: 60_000 });

  test("[R11-8] the day's first visit brings a free play: the top page says so, a ticket station says it is usable, a play there takes it and no ticket, and the station then says it was used", async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    const station = await ticketStation(request, project === 'mobile' ? 2 : 4);
    const who = await debugLogin(request, `dly${project[0]}${Date.now().toString(36).slice(-7)}`);
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto('/');
    const banner = page.getByTestId('daily-free-play');
    await expect(banner).toContainText('ポイントチケット台で1回、無料で遊べます（今日の24:00まで）');
    await banner.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/daily-free-top-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);

    await banner.getByRole('link', { name: 'チケット台を見る' }).click();
    await expect(page.getByTestId('prize-card').first()).toBeVisible();
    await page.goto(`/game/${station}`);
    await expect(page.getByTestId('daily-free-station')).toHaveText(
      '本日の無料プレイが使えます。チケットは減りません（今日の24:00まで）',
    );
    await page.screenshot({ path: `e2e/screenshots/daily-free-station-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('reserve').click();
    await page.getByTestId('confirm').click();
    await expect(page.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
    await hold(page, 'button-right', 300);
    await hold(page, 'button-back', 300);
    await expect(page.getByTestId('result')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('finish').click();
    // Taken by the play: the station says so, and no ticket moved.
    await expect(page.getByTestId('daily-free-station')).toHaveText(
      '本日の無料プレイは使いました。明日またログインすると1回遊べます',
    );
    const tickets = (await (await request.post('/api/user/ticket', { data: who })).json()) as {
      data: { ticket_all: number };
    };
    expect(tickets.data.ticket_all).toBe(0);
    await page.goto('/');
    await expect(page.getByTestId('prize-card').first()).toBeVisible();
    await expect(page.getByTestId('daily-free-play')).toHaveCount(0);
    await page.context().close();

    // Another player's unused free play is gone at midnight (the wallet's test clock: a day passes
    // for them alone): the ticket station's line then gives no place without a ticket.
    const idle = await debugLogin(request, `dli${project[0]}${Date.now().toString(36).slice(-7)}`);
    const granted = (await (await request.post('/api/user/user_data', { data: idle })).json()) as {
      user_data: { daily_free_play: { available: number } };
    };
    expect(granted.user_data.daily_free_play.available).toBe(1);
    expect((await request.post('/api/dev/wallet/age', { data: { ...idle, days: 1 } })).status()).toBe(200);
    const refused = await request.post('/api/v2/play/reserve', { data: { ...idle, station_id: station } });
    expect(refused.status()).toBe(402);
  });
});

test.describe('free TC that expires', () => {
  test('[R11-7] the header and the TC history show the free TC ending next; when its day has passed it is gone, with its line in the history', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    const project = testInfo.project.name;
    // A debug player starts with 10,000 free TC (a grant: a lot of 90 days); a present code adds 500.
    const who = await debugLogin(request, `lot${project[0]}${Date.now().toString(36).slice(-7)}`);
    const page = await playerPage(browser, baseURL!, who, testInfo.project.use.viewport!);
    await page.goto('/');
    await expect(page.getByTestId('header-balance-amount')).toHaveText('10,000 TC');
    await expect(page.getByTestId('header-free-expiring')).toHaveText(
      project === 'mobile' ? /^一部\d{1,2}\/\d{1,2}まで$/ : /^うち10,000TCは\d{1,2}\/\d{1,2}まで$/,
      { useInnerText: true },
    );
    await page.getByTestId('header-balance').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/free-tc-header-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);

    // 90 days pass for this player: the lot ends, once, with its own line in the history.
    expect((await request.post('/api/dev/wallet/age', { data: { ...who, days: 90 } })).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId('header-balance-amount')).toHaveText('0 TC');
    await expect(page.getByTestId('header-free-expiring')).toHaveCount(0);
    await page.getByTestId('open-menu').click();
    await page.getByRole('button', { name: 'TC利用履歴' }).click();
    const history = page.getByTestId('tc-history');
    await expect(history.locator('tbody tr').first()).toContainText('有効期限切れ');
    await expect(history.locator('tbody tr').first()).toContainText('−10,000');
    await expect(history.locator('tbody tr').nth(1)).toContainText('開発用の付与');
    await expect(history.getByTestId('tc-free-lots')).toHaveCount(0);
    await page.screenshot({ path: `e2e/screenshots/free-tc-expired-${project}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

test.describe('live lobby numbers', () => {
  test('the top page’s card of a station shows its viewers and its line, changing as a second browser watches, queues and leaves', async ({
    page,
    browser,
    request,
    baseURL,
  }, testInfo) => {
    // The numbers do not depend on the screen's size: the desktop project only.
    test.skip(testInfo.project.name !== 'desktop', 'viewport-independent: runs in the desktop project only');
    // The first normal open station of the top page's rows (its card is in the first screen); other
    // specs use it too, so the numbers are checked as they move from wherever they stand.
    const station = await stationFor(request, 0);
    await page.goto('/');
    const card = page.locator(`[data-testid="prize-card"][data-station-id="${station}"]`).first();
    const numbers = card.getByTestId('prize-card-lobby');
    await expect(numbers).toHaveText(/^視聴 \d+人・待ち \d+人$/);
    const [viewers, line] = /視聴 (\d+)人・待ち (\d+)人/
      .exec((await numbers.textContent()) ?? '')!
      .slice(1)
      .map(Number);

    const other = await playerPage(browser, baseURL!, await debugLogin(request, 'lobbyb'), { width: 390, height: 844 });
    await other.goto(`/game/${station}`);
    await expect(numbers).toHaveText(`視聴 ${viewers! + 1}人・待ち ${line}人`);
    await other.getByTestId('reserve').click();
    await expect(other.getByTestId('your-turn').or(other.getByTestId('in-line'))).toBeVisible();
    await expect(numbers).toHaveText(`視聴 ${viewers! + 1}人・待ち ${line! + 1}人`);
    await card.screenshot({ path: 'e2e/screenshots/lobby-card-desktop.png' });
    await other.getByRole('button', { name: '予約を取り消す' }).click();
    await expect(numbers).toHaveText(`視聴 ${viewers! + 1}人・待ち ${line}人`);
    await other.context().close();
  });
});
