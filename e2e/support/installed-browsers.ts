import { existsSync } from 'node:fs'
import { firefox, webkit } from '@playwright/test'

/**
 * Whether Playwright's own Firefox or WebKit is installed (`npx playwright install firefox`):
 * their projects run only then. Chromium is always there (scripts/find-browser.ts).
 */
export function isInstalled(browserName: string): boolean {
  if (browserName === 'firefox') return existsSync(firefox.executablePath())
  if (browserName === 'webkit') return existsSync(webkit.executablePath())
  return true
}
