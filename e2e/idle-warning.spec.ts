import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { seriousViolations } from './support/axe'
import { startOwnServer, type OwnServer } from './support/own-server'
import { expectRoute, signInWithForm } from './support/pages'
import { leaveSessionsUnused } from './support/session-age'

/**
 * The idle warning, on a server of this suite's own with the shortest SESSION_IDLE_TIMEOUT, 60 s:
 * the session ends 60 to 66 s after its last use (the server writes use every 6 s), and the
 * warning opens half the timeout before that (client/src/session/idle-schedule.ts).
 *
 * No test waits that minute: the pages' clock is moved (Playwright's clock), and where the server
 * must find the session idle, its last use is moved back in the server's own database, as a minute
 * without use leaves it. How the server ends an idle session is its own tests' subject
 * (server/access/idle-slide.test.ts).
 */
test.describe.configure({ mode: 'serial' })

const admin = { email: 'ocioso@painel.test', password: 'senha-do-ocioso-123' }
let dataDir: string
let server: OwnServer

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'painel-idle-'))
  server = await startOwnServer({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    SESSION_IDLE_TIMEOUT: '60',
    AUTH_RATE_LIMIT: '10000',
  })
})
test.afterAll(async () => {
  await server.stop()
  await rm(dataDir, { recursive: true, force: true })
})

test('the warning opens, is keyboard-friendly, and "Continuar conectado" renews in every tab', async ({
  page,
  context,
}) => {
  // The pages' clock, not the test's wait, brings the warning (half a minute without use): the
  // server's session is still live when "Continuar conectado" renews it.
  await context.clock.install()
  await page.goto(`${server.baseURL}/#/login`)
  await signInWithForm(page, admin)
  await expectRoute(page, '/dashboard')
  const other = await context.newPage()
  // Opening the panel is use: the second tab's renewal, once its layout is up, moves the end.
  const renewedThere = other.waitForResponse((response) =>
    response.url().endsWith('/api/me/session/renew'),
  )
  await other.goto(`${server.baseURL}/#/perfil`)
  await renewedThere

  const dialog = page.getByRole('alertdialog', { name: 'Sua sessão vai expirar…' })
  await expect(dialog).toBeHidden()
  // Five seconds at a time until it is due: the second tab's screen, still loading, was use too.
  await expect(async () => {
    await context.clock.fastForward('00:05')
    await expect(dialog).toBeVisible({ timeout: 250 })
  }).toPass({ timeout: 30_000 })
  await expect(dialog).toContainText('Por falta de atividade, sua sessão termina em')
  await expect(other.getByRole('alertdialog')).toBeVisible()
  // The first button has the focus: Enter keeps the session.
  await expect(dialog.getByRole('button', { name: 'Continuar conectado' })).toBeFocused()
  for (const mode of ['light', 'dark'] as const) {
    await page.evaluate(
      (theme) => document.documentElement.setAttribute('data-coreui-theme', theme),
      mode,
    )
    expect(await seriousViolations(page), `idle warning in ${mode} mode`).toEqual([])
  }

  const renewed = page.waitForResponse((response) =>
    response.url().endsWith('/api/me/session/renew'),
  )
  await page.keyboard.press('Enter')
  expect((await renewed).status()).toBe(200)
  await expect(dialog).toBeHidden()
  // The other tab closes its warning too: one timer for the browser.
  await expect(other.getByRole('alertdialog')).toBeHidden()
  await other.close()
})

test('left alone, the session ends for lack of use: login says so, and typed text comes back', async ({
  page,
  context,
}) => {
  await context.clock.install()
  await page.goto(`${server.baseURL}/#/login`)
  await signInWithForm(page, admin)
  await expectRoute(page, '/dashboard')
  await page.goto(`${server.baseURL}/#/equipe`)
  await page.getByRole('button', { name: 'Convidar pessoa' }).click()
  const invite = page.getByRole('dialog', { name: 'Convidar pessoa' })
  await invite.getByLabel('Nome').fill('Ivo Inativo')
  await invite.getByLabel('E-mail').fill('ivo@painel.test')

  const warning = page.getByRole('alertdialog', { name: 'Sua sessão vai expirar…' })
  await expect(async () => {
    await context.clock.fastForward('00:05')
    await expect(warning).toBeVisible({ timeout: 250 })
  }).toPass({ timeout: 30_000 })
  // Nobody answers it: the server's minute without use passes (its record of the last use), and
  // the page's clock reaches the moment the panel asks whether the session is over.
  leaveSessionsUnused(dataDir, 120)
  await context.clock.fastForward('00:45')
  await expect(page.getByRole('status')).toContainText(
    'Sua sessão expirou por inatividade. Entre novamente.',
  )
  await expectRoute(page, '/login?redirect=%2Fequipe')
  await signInWithForm(page, admin)
  await expectRoute(page, '/equipe')
  const reopened = page.getByRole('dialog', { name: 'Convidar pessoa' })
  await expect(reopened.getByLabel('Nome')).toHaveValue('Ivo Inativo')
  await expect(reopened.getByLabel('E-mail')).toHaveValue('ivo@painel.test')
})
