import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Serious or critical axe violations (its default rules and label-content-name-mismatch) of what the page shows now. The purchase
 * modal's provider frame runs no script (sandboxed), so axe cannot look inside it from the page: it
 * is left out here, and the provider's pages are checked on their own.
 */
export async function seriousViolations(page: Page, options: { include?: readonly string[] } = {}): Promise<string[]> {
  // Default rules, plus the one axe still marks experimental that names a visible label's mismatch
  // (WCAG 2.5.3): a control whose accessible name does not start with what it shows.
  let builder = new AxeBuilder({ page });
  // Only parts of a page (CSS selectors): the console's floor as a whole (every station's card and
  // its forms) took axe 41 s in CI; its whole page is checked by e2e/operator-console.spec.ts.
  for (const selector of options.include ?? []) builder = builder.include(selector);
  const results = await builder
    .exclude('iframe.purchase__frame')
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
}
