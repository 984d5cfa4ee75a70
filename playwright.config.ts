import { defineConfig, devices } from '@playwright/test'
import { DARK_SYSTEM } from './e2e/support/color-scheme'
import { engineSensitiveFiles, SERVER_DECIDES } from './e2e/support/engine-sensitive'
import { isInstalled } from './e2e/support/installed-browsers'
import { externalBaseURL, targetBaseURL } from './e2e/support/target'
import { e2e } from './e2e/support/test-env'
import { findBrowser, findFirefox } from './scripts/find-browser'

/**
 * The suites run against the built server (`node scripts/start.mjs`: it builds when dist/ is
 * stale) on a free port, with a fresh embedded database, a known first admin, and its mail going
 * to an SMTP server on loopback that the global setup starts (e2e/support/mail-catcher.ts).
 * With E2E_BASE_URL only the read-only `smoke` project runs, against that panel, and nothing is
 * started: the other suites create accounts and read a mailbox this process would not own.
 */
/** Headless unless a person asked to watch: a headless-only Chromium is lighter (find-browser.ts). */
const headed = ['--headed', '--debug', '--ui'].some((flag) => process.argv.includes(flag))
const browser = findBrowser(process.env, { headless: !headed })
const onCI = Boolean(process.env.CI)
/** `npm run screenshots`: only e2e/screenshots/, which the suites (npm test) never run. */
const screenshots = process.env.PAINEL_SCREENSHOTS === '1'
/**
 * Chromium as a Brazilian user's: its interface language pt-BR (`locale` below only sets the
 * page's navigator.language and Intl), so that a date field shows dd/mm/aaaa. apt's Chromium
 * carries the en-US interface alone: with the page's lang heeded by form controls, its date
 * fields still put the day first (dd/mm/yyyy), as a pt-BR Chrome does.
 */
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: browser.executablePath,
    args: [
      ...browser.args,
      '--lang=pt-BR',
      '--enable-blink-features=LangAttributeAwareFormControlUI',
    ],
  },
}
const SMOKE = /smoke\/.*\.spec\.ts$/

/**
 * Firefox: the system's stock Firefox (apt's firefox-esr) over WebDriver BiDi, Playwright's
 * `moz-firefox` channel; Playwright's own patched Firefox cannot be downloaded here. Playwright
 * stays at 1.64.1: 1.65 sends `emulation.setMediaFeaturesOverride` when it opens every context,
 * a command ESR 153 does not have (`unknown command`), and 1.64 sends none that ESR 153 lacks.
 * Its BiDi layer cannot emulate the colour scheme: the system's is fixed at launch by a
 * preference instead (e2e/support/color-scheme.ts), light in `firefox`, dark in `firefox-dark`.
 * No project at all when there is no Firefox: `npm test` names it once in its summary.
 */
const firefoxFound = findFirefox()
/**
 * Every suite in Firefox; by default only the engine-sensitive ones, less their tests tagged
 * SERVER_DECIDES (engine-sensitive.ts).
 */
const firefoxFull = process.env.PAINEL_FIREFOX_FULL === '1'
function firefox(scheme: 'light' | 'dark') {
  if (!firefoxFound.found) return {}
  return {
    ...devices['Desktop Firefox'],
    channel: 'moz-firefox',
    launchOptions: {
      executablePath: firefoxFound.path,
      firefoxUserPrefs: { 'ui.systemUsesDarkTheme': scheme === 'dark' ? 1 : 0 },
    },
  }
}
const firefoxProjects = firefoxFound.found
  ? [
      {
        name: 'firefox',
        testIgnore: SMOKE,
        ...(firefoxFull ? {} : { testMatch: engineSensitiveFiles }),
        grepInvert: new RegExp(firefoxFull ? DARK_SYSTEM : `${DARK_SYSTEM}|${SERVER_DECIDES}`),
        use: firefox('light'),
        metadata: { fixedColorScheme: 'light' },
      },
      {
        name: 'firefox-smoke',
        testMatch: SMOKE,
        grepInvert: new RegExp(DARK_SYSTEM),
        use: firefox('light'),
        metadata: { fixedColorScheme: 'light' },
      },
      {
        // Only the tests that need a dark system (tagged), smoke set or not.
        name: 'firefox-dark',
        ...(firefoxFull ? {} : { testMatch: [engineSensitiveFiles, SMOKE] }),
        grep: new RegExp(DARK_SYSTEM),
        use: firefox('dark'),
        metadata: { fixedColorScheme: 'dark' },
      },
    ]
  : []
/** Playwright's own WebKit, where it is installed (never on these machines: e2e/webdriver/). */
const webkitProjects = isInstalled('webkit')
  ? [{ name: 'webkit', testIgnore: SMOKE, use: devices['Desktop Safari'] }]
  : []

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
    // On CI a failed test runs again (retries above) and that run is traced: recording a trace of
    // every test to keep only the failures' cost a quarter of the suites' time (access-guard and
    // staff-admin, 36 tests: 167 s traced, 126 s not). Here, without retries, a failure keeps its.
    trace: onCI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: screenshots
    ? [{ name: 'chromium', use: chromium }]
    : externalBaseURL
      ? [{ name: 'smoke', testMatch: SMOKE, use: chromium }]
      : [
          { name: 'chromium', testIgnore: SMOKE, use: chromium },
          { name: 'smoke', testMatch: SMOKE, use: chromium },
          ...firefoxProjects,
          ...webkitProjects,
        ],
  webServer: externalBaseURL
    ? undefined
    : [
        {
          // The panel's sign-in provider (AUTH_PROVIDERS=corp below), started first.
          command: 'node --import tsx e2e/support/oidc-provider-server.ts',
          url: `${e2e.oidc.issuer}/.well-known/openid-configuration`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
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
            // Why: e2e/support/test-env.ts.
            QUEUE_WAIT_MS: String(e2e.queueWaitMs),
            // The suites act as an admin without a second factor; e2e/mfa-required.spec.ts runs a
            // server of its own with the default (admins).
            MFA_REQUIRED: 'off',
            AUTH_PROVIDERS: 'corp',
            AUTH_CORP_ISSUER_URL: e2e.oidc.issuer,
            AUTH_CORP_CLIENT_ID: e2e.oidc.clientId,
            AUTH_CORP_CLIENT_SECRET: e2e.oidc.clientSecret,
            AUTH_CORP_LABEL: e2e.oidc.label,
          },
        },
      ],
})
