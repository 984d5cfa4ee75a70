import { defineConfig, devices } from '@playwright/test'
import { isInstalled } from './e2e/support/installed-browsers'
import { externalBaseURL, targetBaseURL } from './e2e/support/target'
import { e2e } from './e2e/support/test-env'
import { findBrowser } from './scripts/find-browser'

/**
 * The suites run against the built server (`node scripts/start.mjs`: it builds when dist/ is
 * stale) on a free port, with a fresh embedded database, a known first admin, and its mail going
 * to an SMTP server on loopback that the global setup starts (e2e/support/mail-catcher.ts).
 * With E2E_BASE_URL only the read-only `smoke` project runs, against that panel, and nothing is
 * started: the other suites create accounts and read a mailbox this process would not own.
 */
const browser = findBrowser()
const onCI = Boolean(process.env.CI)
/** `npm run screenshots`: only e2e/screenshots/, which the suites (npm test) never run. */
const screenshots = process.env.PAINEL_SCREENSHOTS === '1'
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: browser.executablePath, args: browser.args },
}
const SMOKE = /smoke\/.*\.spec\.ts$/
for (const name of ['firefox', 'webkit']) {
  if (!isInstalled(name)) {
    console.log(`${name}: not installed (npx playwright install ${name}), its project skips`)
  }
}

export default defineConfig({
  testDir: 'e2e',
  ...(screenshots ? { testMatch: 'screenshots/*.ts' } : { testIgnore: 'screenshots/**' }),
  outputDir: 'test-results',
  ...(externalBaseURL ? {} : { globalSetup: './e2e/support/mail-catcher.ts' }),
  fullyParallel: true,
  forbidOnly: onCI,
  retries: onCI && !screenshots ? 1 : 0,
  // How long an expectation waits for what a person would wait for (a redirect after a call, a
  // screen after its chunk): 5 s, Playwright's default, was passed on a 2-core machine beside a
  // CPU job by answers that did come (loaded CI runs). Only a failing wait gets longer.
  expect: { timeout: 10_000 },
  workers: screenshots ? 1 : onCI ? 2 : undefined,
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    baseURL: targetBaseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: screenshots
    ? [{ name: 'chromium', use: chromium }]
    : externalBaseURL
      ? [{ name: 'smoke', testMatch: SMOKE, use: chromium }]
      : [
          { name: 'chromium', testIgnore: SMOKE, use: chromium },
          { name: 'smoke', testMatch: SMOKE, use: chromium },
          { name: 'firefox', testIgnore: SMOKE, use: devices['Desktop Firefox'] },
          { name: 'webkit', testIgnore: SMOKE, use: devices['Desktop Safari'] },
        ],
  webServer: externalBaseURL
    ? undefined
    : {
        command: 'node scripts/start.mjs',
        url: `${e2e.baseURL}/healthz`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(e2e.port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          DATA_DIR: e2e.dataDir,
          PUBLIC_URL: e2e.baseURL,
          SMTP_URL: `smtp://127.0.0.1:${e2e.smtpPort}`,
          ADMIN_EMAIL: e2e.admin.email,
          ADMIN_PASSWORD: e2e.admin.password,
          // Every test signs in from 127.0.0.1; the per-account failure limit is what the suites test.
          AUTH_RATE_LIMIT: '10000',
          // The suites act as an admin without a second factor; e2e/mfa-required.spec.ts runs a
          // server of its own with the default (admins).
          MFA_REQUIRED: 'off',
        },
      },
})
