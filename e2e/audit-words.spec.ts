import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { TOTP } from 'otpauth'
import { expect, test } from './fixtures'
import { csvFields } from './support/csv'
import { startOwnServer, type OwnServer } from './support/own-server'
import { expectRoute, signInWithForm } from './support/pages'

/**
 * The audit log reads as pt-BR sentences, on Auditoria, on Início and in the CSV: no `key:`
 * pair, code or id. On a server of this suite's own, so that Início's ten recent events are this
 * test's and no other test's.
 */
test.describe.configure({ mode: 'serial' })
test.use({ timezoneId: 'America/Sao_Paulo' })

const admin = { email: 'auditora@painel.test', password: 'senha-da-auditora-123' }
let dataDir: string
let server: OwnServer

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'painel-audit-words-'))
  server = await startOwnServer({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    AUTH_RATE_LIMIT: '10000',
  })
})
test.afterAll(async () => {
  await server.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const codeFor = (secret: string, at = Date.now()) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at })

/** A word followed by a colon ("which:", "passkey:"); a time's "14:03" is digits, not a key. */
const KEY_PAIR = /\b[A-Za-z_]+:/
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i
const CODE = /\b[a-z]+_[a-z_]+\b|\b(owner|others|totp|recovery_code)\b/

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The second step of a sign-in through the API, with a code from the app or a recovery code. */
async function signInWithCode(api: APIRequestContext, code: string): Promise<string> {
  const first = await api.post('/api/auth/login', { data: admin })
  expect(first.status()).toBe(200)
  const { mfa } = (await first.json()) as { mfa: { challenge: string } }
  const second = await api.post('/api/auth/login/mfa', { data: { challenge: mfa.challenge, code } })
  expect(second.status(), await second.text()).toBe(200)
  return ((await second.json()) as { token: string }).token
}

test('Auditoria, Início and the CSV say what happened in words, the CSV at the screen’s minute', async ({
  page,
  playwright,
}) => {
  test.slow()
  const api = await playwright.request.newContext({ baseURL: server.baseURL })
  // The events: the app turned on, a sign-in with it and one with a recovery code, a wrong
  // password before a change, one of the own sessions ended.
  const token = (await (await api.post('/api/auth/login', { data: admin })).json()) as {
    token: string
  }
  const setup = await api.post('/api/me/totp', { headers: bearer(token.token) })
  const { secret } = (await setup.json()) as { secret: string }
  const confirmed = await api.post('/api/me/totp/confirm', {
    headers: bearer(token.token),
    data: { code: codeFor(secret) },
  })
  expect(confirmed.status()).toBe(200)
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] }
  // A code of the next step: within the ±1 step the server allows, and not used yet.
  const withApp = await signInWithCode(api, codeFor(secret, Date.now() + 30_000))
  const withRecovery = await signInWithCode(api, recoveryCodes[0]!)
  const wrong = await api.post('/api/me/recovery-codes', {
    headers: bearer(withRecovery),
    data: { password: 'não-é-esta' },
  })
  expect(wrong.status()).toBe(400)
  const sessions = await api.get('/api/me/sessions', { headers: bearer(withRecovery) })
  const { sessions: open } = (await sessions.json()) as {
    sessions: { id: string; current: boolean }[]
  }
  const other = open.find((session) => !session.current)!
  expect(
    (await api.delete(`/api/me/sessions/${other.id}`, { headers: bearer(withRecovery) })).status(),
  ).toBe(204)
  expect(withApp).not.toBe(withRecovery)
  await api.dispose()

  // The person signs in with another recovery code, in the browser.
  await page.goto(`${server.baseURL}/#/login`)
  await signInWithForm(page, admin)
  await page.getByRole('button', { name: 'Usar um código de recuperação' }).click()
  await page.getByLabel('Código de recuperação').fill(recoveryCodes[1]!)
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expectRoute(page, '/dashboard')

  const recent = page.getByRole('list', { name: 'Eventos recentes' })
  await expect(recent).toContainText('com um código de recuperação')
  await expect(recent).toContainText('restam 8 códigos de recuperação')
  await expect(recent).toContainText('encerrou 1 das próprias sessões')
  const dashboardText = (await recent.innerText()).replace(/\d{1,3}(\.\d{1,3}){3}/g, '')
  expect(dashboardText).not.toMatch(KEY_PAIR)
  expect(dashboardText).not.toMatch(UUID)
  expect(dashboardText).not.toMatch(CODE)

  await page.goto(`${server.baseURL}/#/auditoria`)
  const events = page.getByRole('list', { name: 'Eventos da auditoria' })
  for (const words of [
    'com o aplicativo autenticador',
    'com um código de recuperação',
    'restam 9 códigos de recuperação',
    'restam 8 códigos de recuperação',
    'com senha, ao confirmar a senha antes de uma alteração na própria conta',
    'encerrou 1 das próprias sessões',
  ]) {
    await expect(events.getByText(words).first()).toBeVisible()
  }
  // A notice mailed to the owner is said by the event that caused it, not by a line of its own.
  await expect(
    events.getByRole('listitem').filter({ hasText: 'Segundo fator ativado' }),
  ).toContainText('aviso enviado por e-mail')
  await expect(events.getByText('Aviso de segurança enviado')).toHaveCount(0)
  const auditText = await events.innerText()
  expect(auditText).not.toMatch(KEY_PAIR)
  expect(auditText).not.toMatch(UUID)
  expect(auditText).not.toMatch(CODE)

  // The CSV: `;` between columns, accented headers, the same words, the same minute.
  const ended = events.getByRole('listitem').filter({ hasText: 'Sessões encerradas' })
  const shown = (await ended.locator('time').innerText()).trim()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar CSV' }).click()
  const file = await (await download).path()
  const csv = (await readFile(file)).toString('utf8').replace(/^\uFEFF/, '')
  const [header, ...lines] = csv.trimEnd().split('\r\n')
  expect(header).toBe(
    'Quando;Evento;Quem fez;E-mail de quem fez;Conta;E-mail da conta;Endereço;Navegador;Detalhes;User-Agent',
  )
  const rows = lines.map(csvFields)
  const column = (name: string) => csvFields(header!).indexOf(name)
  const row = rows.find((fields) => fields[column('Evento')] === 'Sessões encerradas')!
  expect(row[column('Detalhes')]).toBe('encerrou 1 das próprias sessões')
  // The browser as the screen names it ("Chrome no Linux"), the User-Agent as sent beside it.
  const inBrowser = events
    .getByRole('listitem')
    .filter({ hasText: 'Entrou' })
    .filter({ hasText: 'com um código de recuperação' })
    .first()
  const userAgent = await page.evaluate(() => navigator.userAgent)
  const signInRow = rows.find(
    (fields) => fields[column('Evento')] === 'Entrou' && fields[column('User-Agent')] === userAgent,
  )!
  const browserWords = signInRow[column('Navegador')]!
  expect(browserWords).toMatch(/^\S+ no \S+$/)
  await expect(inBrowser).toContainText(` · ${browserWords} · `)
  expect(row[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d -03:00$/)
  // Written back in the browser's own words, the file's time is the one on the screen.
  const [day, time, offset] = row[0]!.split(' ')
  const moment = new Date(`${day}T${time}:00${offset}`)
  const screenWords = new Intl.DateTimeFormat('pt-BR', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Sao_Paulo',
  }).format(moment)
  expect(shown).toBe(screenWords)
  expect(csv).toContain('restam 9 códigos de recuperação')
  expect(csv).not.toMatch(/\bwhich\b|\bleft\b|\bduring\b/)
  expect(csv).not.toMatch(UUID)
})
