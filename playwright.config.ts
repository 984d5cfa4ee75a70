import { defineConfig, devices } from '@playwright/test'
import { findBrowser } from './scripts/find-browser'
import { freePortSync } from './scripts/free-port'

/**
 * The suites run against the built server (`node scripts/start.mjs`: it builds when dist/ is
 * stale), on a free port chosen once: worker processes inherit PAINEL_E2E_PORT and agree on it.
 */
process.env.PAINEL_E2E_PORT ??= String(freePortSync())
const port = Number(process.env.PAINEL_E2E_PORT)
const baseURL = `http://127.0.0.1:${port}`
const browser = findBrowser()
const onCI = Boolean(process.env.CI)

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: onCI,
  retries: onCI ? 1 : 0,
  workers: onCI ? 2 : undefined,
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: browser.executablePath, args: browser.args },
      },
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  },
})
