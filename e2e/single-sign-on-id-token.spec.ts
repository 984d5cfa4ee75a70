import type { APIRequestContext, Page } from '@playwright/test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePortSync } from '../scripts/free-port'
import { startOidcTestProvider, type OidcTestProvider } from '../server/test/oidc-test-provider'
import { expect, test } from './fixtures'
import { uniqueEmail } from './support/accounts'
import { startOwnServer, type OwnServer } from './support/own-server'
import { expectRoute, signInWithForm, tokenIn } from './support/pages'

/**
 * The single sign-on journeys with a provider that puts the person's claims in the ID token, as
 * Google, Entra ID and gov.br do (docs/single-sign-on.md). The run's shared provider
 * (e2e/support/oidc-provider-server.ts) runs as oidc-provider ships, with them in UserInfo only,
 * and single-sign-on.spec.ts walks these journeys there; this suite has a provider in ID-token
 * mode and a server of its own that signs in with it.
 */
const admin = { email: 'idtoken-admin@painel.test', password: 'senha-do-admin-idtoken-1' }
const LABEL = 'Conta do Token'
const client = { clientId: 'painel-idtoken', clientSecret: 'segredo-idtoken' }
let dataDir: string
let server: OwnServer
let provider: OidcTestProvider
test.describe.configure({ mode: 'default' })

test.beforeAll(async () => {
  const port = freePortSync()
  provider = await startOidcTestProvider({
    clients: [
      {
        ...client,
        redirectUris: [`http://localhost:${port}/api/auth/oidc/corp/callback`],
      },
    ],
    claimsIn: 'id-token',
    anyEmail: true,
  })
  dataDir = await mkdtemp(join(tmpdir(), 'painel-idtoken-'))
  server = await startOwnServer(
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      AUTH_RATE_LIMIT: '10000',
      AUTH_PROVIDERS: 'corp',
      AUTH_CORP_ISSUER_URL: provider.issuer,
      AUTH_CORP_CLIENT_ID: client.clientId,
      AUTH_CORP_CLIENT_SECRET: client.clientSecret,
      AUTH_CORP_LABEL: LABEL,
    },
    port,
  )
})
test.afterAll(async () => {
  await server.stop()
  await provider.stop()
  await rm(dataDir, { recursive: true, force: true })
})

async function signInThroughProvider(page: Page, email: string) {
  await page.goto(`${server.baseURL}/#/login`)
  await page.getByRole('link', { name: `Entrar com ${LABEL}` }).click()
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Senha').fill('qualquer-senha')
  await page.getByRole('button', { name: 'Entrar' }).click()
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post(`${server.baseURL}/api/auth/login`, { data: admin })
  expect(answer.status()).toBe(200)
  return ((await answer.json()) as { token: string }).token
}

test('a new person comes back pending; an admin approves on Equipe; the next press lands on Início', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('idtoken-nova')
  await signInThroughProvider(page, email)
  await expectRoute(page, '/login')
  await expect(page.getByRole('status')).toContainText('aguarda a aprovação de um administrador')
  expect(await tokenIn(page)).toBeNull()

  const adminContext = await browser.newContext()
  try {
    const adminPage = await adminContext.newPage()
    await adminPage.goto(`${server.baseURL}/#/login?redirect=%2Fequipe`)
    await signInWithForm(adminPage, admin)
    await adminPage.getByRole('searchbox', { name: 'Buscar por nome ou e-mail' }).fill(email)
    await adminPage.keyboard.press('Enter')
    const row = adminPage.getByRole('row', { name: new RegExp(email) })
    await row.getByRole('button', { name: /^Aprovar / }).click()
    await adminPage.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click()
    await expect(row.getByText('Ativa', { exact: true })).toBeVisible()
  } finally {
    await adminContext.close()
  }

  await page.goto(`${server.baseURL}/#/login`)
  await page.getByRole('link', { name: `Entrar com ${LABEL}` }).click()
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  expect(await tokenIn(page)).not.toBeNull()
})

test('an account with the e-mail the token vouches for is linked: Início, and Minha conta lists the provider', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('idtoken-conta')
  const registered = await request.post(`${server.baseURL}/api/auth/register`, {
    data: { name: 'Iara Token', email, password: 'senha-da-iara-123' },
  })
  expect(registered.status()).toBe(202)
  const token = await adminToken(request)
  const headers = { authorization: `Bearer ${token}` }
  let id: string | undefined
  await expect(async () => {
    const list = await request.get(`${server.baseURL}/api/staff?q=${encodeURIComponent(email)}`, {
      headers,
    })
    id = ((await list.json()) as { items: { id: string }[] }).items[0]?.id
    expect(id).toBeDefined()
  }).toPass({ timeout: 5000 })
  const approved = await request.patch(`${server.baseURL}/api/staff/${id}`, {
    data: { status: 'active' },
    headers,
  })
  expect(approved.status()).toBe(200)

  await signInThroughProvider(page, email)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  await page.goto(`${server.baseURL}/#/perfil`)
  const providers = page.getByRole('list', { name: 'Provedores de identidade' })
  await expect(providers.getByText(LABEL, { exact: true })).toBeVisible()
})
