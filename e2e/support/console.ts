import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** The password of the operator accounts the e2e makes (development-only call). */
export const CONSOLE_PASSWORD = 'e2e-console-password-1';

/** A fresh operator account of `role`, made by the development-only call (logins unique per run). */
export async function operatorAccount(
  request: APIRequestContext,
  role: 'admin' | 'floor' | 'support',
  tag: string,
): Promise<string> {
  const login = `e2e${role}${tag}${Date.now().toString(36)}`.slice(0, 32);
  const res = await request.post('/api/dev/operator_account', {
    data: { login, password: CONSOLE_PASSWORD, role, display_name: `E2E ${role}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return login;
}

/** Signs in on the console's sign-in screen. */
export async function consoleSignIn(page: Page, login: string, password = CONSOLE_PASSWORD): Promise<void> {
  await page.getByLabel('ログインID').fill(login);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: 'サインイン' }).click();
}

/** Opens a section from the console's navigation (the menu button first on a phone). */
export async function consoleOpen(page: Page, section: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'メニュー' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'コンソールのメニュー' }).getByRole('link', { name: section }).click();
  await expect(page.getByRole('heading', { level: 1, name: section })).toBeVisible();
}

/** Runs the console's confirm dialog's action. */
export async function consoleConfirm(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toBeHidden();
}

/** The floor card of a station. */
export const floorCard = (page: Page, stationId: number) =>
  page.getByTestId('op-station').filter({ has: page.getByRole('heading', { name: new RegExp(`^#${stationId} `) }) });

/**
 * A camera nobody watched yet starts publishing when its still is first asked for: until its first
 * picture the still answers 503 and the page keeps its poster and asks again. Which of the floor's
 * cameras were watched before depends on the tests run before, so a console test's error count
 * leaves that answer out.
 */
export const stillNotPublishedYet = (status: number, path: string): boolean =>
  status === 503 && /\/camera\/(front|side)\.jpg$/.test(path);
