import { expect, test } from '../fixtures'
import { DARK_SYSTEM, emulateSystemColorScheme } from '../support/color-scheme'
import { expectRoute, loginForm, signInWithForm } from '../support/pages'
import { externalBaseURL, smokeCredentials } from '../support/target'
import { e2e } from '../support/test-env'
import {
  APPROVAL,
  COLOUR_MODE_KEY,
  GUARD,
  PAGE_HEADERS,
  pendingRegistration,
  PUBLIC_PAGES,
  SIGN_IN,
  THEME_PARAM,
} from './journeys'

/**
 * The smoke set: what any running panel must do, in every engine (the same journeys run in
 * WebKitGTK through WebDriver: e2e/webdriver/smoke.ts, with the words of ./journeys.ts). Checked
 * without changing anything (no account made, no mail sent), so it can run against staging or
 * the container:
 *   E2E_BASE_URL=https://staging… npm run test:e2e -- --project=smoke
 * Signing in (and out again) needs E2E_USER and E2E_PASSWORD against such a panel; the approval
 * (it makes an account) runs only on the panel the run starts itself.
 */

test.describe('a running panel', () => {
  test('is alive and sends its security headers', async ({ request }) => {
    const health = await request.get('/healthz')
    expect(health.status()).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const page = await request.get('/')
    expect(page.status()).toBe(200)
    const headers = page.headers()
    for (const [name, value] of Object.entries(PAGE_HEADERS)) {
      expect(headers[name], name).toContain(value)
    }
    expect(headers['x-request-id']).toMatch(/\S/)
    const missing = await request.get('/assets/nao-existe.js')
    expect(missing.status()).toBe(404)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found')
  })

  for (const { path, heading } of PUBLIC_PAGES) {
    test(`shows the public page ${path}`, async ({ page }) => {
      await page.goto(`/#${path}`)
      await expect(page.getByRole('heading', { name: heading })).toBeVisible()
      await expectRoute(page, path)
    })
  }

  test('sends a visitor without a session to the login page', async ({ page }) => {
    await page.goto(`/#${GUARD.path}`)
    await expectRoute(page, GUARD.landsOn)
    await expect(loginForm(page)).toBeVisible()
  })

  test('applies ?theme=dark and ignores a value that is not allowed', async ({ page }) => {
    const html = page.locator('html')
    await page.goto(THEME_PARAM.allowed.url)
    await expect(html).toHaveAttribute('data-coreui-theme', THEME_PARAM.allowed.shown)
    await page.goto(THEME_PARAM.refused.url)
    await expect(loginForm(page)).toBeVisible()
    await expect(html).toHaveAttribute('data-coreui-theme', THEME_PARAM.refused.shown)
  })

  for (const scheme of ['dark', 'light'] as const) {
    test(
      `follows a ${scheme} system colour scheme in auto mode`,
      { tag: scheme === 'dark' ? [DARK_SYSTEM] : [] },
      async ({ page }) => {
        await page.addInitScript((key) => window.localStorage.setItem(key, 'auto'), COLOUR_MODE_KEY)
        await emulateSystemColorScheme(page, scheme)
        await page.goto(`/#${SIGN_IN.page}`)
        await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', scheme)
      },
    )
  }

  test('follows the system colour scheme when it changes, without a reload', async ({ page }) => {
    await page.addInitScript((key) => window.localStorage.setItem(key, 'auto'), COLOUR_MODE_KEY)
    await emulateSystemColorScheme(page, 'dark')
    await page.goto(`/#${SIGN_IN.page}`)
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'dark')
    await emulateSystemColorScheme(page, 'light')
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'light')
  })

  test('signs in and out with the account given', async ({ page }) => {
    const account = smokeCredentials()
    test.skip(
      account === null,
      `no E2E_USER/E2E_PASSWORD for ${externalBaseURL ?? 'this panel'}: sign-in not tried`,
    )
    await page.goto(`/#${SIGN_IN.page}`)
    await signInWithForm(page, account!)
    await expect(loginForm(page)).toBeHidden()
    // Signing out again: the smoke run leaves no session behind.
    await page.getByRole('button', { name: SIGN_IN.userMenu }).click()
    await page.getByRole('button', { name: SIGN_IN.signOut }).click()
    await expectRoute(page, SIGN_IN.page)
    await expect(loginForm(page)).toBeVisible()
  })

  test('an admin approves a registration', async ({ page, baseURL }) => {
    test.skip(Boolean(externalBaseURL), 'makes an account: only on the panel this run starts')
    const admin = { email: e2e.admin.email, password: e2e.admin.password }
    const person = await pendingRegistration(baseURL!, admin, test.info().project.name)
    await page.goto(`/#${SIGN_IN.page}`)
    await signInWithForm(page, e2e.admin)
    await expect(loginForm(page)).toBeHidden()
    await page.goto(`/#${APPROVAL.equipe(person.email)}`)
    await expect(page.getByText(APPROVAL.found, { exact: true })).toBeVisible({ timeout: 15_000 })
    await page.getByRole('button', { name: APPROVAL.approve(person.name) }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(APPROVAL.dialogSays)
    await dialog.getByRole('button', { name: APPROVAL.confirm, exact: true }).click()
    await expect(page.getByText(APPROVAL.done(person.name))).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(person.name) })).toContainText(
      APPROVAL.status,
    )
  })
})
