import { existsSync } from 'node:fs'
import { webkit } from '@playwright/test'
import { findFirefox } from '../../scripts/find-browser'

/**
 * Whether a project's browser is here. Chromium is always (scripts/find-browser.ts); Firefox is a
 * system Firefox over WebDriver BiDi; WebKit is Playwright's own (`npx playwright install webkit`,
 * which these machines cannot download: WebKitGTK runs the smoke set through WebDriver instead,
 * e2e/webdriver/). playwright.config.ts defines a project only for a browser that is here.
 */
export function isInstalled(browserName: string): boolean {
  if (browserName === 'firefox') return findFirefox().found
  if (browserName === 'webkit') return existsSync(webkit.executablePath())
  return true
}
