import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff, uniqueEmail } from './support/accounts'
import { authenticatorCode, withAuthenticator } from './support/authenticator'
import { mailsTo, waitForMail } from './support/mailbox'
import { expectRoute, signInWithForm } from './support/pages'
import { e2e } from './support/test-env'

/**
 * Issue 34 §14: the pages a mailed link opens say which account they are for, and a sign-in
 * with a recovery code says how many codes are left.
 */

const LINK = /https?:\/\/\S+(#\/recuperar-senha\?token=[A-Za-z0-9_-]{43}(?:&convite=1)?)/

function pathOfLink(text: string): string {
  const link = LINK.exec(text)
  expect(link, text).not.toBeNull()
  return `/${link![1]}`
}

test('the new-password page of a mailed link names the account it is for', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'link-conta', name: 'Lara Link' })
  const already = (await mailsTo(person.email)).length
  await page.goto('/#/recuperar-senha')
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(page.getByRole('heading', { name: 'Verifique seu e-mail' })).toBeVisible()
  const link = pathOfLink((await waitForMail(person.email, already)).text)

  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Criar nova senha' })).toBeVisible()
  await expect(page.getByText(`Para a conta ${person.email}`)).toBeVisible()

  // A link that does not work names nobody.
  await page.goto(`/#/recuperar-senha?token=${'B'.repeat(43)}`)
  await expect(page.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
  await expect(page.getByText(person.email)).toHaveCount(0)
})

test('the invitation page names the invited address', async ({ page, api }) => {
  const adminToken = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
  const email = uniqueEmail('convite-conta')
  const invited = await api.post('/api/staff/invitations', {
    data: { name: 'Ivo Convidado', email, role: 'staff' },
    headers: { authorization: `Bearer ${adminToken}` },
  })
  expect(invited.status()).toBe(201)
  await page.goto(pathOfLink((await waitForMail(email)).text))
  await expect(page.getByRole('heading', { name: 'Criar sua senha' })).toBeVisible()
  await expect(page.getByText(`Convite para ${email}`)).toBeVisible()
})

/** Uses up a recovery code by signing in with it through the API. */
async function spendRecoveryCode(
  api: APIRequestContext,
  person: { email: string; password: string },
  code: string,
) {
  const login = await api.post('/api/auth/login', {
    data: { email: person.email, password: person.password },
  })
  const { mfa } = (await login.json()) as { mfa: { challenge: string } }
  const answer = await api.post('/api/auth/login/mfa', {
    data: { challenge: mfa.challenge, code },
  })
  expect(answer.status(), await answer.text()).toBe(200)
}

async function signInWithRecoveryCode(
  page: Page,
  person: { email: string; password: string },
  code: string,
) {
  await page.evaluate(() => window.localStorage.removeItem('token_adm'))
  await page.goto('/#/login')
  await signInWithForm(page, person)
  await page.getByRole('button', { name: 'Usar um código de recuperação' }).click()
  await page.getByLabel('Código de recuperação').fill(code)
  await page.getByRole('button', { name: 'Verificar' }).click()
}

test('after a sign-in with a recovery code, the person is told how many are left, and urged when few', async ({
  page,
  api,
}) => {
  test.slow()
  const person = await createStaff(api, { label: 'restam', name: 'Rui Restam' })
  const { codes } = await withAuthenticator(api, person.email, person.password)

  await page.goto('/#/login')
  await signInWithRecoveryCode(page, person, codes[0]!)
  await expectRoute(page, '/dashboard')
  const notice = page.getByRole('status').filter({ hasText: 'código de recuperação' })
  await expect(notice).toHaveText(
    /Você entrou com um código de recuperação\. Restam 9; cada um serve uma vez\./,
  )
  // Plenty left: nothing to urge.
  await expect(
    notice.getByRole('link', { name: 'Gerar novos códigos em Minha conta' }),
  ).toHaveCount(0)
  // Told once, on whichever screen: another screen keeps it until dismissed, a reload does not repeat it.
  await page.getByRole('button', { name: 'Entendi' }).click()
  await expect(notice).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible()
  await expect(notice).toHaveCount(0)

  // Six more spent elsewhere: the next one leaves 2, and the person is urged to make new ones.
  for (const code of codes.slice(1, 7)) await spendRecoveryCode(api, person, code)
  await signInWithRecoveryCode(page, person, codes[7]!)
  await expectRoute(page, '/dashboard')
  await expect(notice).toContainText(
    'Você entrou com um código de recuperação. Restam só 2: gere novos antes que acabem',
  )
  await notice.getByRole('link', { name: 'Gerar novos códigos em Minha conta' }).click()
  await expectRoute(page, '/perfil')
  await expect(notice).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Gerar novos códigos' })).toBeVisible()
})

test('a sign-in with the app’s code says nothing about recovery codes', async ({ page, api }) => {
  const person = await createStaff(api, { label: 'app', name: 'Ana App' })
  const { secret } = await withAuthenticator(api, person.email, person.password)
  await page.goto('/#/login')
  await signInWithForm(page, person)
  // A code of the next step: the one that confirmed the app is used.
  const code = authenticatorCode(secret, Date.now() + 30_000)
  await page.getByLabel('Código de verificação').fill(code)
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expectRoute(page, '/dashboard')
  await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible()
  await expect(page.getByText('Você entrou com um código de recuperação')).toHaveCount(0)
})
