import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff, uniqueEmail } from './support/accounts'
import { expectRoute, signInWithForm, tokenIn } from './support/pages'
import { e2e } from './support/test-env'

/**
 * Issue 28: signing in with the organisation's account. The panel's `corp` provider is a real
 * OpenID provider on loopback (e2e/support/oidc-provider-server.ts, started by
 * playwright.config.ts), with its own login page; any e-mail signs in there, verified.
 */

const providerButton = (page: Page) =>
  page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` })

/** At the provider's own page: the e-mail, the password, "Entrar". */
async function signInAtProvider(page: Page, email: string) {
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  expect(new URL(page.url()).origin).toBe(e2e.oidc.issuer)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha').fill('qualquer-senha')
  await page.getByRole('button', { name: 'Entrar' }).click()
}

test('a person with an account presses "Entrar com …", signs in at the provider and lands on Início', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { name: 'Rita Provedor', label: 'rita-sso' })
  await page.goto('/#/login')
  await providerButton(page).click()
  await signInAtProvider(page, person.email)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  await expectRoute(page, '/dashboard')
  expect(await tokenIn(page)).not.toBeNull()
  // The hand-off code was taken out of the address: nothing to replay from the history.
  expect(page.url()).not.toContain('sso=')

  // Signed out of the panel, the button signs the person in again through the link now made,
  // where they were going; the provider remembers them, so its page does not even show.
  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
  await page.goto('/#/login?redirect=%2Fperfil')
  await providerButton(page).click()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()

  // Minha conta lists the provider; with a password to fall back on, it can be unlinked.
  const providers = page.getByRole('list', { name: 'Provedores de identidade' })
  await expect(providers.getByText(e2e.oidc.label, { exact: true })).toBeVisible()
  await page.getByRole('button', { name: `Desvincular ${e2e.oidc.label}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Desvincular' }).click()
  await expect(page.getByText('Provedor desvinculado.')).toBeVisible()
  await expect(providers).toBeHidden()
})

test('Equipe shows how a person signs in: password and provider', async ({
  page,
  browser,
  api,
}) => {
  const person = await createStaff(api, { name: 'Teo Dois Caminhos', label: 'teo-sso' })
  await page.goto('/#/login')
  await providerButton(page).click()
  await signInAtProvider(page, person.email)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

  const adminContext = await browser.newContext()
  try {
    const admin = await adminContext.newPage()
    await admin.goto(`/#/login?redirect=${encodeURIComponent(`/equipe/${person.id}`)}`)
    await signInWithForm(admin, e2e.admin)
    await expect(admin.getByRole('heading', { name: person.name, level: 1 })).toBeVisible()
    await expect(
      admin.getByRole('definition').filter({ hasText: `Senha, ${e2e.oidc.label}` }),
    ).toBeVisible()
  } finally {
    await adminContext.close()
  }
})

test('a new person comes back from the provider waiting for approval', async ({ page }) => {
  await page.goto('/#/login')
  await providerButton(page).click()
  await signInAtProvider(page, uniqueEmail('nova-sso'))
  await expectRoute(page, '/login')
  await expect(page.getByRole('status')).toHaveText(
    'Seu cadastro foi recebido e aguarda a aprovação de um administrador. Você poderá entrar assim que o cadastro for aprovado.',
  )
  expect(await tokenIn(page)).toBeNull()
})

test('cancelled at the provider: the login page says so, and the form is still there', async ({
  page,
}) => {
  await page.goto('/#/login')
  await providerButton(page).click()
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  await page.getByRole('link', { name: 'Cancelar' }).click()
  await expectRoute(page, '/login')
  await expect(page.getByRole('alert')).toHaveText(
    'A entrada foi cancelada no provedor. Tente de novo quando quiser.',
  )
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
})

test("the provider's button is in the served page itself, before any script", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    await page.goto('/#/login')
    const link = page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` })
    await expect(link).toHaveAttribute('href', '/api/auth/oidc/corp/start')
  } finally {
    await context.close()
  }
})
