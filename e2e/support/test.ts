import { test as base, expect, type Page } from '@playwright/test';

/**
 * Makes `page.goto` and `page.reload` wait until the app is live (`<html data-ready>`, set once
 * the first render has committed). A server-rendered page shows before its code runs; a click
 * then would reach a page with no handlers yet.
 */
export function waitForAppOnLoad(page: Page): void {
  const ready = async <T extends { headers(): Record<string, string> } | null>(response: T): Promise<T> => {
    if (response?.headers()['content-type']?.includes('text/html'))
      await page.waitForSelector('html[data-ready]', { state: 'attached' });
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => ready(await goto(url, options));
  page.reload = async (options) => ready(await reload(options));
}

/**
 * The e2e `test`: every page waits for the app on load, and a test fails when the browser reports
 * a hydration mismatch (the server's markup and the browser's first render differ) or a Content
 * Security Policy violation (something in the page the CSP refuses, e.g. an inline style attribute
 * in the server's markup).
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const mismatches: string[] = [];
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (/hydrat/i.test(message.text())) mismatches.push(message.text());
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    waitForAppOnLoad(page);
    await use(page);
    expect(mismatches, 'hydration mismatches').toEqual([]);
    expect(refused, 'CSP violations').toEqual([]);
  },
});

export { expect };
