import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { SERVER_DECIDES } from './support/engine-sensitive'
import { expectRoute } from './support/pages'

/** The pages anyone may open: their colour mode, their wording, and where they lead. */

const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'
const PUBLIC_PAGES = ['/login', '/register', '/recuperar-senha', '/404', '/500']

const colourModes = (page: Page) => page.getByRole('group', { name: 'Tema das cores' })

test('every public page lets the user choose the colour mode, which is remembered', async ({
  page,
}) => {
  for (const [index, path] of PUBLIC_PAGES.entries()) {
    await page.goto(`/#${path}`)
    const mode = index % 2 === 0 ? 'dark' : 'light'
    const label = mode === 'dark' ? 'Escuro' : 'Claro'
    await colourModes(page).getByRole('button', { name: label }).click()
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
    await expect(colourModes(page).getByRole('button', { name: label })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    expect(await page.evaluate((key) => localStorage.getItem(key), COLOR_MODE_KEY)).toBe(mode)
  }
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'dark')
})

test('one word for signing in: "entrar", never "login", on the public pages', async ({ page }) => {
  const texts: string[] = []
  for (const path of ['/login', '/register', '/recuperar-senha']) {
    await page.goto(`/#${path}`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    texts.push(await page.locator('body').innerText())
  }
  await page.getByLabel('E-mail').fill('ninguem@painel.test')
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(page.getByRole('heading', { name: 'Verifique seu e-mail' })).toBeVisible()
  texts.push(await page.locator('body').innerText())
  for (const text of texts) expect(text).not.toMatch(/\blogin\b/i)
  await page.getByRole('link', { name: 'Voltar para a tela de entrada' }).click()
  await expectRoute(page, '/login')
})

test.describe('#/500 opened directly', () => {
  test('offers no Back out of the app: its way out is the panel, or sign-in', async ({ page }) => {
    // A tab that was somewhere else first: history.length is 2, but nothing before is the panel.
    await page.goto('about:blank')
    await page.goto('/#/500')
    await expect(page.getByRole('heading', { name: 'Erro no servidor' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Voltar à página anterior' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Voltar ao início' }).click()
    await expectRoute(page, '/login')
  })

  test('reached from another page of the panel, Back returns there', async ({ page }) => {
    await page.goto('/#/register')
    await expect(page.getByRole('heading', { name: 'Solicitar cadastro' })).toBeVisible()
    await page.goto('/#/500')
    await page.getByRole('button', { name: 'Voltar à página anterior' }).click()
    await expectRoute(page, '/register')
  })
})

test('a reset link that does not work says so as the page opens, before any typing', async ({
  page,
}) => {
  await page.goto(`/#/recuperar-senha?token=${'A'.repeat(43)}`)
  await expect(page.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
  await expect(page.getByText('já foi usado ou expirou')).toBeVisible()
  await expect(page.getByLabel('Nova senha', { exact: true })).toHaveCount(0)
  await page.getByRole('link', { name: 'Pedir um novo link' }).click()
  await expect(page.getByRole('heading', { name: 'Recuperar senha' })).toBeVisible()
})

// Where the app sends a signed-in person: its own rules, the same in every engine.
test.describe('signed in', { tag: SERVER_DECIDES }, () => {
  test.use({ signedInAs: 'staff' })

  for (const path of ['/login', '/register', '/recuperar-senha']) {
    test(`#${path} goes on to the panel instead of showing its form`, async ({ page }) => {
      await page.goto(`/#${path}`)
      await expectRoute(page, '/dashboard')
      await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    })
  }

  test('a mailed reset link still opens: whoever holds it may set a password', async ({ page }) => {
    await page.goto(`/#/recuperar-senha?token=${'A'.repeat(43)}`)
    await expect(page.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
  })
})
