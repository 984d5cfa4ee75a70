import type { CDPSession } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { expectRoute } from './support/pages'

/** Passkeys with Chromium's virtual authenticator (CDP WebAuthn): added, then used to sign in. */

test.skip(({ browserName }) => browserName !== 'chromium', 'the virtual authenticator is CDP')

async function virtualAuthenticator(cdp: CDPSession): Promise<void> {
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

test('a passkey is added in Minha conta and signs in from the login page without an e-mail', async ({
  page,
  api,
}) => {
  test.slow()
  const staff = await createStaff(api, { label: 'chave', name: 'Paulo Passkey' })
  const token = await apiSignIn(api, staff.email, staff.password)
  await virtualAuthenticator(await page.context().newCDPSession(page))
  await page.addInitScript((value) => {
    if (!window.sessionStorage.getItem('seeded')) {
      window.sessionStorage.setItem('seeded', '1')
      window.localStorage.setItem('token_adm', value)
    }
  }, JSON.stringify({ token }))
  await page.goto('/#/perfil')
  await expect(page.getByText('Nenhuma chave de acesso cadastrada.')).toBeVisible()
  await page.getByLabel('Nome da chave').fill('Notebook de teste')
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click()
  await expect(page.getByText('Chave de acesso adicionada.')).toBeVisible()
  const list = page.getByRole('list', { name: 'Chaves de acesso' })
  await expect(list).toContainText('Notebook de teste')

  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(request.url()))
  await page.getByRole('button', { name: 'Entrar com chave de acesso' }).click()
  await expectRoute(page, '/dashboard')
  // The WebAuthn code came only now, with the click.
  expect(fetched.some((url) => /passkey-sign-in-.*\.js$/.test(url))).toBe(true)

  await page.goto('/#/perfil')
  await expect(list).not.toContainText('nunca usada')
  await page.getByRole('button', { name: 'Remover a chave Notebook de teste' }).click()
  await expect(page.getByText('Chave de acesso removida.')).toBeVisible()
  await expect(page.getByText('Nenhuma chave de acesso cadastrada.')).toBeVisible()
})

test('the cold login page does not load the WebAuthn code', async ({ page }) => {
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(request.url()))
  await page.goto('/#/login')
  await expect(page.getByRole('button', { name: 'Entrar com chave de acesso' })).toBeVisible()
  expect(fetched.filter((url) => /passkey|mfa-step/.test(url))).toEqual([])
})
