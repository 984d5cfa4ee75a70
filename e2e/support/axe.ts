import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** What axe-core (WCAG 2.1 A/AA rules and best practices) finds serious or critical on the page. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map(
            (node) =>
              `${node.html.slice(0, 120)} ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
          )
          .join(' | ')}`,
    )
}
