import { expect, test } from '../fixtures'
import { expectRoute, loginForm, signInWithForm } from '../support/pages'
import { externalBaseURL, smokeCredentials } from '../support/target'

/**
 * The smoke set: what any running panel must do, checked without changing anything (no account
 * made, no mail sent), so it can run against staging or the container:
 *   E2E_BASE_URL=https://staging… npm run test:e2e -- --project=smoke
 * Signing in (and out again) needs E2E_USER and E2E_PASSWORD against such a panel.
 */

test.describe('a running panel', () => {
  test('is alive and sends its security headers', async ({ request }) => {
    const health = await request.get('/healthz')
    expect(health.status()).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const page = await request.get('/')
    expect(page.status()).toBe(200)
    const headers = page.headers()
    expect(headers['content-security-policy']).toContain("script-src 'self'")
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['cache-control']).toBe('no-cache')
    expect(headers['x-request-id']).toMatch(/\S/)
    const missing = await request.get('/assets/nao-existe.js')
    expect(missing.status()).toBe(404)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found')
  })

  for (const [path, heading] of [
    ['/login', 'Entrar'],
    ['/register', 'Solicitar cadastro'],
    ['/recuperar-senha', 'Recuperar senha'],
    ['/404', 'Página não encontrada'],
    ['/500', 'Erro no servidor'],
  ] as const) {
    test(`shows the public page ${path}`, async ({ page }) => {
      await page.goto(`/#${path}`)
      await expect(page.getByRole('heading', { name: heading })).toBeVisible()
      await expectRoute(page, path)
    })
  }

  test('sends a visitor without a session to the login page', async ({ page }) => {
    await page.goto('/#/perfil')
    await expectRoute(page, '/login?redirect=%2Fperfil')
    await expect(loginForm(page)).toBeVisible()
  })

  test('applies ?theme=dark and ignores a value that is not allowed', async ({ page }) => {
    const html = page.locator('html')
    await page.goto('/?theme=dark#/login')
    await expect(html).toHaveAttribute('data-coreui-theme', 'dark')
    await page.goto('/?theme=%3Cscript%3E#/login')
    await expect(loginForm(page)).toBeVisible()
    await expect(html).toHaveAttribute('data-coreui-theme', /^(light|dark)$/)
  })

  test('follows the system colour scheme in auto mode', async ({ page }) => {
    await page.addInitScript(() =>
      window.localStorage.setItem('coreui-free-react-admin-template-theme', 'auto'),
    )
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/#/login')
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'light')
  })

  test('signs in and out with the account given', async ({ page }) => {
    const account = smokeCredentials()
    test.skip(
      account === null,
      `no E2E_USER/E2E_PASSWORD for ${externalBaseURL ?? 'this panel'}: sign-in not tried`,
    )
    await page.goto('/#/login')
    await signInWithForm(page, account!)
    await expect(loginForm(page)).toBeHidden()
    // Signing out again: the smoke run leaves no session behind.
    await page.getByRole('button', { name: 'Menu do usuário' }).click()
    await page.getByRole('button', { name: 'Sair' }).click()
    await expectRoute(page, '/login')
    await expect(loginForm(page)).toBeVisible()
  })
})
