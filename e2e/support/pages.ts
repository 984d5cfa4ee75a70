import { expect, type Page } from '@playwright/test'
import type { TestAccount } from './accounts'
import { QUICK_POLL_MS } from './quick-poll'

/** The hash route the page is on, e.g. `/login?redirect=%2Fperfil`. */
export function route(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, '')
}

/** Waits for the page to be on a route. */
export async function expectRoute(page: Page, expected: string | RegExp): Promise<void> {
  await expect
    .poll(() => route(page), { intervals: QUICK_POLL_MS })
    .toEqual(expected instanceof RegExp ? expect.stringMatching(expected) : expected)
}

/**
 * Fills and sends the login form, as a person would. `button`: the form's other wording, "Entrar
 * e vincular" after a provider's notice that the account must be linked by its password.
 */
export async function signInWithForm(
  page: Page,
  account: Pick<TestAccount, 'email' | 'password'>,
  button = 'Entrar',
): Promise<void> {
  await page.getByLabel('E-mail').fill(account.email)
  await page.getByLabel('Senha', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: button, exact: true }).click()
}

/** "Sair" from the user menu, and back on the login page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
}

/** Sets (or, with null, removes) token_adm before any script of the page runs. */
export async function presetToken(page: Page, value: string | null): Promise<void> {
  await page.addInitScript((raw) => {
    if (raw === null) window.localStorage.removeItem('token_adm')
    else window.localStorage.setItem('token_adm', raw)
  }, value)
}

/**
 * Signs the page in with `token` once: set before the first load's scripts, and not again on
 * later loads of the same tab, so a test can watch the session end or change.
 */
export async function seedTokenOnce(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    if (!window.sessionStorage.getItem('seeded')) {
      window.sessionStorage.setItem('seeded', '1')
      window.localStorage.setItem('token_adm', value)
    }
  }, JSON.stringify({ token }))
}

/**
 * Holds every request matching `url` until the returned release() is called, and counts them:
 * what a slow network or a slow server looks like to the page.
 */
export async function holdRequests(
  page: Page,
  url: string | RegExp,
): Promise<{ release: () => void; count: () => number }> {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let requests = 0
  await page.route(url, async (route) => {
    requests += 1
    await held
    await route.continue()
  })
  return { release, count: () => requests }
}

export const loginForm = (page: Page) => page.getByRole('button', { name: 'Entrar', exact: true })
/** The signed-in layout's sidebar. */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Navegação principal' })

/** Fills the registration form (already open) and sends it: the page then says it was received. */
export async function submitRegistration(
  page: Page,
  person: { name: string; email: string; password: string },
): Promise<void> {
  await page.getByLabel('Nome').fill(person.name)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Senha', { exact: true }).fill(person.password)
  await page.getByLabel('Confirmar senha').fill(person.password)
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  await expect(page.getByRole('heading', { name: 'Cadastro recebido' })).toBeVisible()
}
export const tokenIn = (page: Page) => page.evaluate(() => window.localStorage.getItem('token_adm'))
