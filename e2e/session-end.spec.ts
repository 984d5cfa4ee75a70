import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { startOwnServer, type OwnServer } from './support/own-server'
import { expectRoute, loginForm, signInWithForm, tokenIn, seedTokenOnce } from './support/pages'

/** A session that ends says why on the login page, and what was being typed is not lost. */

test('after "Sair" the login page says "Você saiu."', async ({ page, api }) => {
  const staff = await createStaff(api, { label: 'saiu' })
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expectRoute(page, '/dashboard')
  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
  await expect(page.getByRole('status')).toHaveText('Você saiu.')

  // Signing in again forgets it: the next login page says nothing about the old session.
  await signInWithForm(page, staff)
  await expectRoute(page, '/dashboard')
  await page.evaluate(() => window.localStorage.removeItem('token_adm'))
  await page.goto('/#/login')
  await expect(loginForm(page)).toBeVisible()
  await expect(page.getByText('Você saiu.')).toBeHidden()
})

test('a session ended on the server while an invitation is typed: login says so, and the text comes back', async ({
  page,
  api,
}) => {
  const admin = await createStaff(api, { label: 'rascunho', role: 'admin', name: 'Rita Rascunho' })
  await page.goto('/#/login')
  await signInWithForm(page, admin)
  await expectRoute(page, '/dashboard')
  await page.goto('/#/equipe')
  await page.getByRole('button', { name: 'Convidar pessoa' }).click()
  const dialog = page.getByRole('dialog', { name: 'Convidar pessoa' })
  await dialog.getByLabel('Nome').fill('Pessoa Convidada')
  await dialog.getByLabel('E-mail').fill('convidada@painel.test')
  await dialog.getByLabel('Papel').selectOption({ label: 'Administrador' })

  // The session ends elsewhere (its token revoked) before the form is sent: the panel learns it
  // from the session's stream (client/src/session/session-events.ts), with nothing clicked.
  const { token } = JSON.parse((await tokenIn(page)) ?? '{}') as { token: string }
  const ended = await api.post('/api/auth/logout', {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(ended.status()).toBe(204)

  await expectRoute(page, '/login?redirect=%2Fequipe')
  await expect(page.getByRole('status')).toContainText(
    'Depois de entrar, você volta para a tela em que estava.',
  )
  // Nothing typed is in the URL, and no password was ever kept.
  expect(page.url()).not.toContain('Convidada')
  const kept = await page.evaluate(() => JSON.stringify(window.sessionStorage))
  expect(kept).toContain('Pessoa Convidada')
  expect(kept).not.toContain(admin.password)

  await signInWithForm(page, admin)
  await expectRoute(page, '/equipe')
  const reopened = page.getByRole('dialog', { name: 'Convidar pessoa' })
  await expect(reopened.getByLabel('Nome')).toHaveValue('Pessoa Convidada')
  await expect(reopened.getByLabel('E-mail')).toHaveValue('convidada@painel.test')
  await expect(reopened.getByLabel('Papel')).toHaveValue('00000000-0000-4000-8000-000000000001')

  // Cancelling forgets the draft: the next visit starts empty.
  await reopened.getByRole('button', { name: 'Cancelar' }).click()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Equipe' })).toBeVisible()
  await expect(page.getByRole('dialog')).toBeHidden()
})

test('another person signing in on the same tab does not get the draft', async ({ page, api }) => {
  const first = await createStaff(api, { label: 'primeira', role: 'admin' })
  const second = await createStaff(api, { label: 'segunda', role: 'admin' })
  const token = await apiSignIn(api, first.email, first.password)
  await seedTokenOnce(page, token)
  await page.goto('/#/equipe')
  await page.getByRole('button', { name: 'Convidar pessoa' }).click()
  await page.getByRole('dialog').getByLabel('Nome').fill('Segredo da Primeira')
  await page.getByRole('dialog').getByLabel('E-mail').fill('segredo@painel.test')
  // Ended elsewhere: the panel goes to Entrar by itself (the session's stream).
  await api.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } })
  await expectRoute(page, '/login?redirect=%2Fequipe')

  await signInWithForm(page, second)
  await expectRoute(page, '/equipe')
  const dialog = page.getByRole('dialog', { name: 'Convidar pessoa' })
  await expect(dialog.getByLabel('Nome')).toHaveValue('')
})

test.describe('across a restart of the server', () => {
  const admin = { email: 'reinicio@painel.test', password: 'senha-do-reinicio-123' }
  let dataDir: string
  let server: OwnServer
  test.beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'painel-restart-'))
    server = await startOwnServer(ownEnv(dataDir))
  })
  test.afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })
  function ownEnv(dir: string) {
    return {
      DATA_DIR: dir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      AUTH_RATE_LIMIT: '10000',
    }
  }

  test('the open panel follows its session again once the server is back, and goes to Entrar when it is ended elsewhere', async ({
    page,
  }) => {
    test.slow()
    await page.goto(`${server.baseURL}/#/login`)
    await signInWithForm(page, admin)
    await page.goto(`${server.baseURL}/#/perfil`)
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()

    // The restart ends the panel's stream (the drain does not wait for it); the panel opens its
    // stream again on the new process, by itself.
    const streamAgain = page.waitForResponse(
      (response) => response.url().endsWith('/api/auth/session-events') && response.ok(),
      { timeout: 60_000 },
    )
    const port = Number(new URL(server.baseURL).port)
    expect(await server.stop()).toBe(0)
    server = await startOwnServer(ownEnv(dataDir), port)
    await streamAgain

    // Another device of the same person ends the other sessions: this panel's among them.
    const signedIn = await fetch(`${server.baseURL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    })
    const { token } = (await signedIn.json()) as { token: string }
    const ended = await fetch(`${server.baseURL}/api/me/sessions`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(ended.status).toBe(204)
    await expectRoute(page, '/login?redirect=%2Fperfil')
    await expect(page.getByRole('status')).toContainText(
      'Sua sessão foi encerrada em outro dispositivo ou por um administrador.',
    )
  })
})
