import type { Page } from '@playwright/test';

/**
 * The page's largest contentful paint so far (when it was shown and when its picture had loaded,
 * its element and picture address) and when the page's entry started the app (`onkure:app-start`, src/main/boot.ts): issue 27 wants the lead
 * picture on screen before any of the app's code runs.
 */
export function largestPaint(
  page: Page,
): Promise<{ lcp: number; loaded: number; tag: string; src: string; appStart?: number }> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1) as PerformanceEntry & {
            element?: Element;
            url?: string;
            loadTime?: number;
          };
          const appStart = performance.getEntriesByName('onkure:app-start')[0]?.startTime;
          resolve({
            lcp: last.startTime,
            loaded: last.loadTime ?? 0,
            tag: last.element?.tagName ?? '',
            src: last.url ? new URL(last.url, location.href).pathname : '',
            ...(appStart === undefined ? {} : { appStart }),
          });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}
