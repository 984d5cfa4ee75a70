import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'

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

/** Where the panel keeps a person's colour mode (localStorage), as CoreUI's template names it. */
export const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'

/**
 * Switches the open page's colour mode as a choice made in another tab does: the stored value,
 * and the storage event the app follows (client/src/theme/color-mode-sync.ts). What renders in
 * the new mode is the app's own doing, its redux state included, as after a load in that mode; a
 * test that looks at both modes arranges its page once.
 */
export async function switchColorMode(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await page.evaluate(
    ([key, value]) => {
      window.localStorage.setItem(key, value)
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }))
    },
    [COLOR_MODE_KEY, mode] as const,
  )
  await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
}
