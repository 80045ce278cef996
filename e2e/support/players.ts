import { waitForAppOnLoad } from './test';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';

/** The operator token the e2e server runs with (playwright.config.ts). */
export const OPERATOR_TOKEN = process.env.E2E_OPERATOR_TOKEN ?? 'e2e-operator-token-0123456789';

export interface Identity {
  user_id: number;
  access_token: string;
}

/** Signs a debug player in through the API (the development calls are on in e2e). */
export async function debugLogin(request: APIRequestContext, name: string): Promise<Identity> {
  const res = await request.post('/api/auth/debug_login', { data: { name } });
  const body = (await res.json()) as Identity & { error_code: number };
  expect(body.error_code).toBe(200);
  return { user_id: body.user_id, access_token: body.access_token };
}

/** A browser context signed in as `identity` (the session the app keeps in localStorage). */
export async function playerPage(
  browser: Browser,
  baseURL: string,
  identity: Identity,
  viewport: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  await context.addInitScript((who) => window.localStorage.setItem('onkure.session', JSON.stringify(who)), identity);
  const page = await context.newPage();
  waitForAppOnLoad(page);
  return page;
}

/**
 * The index-th normal open station of the top page. Each spec and project takes its own index, so
 * no two tests share a station's line or camera.
 */
export async function stationFor(request: APIRequestContext, index: number): Promise<number> {
  const res = await request.post('/api/contents/top_page_prize', { data: { shop_id: 1, is_top_page: 1 } });
  const body = (await res.json()) as {
    sale_list: { list: { station_id: number; station_status: string; type: string; designated_type: string }[] }[];
  };
  const ids = [
    ...new Set(
      body.sale_list
        .flatMap((s) => s.list)
        .filter((s) => s.station_status === 'open' && s.type === 'normal' && s.designated_type === 'normal')
        .map((s) => s.station_id),
    ),
  ];
  return ids[index]!;
}

/**
 * Holds a crane button down for `ms` (the claw moves while it is held). The button must be in the
 * viewport as the play screen opened: a player does not scroll to find the controls mid-play.
 */
export async function hold(page: Page, testId: string, ms: number): Promise<void> {
  const button = page.getByTestId(testId);
  await expect(button).toBeEnabled();
  await expect(button).toBeInViewport();
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // The hold is counted from the press, so the check below is part of it and not added to it: on a
  // loaded machine the check and Playwright's own steps took ≈ 0.5 s, the claw travelled 100 units
  // further than asked, and a rigged win missed (delivery.spec in CI, read from its trace).
  const pressed = Date.now();
  await page.mouse.down();
  // The press reached the button (nothing drawn over it took it).
  await expect(button).toHaveAttribute('data-held', 'true');
  // The rest of the hold: how long the player keeps the button down.
  await page.waitForTimeout(Math.max(0, ms - (Date.now() - pressed)));
  await page.mouse.up();
}

/**
 * A toast only informs: a tap at its middle reaches what lies under it (on the play screen a crane
 * button a player holds must never be taken by a notice drawn over it).
 */
export async function expectTapsPassThrough(toast: Locator): Promise<void> {
  const under = await toast.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit === null ? 'nothing' : element.contains(hit) ? 'the toast' : 'under';
  });
  expect(under).toBe('under');
}

/** A player's TC balance (tc_all) through the API. */
export async function tcOf(request: APIRequestContext, who: Identity): Promise<number> {
  return ((await (await request.post('/api/user/tc', { data: who })).json()) as { data: { tc_all: number } }).data
    .tc_all;
}
