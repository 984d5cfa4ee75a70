import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { startOwnServer, type OwnServer } from './support/own-server'
import { expectRoute, signInWithForm } from './support/pages'
import { e2e } from './support/test-env'

/**
 * PASSWORD_SIGN_IN=off (docs/single-sign-on.md), on a server of this suite's own: the login page
 * offers the provider; the password form is there only for the first admin, behind a toggle.
 */
const admin = { email: 'guardia@painel.test', password: 'senha-da-guardia-123' }
let dataDir: string
let server: OwnServer

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'painel-password-off-'))
  server = await startOwnServer({
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
  })
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
  await signInWithForm(page, admin)
  await expectRoute(page, '/dashboard')
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
})
