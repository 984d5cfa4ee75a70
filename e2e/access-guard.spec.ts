import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { expectRoute, loginForm, presetToken, signInWithForm, tokenIn } from './support/pages'
import { e2e } from './support/test-env'

/** docs/architecture.md, "Fixed contracts": who sees what, by the token in localStorage `token_adm`. */

const LOGGED_OUT: [string, string | null][] = [
  ['no token_adm', null],
  ["''", ''],
  ['null', 'null'],
  ['{}', '{}'],
  ['{"token":""}', '{"token":""}'],
  ['broken JSON', '{"token":"abc'],
  ['a number', '42'],
]

/** Where each non-public path sends a logged-out visitor. */
const NON_PUBLIC: [string, string][] = [
  ['/', '/login'],
  ['/dashboard', '/login'],
  ['/perfil', '/login?redirect=%2Fperfil'],
  ['/anything/deep', '/login?redirect=%2Fanything%2Fdeep'],
]

test.describe('logged out', () => {
  for (const [what, value] of LOGGED_OUT) {
    test(`with ${what}, every non-public path lands on the login page`, async ({ page }) => {
      await presetToken(page, value)
      for (const [path, landing] of NON_PUBLIC) {
        await page.goto(`/#${path}`)
        await expectRoute(page, landing)
        await expect(loginForm(page)).toBeVisible()
        await expect(page.getByRole('heading', { name: 'Entrar', exact: true })).toBeVisible()
      }
    })
  }

  const PUBLIC: [string, string][] = [
    ['/login', 'Entrar'],
    ['/register', 'Solicitar cadastro'],
    ['/recuperar-senha', 'Recuperar senha'],
    ['/404', 'Página não encontrada'],
    ['/500', 'Erro no servidor'],
  ]
  for (const [path, heading] of PUBLIC) {
    test(`${path} is public and stays where it is`, async ({ page }) => {
      await presetToken(page, '{"token":""}')
      await page.goto(`/#${path}`)
      await expect(page.getByRole('heading', { name: heading })).toBeVisible()
      await expectRoute(page, path)
    })
  }

  test('after signing in, the user goes on to the path they wanted', async ({ page, api }) => {
    const staff = await createStaff(api)
    await page.goto('/#/perfil')
    await expectRoute(page, '/login?redirect=%2Fperfil')
    await signInWithForm(page, staff)
    await expectRoute(page, '/perfil')
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    await expect(page.getByRole('main').getByText(staff.email, { exact: true })).toBeVisible()
    expect(JSON.parse((await tokenIn(page)) ?? '{}')).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
    })
  })

  for (const target of [
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '/login',
  ]) {
    test(`a redirect to ${target} is not followed: the user lands on the dashboard`, async ({
      page,
      api,
    }) => {
      const staff = await createStaff(api)
      await page.goto(`/#/login?redirect=${encodeURIComponent(target)}`)
      await signInWithForm(page, staff)
      await expectRoute(page, '/dashboard')
      await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
      // Still the panel: the redirect never left for another origin.
      expect(new URL(page.url()).origin).toBe(new URL(e2e.baseURL).origin)
      expect(page.url()).not.toContain('evil')
    })
  }
})

test.describe('signed in', () => {
  test.use({ signedInAs: 'staff' })

  for (const path of ['/', '/login', '/login?redirect=%2F%2Fevil.example']) {
    test(`${path} goes to the dashboard`, async ({ page }) => {
      await page.goto(`/#${path}`)
      await expectRoute(page, '/dashboard')
      await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    })
  }

  test('"Sair" in the user menu ends the session and goes to the login page', async ({
    page,
    api,
  }) => {
    await page.goto('/#/perfil')
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    const token = (JSON.parse((await tokenIn(page)) ?? '{}') as { token: string }).token
    await page.getByRole('button', { name: 'Menu do usuário' }).click()
    await page.getByRole('button', { name: 'Sair' }).click()
    await expectRoute(page, '/login')
    await expect(loginForm(page)).toBeVisible()
    expect(await tokenIn(page)).toBeNull()
    // The server ended the session too: the old token is refused.
    const me = await api.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
    expect(me.status()).toBe(401)
    // And the panel is closed to this tab again.
    await page.goto('/#/dashboard')
    await expectRoute(page, '/login')
  })

  test('signing out in another tab takes this one to the login page', async ({ page, context }) => {
    await page.goto('/#/perfil')
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    const other = await context.newPage()
    await other.goto('/#/dashboard')
    await other.getByRole('button', { name: 'Menu do usuário' }).click()
    await other.getByRole('button', { name: 'Sair' }).click()
    await expectRoute(other, '/login')
    await expectRoute(page, '/login?redirect=%2Fperfil')
    await expect(loginForm(page)).toBeVisible()
  })

  test('a token spoiled in another tab counts as signed out here', async ({ page, context }) => {
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    const other = await context.newPage()
    await other.goto('/#/404')
    await other.evaluate(() => window.localStorage.setItem('token_adm', '{"token":'))
    await expectRoute(page, '/login')
  })

  test('signing in as someone else in another tab is followed here', async ({
    page,
    context,
    api,
    account,
  }) => {
    await page.goto('/#/perfil')
    await expect(page.getByRole('main').getByText(account!.email, { exact: true })).toBeVisible()
    const colleague = await createStaff(api, { name: 'Bruno Colega' })
    const other = await context.newPage()
    await other.goto('/#/404')
    await other.evaluate(() => window.localStorage.removeItem('token_adm'))
    await other.goto('/#/login')
    await signInWithForm(other, colleague)
    await expectRoute(other, '/dashboard')
    await expect(page.getByRole('main').getByText(colleague.email, { exact: true })).toBeVisible()
  })
})
