import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { startOwnServer, type OwnServer } from './support/own-server'
import { uniqueEmail } from './support/accounts'
import { authenticatorCode } from './support/authenticator'
import { expectRoute, signInWithForm } from './support/pages'
import { e2e } from './support/test-env'

/**
 * PASSWORD_SIGN_IN=off (docs/single-sign-on.md), on a server of this suite's own: the login page
 * offers the provider; the password form is there only for the first admin, behind a toggle, and
 * only the first admin has a password to change or recover. The run's provider knows this
 * server's callback (e2e.oidc.ownServerPort); any e-mail signs in there, and AUTO_APPROVE lets a
 * new person straight in.
 */
const admin = { email: 'guardia@painel.test', password: 'senha-da-guardia-123' }
let dataDir: string
let server: OwnServer
// One server on the port the provider knows: this file's tests run in order, in one worker.
test.describe.configure({ mode: 'default' })

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'painel-password-off-'))
  server = await startOwnServer(
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      AUTH_RATE_LIMIT: '10000',
      PASSWORD_SIGN_IN: 'off',
      AUTH_PROVIDERS: 'corp',
      AUTH_CORP_ISSUER_URL: e2e.oidc.issuer,
      AUTH_CORP_CLIENT_ID: e2e.oidc.clientId,
      AUTH_CORP_CLIENT_SECRET: e2e.oidc.clientSecret,
      AUTH_CORP_LABEL: e2e.oidc.label,
      AUTH_CORP_AUTO_APPROVE: 'true',
    },
    e2e.oidc.ownServerPort,
  )
})
test.afterAll(async () => {
  await server.stop()
  await rm(dataDir, { recursive: true, force: true })
})

test('the provider is the way in; the first admin opens the password form and signs in', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/#/login`)
  await expect(page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` })).toBeVisible()
  await expect(page.getByLabel('E-mail')).toBeHidden()
  await expect(page.getByRole('link', { name: 'Solicitar cadastro' })).toBeHidden()
  await expect(page.getByRole('link', { name: 'Esqueci minha senha' })).toBeHidden()

  await page.getByRole('button', { name: 'Entrar com senha (administrador)' }).click()
  await expect(page.getByLabel('E-mail')).toBeFocused()
  await expect(page.getByRole('button', { name: 'Entrar com senha (administrador)' })).toBeHidden()
  await expect(page.getByRole('link', { name: 'Solicitar cadastro' })).toBeHidden()
  await expect(page.getByRole('link', { name: 'Esqueci minha senha' })).toBeVisible()
  await signInWithForm(page, admin)
  await expectRoute(page, '/dashboard')
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

  // The first admin keeps a password, and Minha conta offers to change it.
  await page.goto(`${server.baseURL}/#/perfil`)
  await expect(page.getByRole('heading', { name: 'Alterar senha' })).toBeVisible()
})

test('someone who comes in through the provider has no password to change in Minha conta', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/#/login?redirect=%2Fperfil`)
  await page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` }).click()
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  await page.getByLabel('E-mail', { exact: true }).fill(uniqueEmail('sem-senha'))
  await page.getByLabel('Senha').fill('qualquer-senha')
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
  // Once the providers are listed, the password card is known to be none of theirs.
  const providers = page.getByRole('list', { name: 'Provedores de identidade' })
  await expect(providers.getByText(e2e.oidc.label, { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Alterar senha' })).toBeHidden()
  await expect(page.getByLabel('Senha atual')).toBeHidden()

  // Nothing to confirm a deletion or an e-mail change with: the cards say what to do instead.
  const deletion = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Excluir minha conta' }),
  })
  await expect(deletion).toContainText('sua conta não tem senha própria')
  await expect(deletion).toContainText('peça a exclusão a quem administra o Painel')
  await expect(deletion.getByRole('button')).toHaveCount(0)
  const emailCard = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Trocar e-mail' }),
  })
  await expect(emailCard).toContainText('peça a troca a quem administra o Painel')

  // With the authenticator app on, its code confirms: the only field, with nothing to switch to.
  const token = (
    JSON.parse((await page.evaluate(() => localStorage.getItem('token_adm'))) ?? '{}') as {
      token: string
    }
  ).token
  const headers = { authorization: `Bearer ${token}` }
  const setup = await page.request.post(`${server.baseURL}/api/me/totp`, { headers })
  const { secret } = (await setup.json()) as { secret: string }
  const confirmed = await page.request.post(`${server.baseURL}/api/me/totp/confirm`, {
    headers,
    data: { code: authenticatorCode(secret) },
  })
  expect(confirmed.status()).toBe(200)
  await page.reload()
  await expect(deletion.getByLabel('Código do autenticador')).toBeVisible()
  await expect(deletion.getByRole('button', { name: 'Usar a senha atual' })).toHaveCount(0)
  await expect(emailCard.getByLabel('Código do autenticador')).toBeVisible()
  await deletion
    .getByLabel('Código do autenticador')
    .fill(authenticatorCode(secret, Date.now() + 30_000))
  await deletion.getByRole('button', { name: 'Pedir a exclusão da conta' }).click()
  await expect(deletion.getByRole('status')).toHaveText(
    'Pedido de exclusão enviado. Quem administra o Painel vai analisá-lo.',
  )
})
