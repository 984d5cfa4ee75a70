import type { Page } from '@playwright/test'
import { test } from '@playwright/test'

/**
 * The system colour scheme a test needs. Where Playwright can emulate it (Chromium, Playwright's
 * own Firefox and WebKit), it does. Where the project's browser has it fixed at launch instead
 * (`metadata.fixedColorScheme`: the system Firefox over WebDriver BiDi, see playwright.config.ts),
 * a test that needs the other one skips, saying why. The tests that need a dark system are tagged
 * DARK_SYSTEM: the firefox project leaves them to the firefox-dark project, which runs only them
 * with a dark system from launch, so both schemes are proven in Firefox. A test that changes the
 * scheme while the page is open runs in Chromium only, for that reason.
 */
export async function emulateSystemColorScheme(
  page: Page,
  scheme: 'light' | 'dark',
): Promise<void> {
  const fixed = test.info().project.metadata?.fixedColorScheme as 'light' | 'dark' | undefined
  if (fixed === undefined) return page.emulateMedia({ colorScheme: scheme })
  test.skip(
    fixed !== scheme,
    `${test.info().project.name}: the system colour scheme is ${fixed} from launch (WebDriver BiDi in ESR 153 has no emulation.setMediaFeaturesOverride); a change while the page is open is proven in Chromium`,
  )
}

/** Tag of the tests that need a dark system from the start (the firefox-dark project's). */
export const DARK_SYSTEM = '@dark-system'
