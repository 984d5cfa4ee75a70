import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { finiteAnimationsFinished } from './animations'

/**
 * The rules whose outcome a colour mode decides. A switch of mode changes the colours of the
 * page, and of its markup only the colour-mode control's icon, name and chosen item: a page
 * scanned whole in one mode needs only these rules in the other, and the control is scanned whole
 * in both (e2e/accessibility.spec.ts).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/**
 * What axe-core (WCAG 2.1 A/AA rules and best practices) finds serious or critical on the page;
 * `rules`: only these rules.
 */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  // Styles settled first: right after a colour mode is switched or a menu opened, CoreUI's 0.15 s
  // colour transitions are still running, and axe would measure a colour on its way (a loaded
  // CI run failed on a dark-mode button still at its light grey, 3.3:1).
  await finiteAnimationsFinished(page)
  const builder = new AxeBuilder({ page })
  const results = await (
    rules
      ? builder.withRules(rules)
      : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
  ).analyze()
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
