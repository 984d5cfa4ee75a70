import type { Browser, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff, type TestAccount } from './support/accounts'
import { mailsTo, waitForMail } from './support/mailbox'
import { expectRoute, signInWithForm } from './support/pages'

/** Issue 30 §1: a sign-in from a browser new to the account is mailed to its owner. */

const NEW_BROWSER = 'Painel: entrada de um navegador novo'
const RESET = 'Painel: criar uma nova senha'

const newBrowserMails = async (email: string) =>
  (await mailsTo(email)).filter((mail) => mail.subject === NEW_BROWSER)

/** Signs in with the login form, as a person would, and waits for Início. */
async function signIn(page: Page, account: TestAccount) {
  await page.goto('/#/login')
  await signInWithForm(page, account)
  await expectRoute(page, '/dashboard')
}

/** Another browser: a context of its own, with no cookie of this site. */
async function signInFromAnotherBrowser(browser: Browser, account: TestAccount) {
  const context = await browser.newContext()
  await signIn(await context.newPage(), account)
  await context.close()
}

/**
 * Every mail queued before now has been sent: a reset link is asked for, and the outbox sends in
 * the order mails were queued, so once it arrives a notice that was coming has come too.
 */
async function mailSettled(page: Page, email: string) {
  const before = (await mailsTo(email)).length
  const asked = await page.request.post('/api/auth/password-recovery', { data: { email } })
  expect(asked.status()).toBe(202)
  await expect
    .poll(async () => (await mailsTo(email)).filter((mail) => mail.subject === RESET).length, {
      timeout: 10_000,
    })
    .toBeGreaterThan(0)
  expect((await mailsTo(email)).length).toBeGreaterThan(before)
}

test('a new browser signs in and its owner is mailed; the browser that signed in before is not', async ({
  page,
  api,
  browser,
}) => {
  const staff = await createStaff(api, { label: 'aviso-navegador', name: 'Nina Navegador' })
  // The first sign-in of the account: the person arriving, nothing to warn about.
  await signIn(page, staff)

  const already = (await mailsTo(staff.email)).length
  await signInFromAnotherBrowser(browser, staff)
  const mail = await waitForMail(staff.email, already)
  expect(mail.subject).toBe(NEW_BROWSER)
  expect(mail.text).toContain('Olá, Nina Navegador.')
  expect(mail.text).toContain('de um navegador que nunca tinha entrado nela')
  expect(mail.text).toMatch(/\(horário de Brasília\)/)
  expect(mail.text).toContain('a partir do endereço 127.0.0.1')
  expect(mail.text).toMatch(/com Chrome no \w+/)
  expect(mail.text).toContain('Não foi você?')
  expect(mail.text).toMatch(/#\/perfil/)
  expect(mail.text).toMatch(/#\/recuperar-senha/)

  // The first browser again, after signing out: it has the account's device cookie.
  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, /^\/login/)
  await signIn(page, staff)
  await mailSettled(page, staff.email)
  expect(await newBrowserMails(staff.email)).toHaveLength(1)
})

test('with the notice turned off in Minha conta, a new browser signs in and no mail comes', async ({
  page,
  api,
  browser,
}) => {
  const staff = await createStaff(api, { label: 'aviso-desligado', name: 'Otto Opção' })
  await signIn(page, staff)
  await page.goto('/#/perfil')
  const card = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Avisos de segurança' }),
  })
  await expect(card).toContainText('Esses avisos são sempre enviados')
  const toggle = card.getByLabel('Avisar quando alguém entrar na minha conta de um navegador novo')
  await expect(toggle).toBeChecked()
  await toggle.click()
  await expect(card.getByRole('status')).toHaveText('Aviso de navegador novo desligado.')
  await expect(toggle).not.toBeChecked()
  await page.reload()
  await expect(
    page.getByLabel('Avisar quando alguém entrar na minha conta de um navegador novo'),
  ).not.toBeChecked()

  await signInFromAnotherBrowser(browser, staff)
  await mailSettled(page, staff.email)
  expect(await newBrowserMails(staff.email)).toHaveLength(0)
})
