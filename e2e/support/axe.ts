import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { finiteAnimationsFinished } from './animations'

/** What axe-core (WCAG 2.1 A/AA rules and best practices) finds serious or critical on the page. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Styles settled first: right after a colour mode is switched or a menu opened, CoreUI's 0.15 s
  // colour transitions are still running, and axe would measure a colour on its way (a loaded
  // CI run failed on a dark-mode button still at its light grey, 3.3:1).
  await finiteAnimationsFinished(page)
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
