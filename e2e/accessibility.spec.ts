import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { COLOUR_RULES, seriousViolations } from './support/axe'
import { COLOR_MODE_KEY, switchColorMode } from './support/color-scheme'

/**
 * axe-core (WCAG 2.1 A/AA rules and best practices) finds nothing serious or critical, in both
 * colour modes. Each page opens in light mode, is scanned, is switched to dark mode as another
 * tab's choice switches it, and is scanned again: one arrangement for both modes (a page opened
 * again for dark mode was a third of the suite's time). The dark scan runs the rules a colour mode
 * decides (COLOUR_RULES); the colour-mode menu's own test runs every rule in both.
 */

const PUBLIC: [string, string][] = [
  ['/login', 'Entrar'],
  ['/register', 'Solicitar cadastro'],
  ['/recuperar-senha', 'Recuperar senha'],
  [`/recuperar-senha?token=${'A'.repeat(43)}`, 'Criar nova senha'],
  ['/404', 'Página não encontrada'],
  ['/500', 'Erro no servidor'],
]

test.beforeEach(async ({ page }) => {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    COLOR_MODE_KEY,
    'light',
  ] as const)
})

/**
 * What axe finds serious on the page in light mode, then in dark mode, each named; `stillOpen` is
 * what must still show after the switches (an open dialog or menu), so both scans see one state.
 * `darkRules`: 'all' scans the dark mode whole too.
 */
async function violationsInBothModes(
  page: Page,
  what: string,
  stillOpen?: Locator,
  darkRules: 'colour' | 'all' = 'colour',
): Promise<string[]> {
  // Light first: a page reached by a change of hash alone keeps the mode the last scan left.
  await switchColorMode(page, 'light')
  const light = await seriousViolations(page)
  await switchColorMode(page, 'dark')
  if (stillOpen) await expect(stillOpen).toBeVisible()
  const dark = await seriousViolations(page, darkRules === 'all' ? undefined : COLOUR_RULES)
  return [
    ...light.map((found) => `${what} in light mode: ${found}`),
    ...dark.map((found) => `${what} in dark mode: ${found}`),
  ]
}

test('the public pages, with their validation messages shown', async ({ page }) => {
  // Six pages, two axe scans each: more than one page's worth of time on a busy 2-core runner.
  test.slow()
  // The reset link is taken as usable, to check its form (the page asks when it opens).
  await page.route('**/api/auth/password-reset/check', (route) =>
    route.fulfill({ json: { email: 'ana@empresa.com.br' } }),
  )
  for (const [path, heading] of PUBLIC) {
    await page.goto(`/#${path}`)
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    const submit = page.locator('form button[type="submit"]')
    let messages: Locator | undefined
    if ((await submit.count()) > 0) {
      await submit.click()
      messages = page.getByRole('alert').first()
      await expect(messages).toBeVisible()
    }
    expect(await violationsInBothModes(page, path, messages)).toEqual([])
  }
})

test.describe('the layout', () => {
  test.use({ signedInAs: 'admin' })

  test('the error screen, when the layout cannot load', async ({ page }) => {
    await page.route('**/assets/default-layout-*.js', (route) => route.abort('failed'))
    await page.addInitScript(() =>
      window.sessionStorage.setItem('painel:chunk-reload-at', String(Date.now())),
    )
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Erro inesperado na aplicação' })).toBeVisible()
    expect(await violationsInBothModes(page, 'the error screen')).toEqual([])
  })

  // One test per screen, not one for all: eight axe scans in one test passed its (slow) 90 s
  // only just when the machine was busy, and once not.
  for (const [path, heading] of [
    ['/dashboard', 'Início'],
    ['/perfil', 'Minha conta'],
    ['/equipe', 'Equipe'],
    ['/auditoria', 'Auditoria'],
    ['/nao-existe', 'Página não encontrada'],
  ] as const) {
    test(`${heading} (#${path})`, async ({ page }) => {
      // Two axe scans of a whole screen: one took up to half a minute on a busy 2-core machine.
      test.slow()
      await page.goto(`/#${path}`)
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
      await expect(page.getByText('Carregando…')).toHaveCount(0)
      expect(await violationsInBothModes(page, path)).toEqual([])
    })
  }

  test("Equipe's confirmation dialog, and an account's page", async ({ page, api }) => {
    // Two accounts made through the API and four axe scans.
    test.slow()
    // An account in each state, so every kind of row and button is checked.
    const active = await createStaff(api, { name: 'Conta Ativa' })
    const pending = await createStaff(api, { name: 'Conta Pendente', approve: false })
    await page.goto(`/#/equipe?q=${encodeURIComponent(pending.email)}`)
    await page.getByRole('button', { name: 'Aprovar Conta Pendente' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    expect(await violationsInBothModes(page, "Equipe's dialog", dialog)).toEqual([])
    await page.getByRole('button', { name: 'Cancelar' }).click()
    await page.goto(`/#/equipe/${active.id}`)
    await expect(page.getByRole('heading', { name: 'Conta Ativa', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Histórico' })).toBeVisible()
    expect(await violationsInBothModes(page, 'the account page')).toEqual([])
  })

  test('the user menu and the colour-mode menu, open', async ({ page }) => {
    // Four axe scans.
    test.slow()
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    await page.getByRole('button', { name: 'Menu do usuário' }).click()
    const signOut = page.getByRole('button', { name: 'Sair' })
    await expect(signOut).toBeVisible()
    expect(await violationsInBothModes(page, 'the user menu', signOut)).toEqual([])
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: /^Escolher tema/ }).click()
    const automatic = page.getByRole('button', { name: 'Automático' })
    await expect(automatic).toBeVisible()
    expect(await violationsInBothModes(page, 'the colour-mode menu', automatic, 'all')).toEqual([])
  })
})

test('the scan waits for colour transitions: a colour mode switched just before is measured settled', async ({
  page,
}) => {
  await page.goto('/#/login')
  const passkeyButton = page.getByRole('button', { name: 'Entrar com chave de acesso' })
  await expect(passkeyButton).toBeVisible()
  // CoreUI's buttons fade their colours in 0.15 s after the switch. Here the fade is held: it
  // would start in an hour, and ends when the test ends it, once the scan has asked to wait for
  // it (Animation.finished). A scan that does not wait measures the light-mode grey on the dark
  // card (3.3:1); one that waits measures the dark mode's colours. How long axe takes does not
  // matter. (Through the CSSOM: the CSP allows no inline style sheet.)
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLElement>('.btn')) {
      button.style.transitionDelay = '3600s'
    }
    const finished = Object.getOwnPropertyDescriptor(Animation.prototype, 'finished')!
    Object.defineProperty(Animation.prototype, 'finished', {
      configurable: true,
      get(this: Animation) {
        ;(window as { scanWaited?: boolean }).scanWaited = true
        return finished.get!.call(this) as Promise<Animation>
      },
    })
  })
  await page.evaluate(() => document.documentElement.setAttribute('data-coreui-theme', 'dark'))
  const scan = seriousViolations(page)
  const scanWaits = page
    .waitForFunction(() => (window as { scanWaited?: boolean }).scanWaited === true)
    .then(
      () => true,
      () => false,
    )
  if (await Promise.race([scan.then(() => false), scanWaits])) {
    await page.evaluate(() => {
      for (const animation of document.getAnimations()) animation.finish()
    })
  }
  expect(await scan, 'dark mode, right after switching').toEqual([])
})
