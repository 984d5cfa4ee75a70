import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { finiteAnimationsFinished } from './support/animations'
import { SERVER_DECIDES } from './support/engine-sensitive'
import { expectRoute, sidebar } from './support/pages'

/** The authenticated frame: sidebar, header, breadcrumb, footer, inner screens. */
test.use({ signedInAs: 'staff' })

const toggler = (page: Page) =>
  page.getByRole('button', { name: 'Mostrar ou ocultar o menu lateral' })
const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Você está em' })

test('the sidebar lists the screens and marks the current one; its links change the hash route', async ({
  page,
}) => {
  await page.goto('/#/dashboard')
  const screens = sidebar(page).getByRole('list')
  await expect(screens.getByRole('link', { name: 'Início' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await sidebar(page).getByRole('link', { name: 'Minha conta' }).click()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
  await expect(screens.getByRole('link', { name: 'Minha conta' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(page).toHaveTitle('Minha conta · Painel')
  // Only admins see Equipe.
  await expect(sidebar(page).getByRole('link', { name: 'Equipe' })).toHaveCount(0)
})

test('the toggler hides and shows the sidebar on a wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/#/dashboard')
  await expect(sidebar(page)).toBeInViewport()
  await expect(toggler(page)).toHaveAttribute('aria-expanded', 'true')
  await toggler(page).click()
  await expect(sidebar(page)).not.toBeInViewport()
  await expect(toggler(page)).toHaveAttribute('aria-expanded', 'false')
  // The content takes the room the sidebar left.
  const main = page.getByRole('main')
  await expect.poll(async () => (await main.boundingBox())?.x).toBeLessThan(50)
  await toggler(page).click()
  await expect(sidebar(page)).toBeInViewport()
})

test('a second press of the toggler while the sidebar slides out brings it back, and it stays', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/#/dashboard')
  await expect(sidebar(page)).toBeInViewport()
  // By keyboard: a mouse would wait for the toggler, which moves with the content, to stand still.
  await toggler(page).focus()
  await page.keyboard.press('Enter')
  // Mid-slide (CoreUI's slide takes 0.15 s): the second press changes its mind.
  await page.waitForFunction(
    () => (document.getElementById('painel-sidebar')?.getBoundingClientRect().left ?? 0) < -20,
  )
  await page.keyboard.press('Enter')
  await expect(toggler(page)).toHaveAttribute('aria-expanded', 'true')
  await finiteAnimationsFinished(page)
  await expect(sidebar(page)).toBeInViewport({ ratio: 1 })
  await expect(toggler(page)).toHaveAttribute('aria-expanded', 'true')
})

test('on a phone the sidebar opens over the page and closes after choosing a screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 760 })
  await page.goto('/#/dashboard')
  await expect(sidebar(page)).not.toBeInViewport()
  await toggler(page).click()
  await expect(sidebar(page)).toBeInViewport()
  await sidebar(page).getByRole('link', { name: 'Minha conta' }).click()
  await expectRoute(page, '/perfil')
  await expect(sidebar(page)).not.toBeInViewport()

  // A tap outside closes it too.
  await toggler(page).click()
  await expect(sidebar(page)).toBeInViewport()
  await page.mouse.click(370, 400)
  await expect(sidebar(page)).not.toBeInViewport()
})

test('the breadcrumb says where the user is and its links work with hash URLs', async ({
  page,
}) => {
  await page.goto('/#/perfil')
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Início', 'Minha conta'])
  await expect(breadcrumb(page).getByText('Minha conta')).toHaveAttribute('aria-current', 'page')
  const home = breadcrumb(page).getByRole('link', { name: 'Início' })
  await expect(home).toHaveAttribute('href', '#/dashboard')
  await home.click()
  await expectRoute(page, '/dashboard')
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Início'])
  // Back and forward go through the same routes.
  await page.goBack()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
})

test(
  'an unknown inner path says so inside the layout, with a way back',
  { tag: SERVER_DECIDES },
  async ({ page }) => {
    await page.goto('/#/nao-existe/mesmo')
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible()
    await expect(sidebar(page)).toBeVisible()
    await expect(breadcrumb(page).getByRole('listitem')).toHaveText([
      'Início',
      'Página não encontrada',
    ])
    await page.getByRole('link', { name: 'Voltar ao início' }).click()
    await expectRoute(page, '/dashboard')
  },
)

test(
  'the header shows who is signed in; the dashboard greets them and links onwards',
  { tag: SERVER_DECIDES },
  async ({ page, account }) => {
    await page.goto('/#/dashboard')
    await expect(
      page.getByRole('main').getByText(`Olá, ${account!.name.split(' ')[0]}!`),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Menu do usuário' }).click()
    await expect(page.getByText(account!.email)).toBeVisible()
    await page.getByRole('link', { name: 'Minha conta' }).last().click()
    await expectRoute(page, '/perfil')
    await expect(page.getByRole('main').getByText('Equipe', { exact: true })).toBeVisible()
    await expect(page.getByRole('main').getByText('Ativa', { exact: true })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toContainText('Painel administrativo')
  },
)

test.describe('as an admin', { tag: SERVER_DECIDES }, () => {
  test.use({ signedInAs: 'admin' })

  test('the Equipe screen is in the menu and lists the accounts', async ({ page }) => {
    await page.goto('/#/dashboard')
    await sidebar(page).getByRole('link', { name: 'Equipe' }).click()
    await expectRoute(page, '/equipe')
    await expect(page.getByRole('table', { name: 'Contas da equipe' })).toBeVisible()
    // Searched through the URL: the shared test database holds more accounts than one page.
    await page.goto('/#/equipe?q=admin%40painel.test')
    await expect(page.getByRole('row', { name: /admin@painel\.test/ })).toContainText(
      'Administrador',
    )
  })
})
