import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { uniqueEmail, type TestAccount } from './support/accounts'
import { withAuthenticator } from './support/authenticator'
import { mailsTo, waitForMail } from './support/mailbox'

/** Issue 30 §2: a change of e-mail, confirmed from the new address or cancelled from the old. */

test.use({ signedInAs: 'staff' })

const ASKED = 'Painel: pedido de troca do seu e-mail'
const CONFIRM = 'Painel: confirme o seu novo e-mail'
const CODE_USED = 'Painel: código de recuperação usado'

/** The hash route of a mailed link (`/confirmar-email?token=…`), for page.goto. */
function linkIn(text: string, key: 'token' | 'cancelar'): string {
  const found = new RegExp(`#(/confirmar-email\\?${key}=[A-Za-z0-9_-]{43})`).exec(text)?.[1]
  expect(found, `a ${key} link in: ${text}`).toBeTruthy()
  return `/#${found}`
}

/** Asks for the change in Minha conta, as the person would; the mails both addresses get. */
async function askChange(page: Page, account: TestAccount, newEmail: string) {
  const before = (await mailsTo(account.email)).length
  await page.goto('/#/perfil')
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Trocar e-mail' }) })
  await card.getByLabel('Novo e-mail').fill(newEmail)
  await card.getByLabel('Senha atual').fill(account.password)
  await card.getByRole('button', { name: 'Enviar link de confirmação' }).click()
  await expect(card.getByRole('status')).toContainText(
    `Se ${newEmail} puder ser usado, um link de confirmação chega lá em instantes.`,
  )
  // Issue 43: the focus goes to what says it is done (the form it was in starts over).
  await expect(card.getByRole('status')).toBeFocused()
  const old = await waitForMail(account.email, before)
  expect(old.subject).toBe(ASKED)
  expect(old.text).toContain(`passe a ser ${newEmail}`)
  const fresh = await waitForMail(newEmail)
  expect(fresh.subject).toBe(CONFIRM)
  return { old, fresh }
}

test('an e-mail change confirmed from the new address: Minha conta shows it, the old one is told', async ({
  page,
  account,
}) => {
  const newEmail = uniqueEmail('novo-email')
  const { fresh } = await askChange(page, account!, newEmail)
  // Until confirmed, Minha conta still shows the old e-mail.
  await page.goto('/#/perfil')
  await expect(
    page.getByRole('definition').getByText(account!.email, { exact: true }),
  ).toBeVisible()

  await page.goto(linkIn(fresh.text, 'token'))
  await expect(page.getByRole('heading', { name: 'Confirmar novo e-mail' })).toBeVisible()
  await page.getByRole('button', { name: 'Confirmar novo e-mail' }).click()
  await expect(page.getByRole('status')).toHaveText(
    `Pronto: o e-mail da sua conta agora é ${newEmail}.`,
  )
  // The button is gone with the form: the focus is on the message, not on <body>.
  await expect(page.getByRole('status')).toBeFocused()
  await page.goto('/#/perfil')
  await expect(page.getByRole('definition').getByText(newEmail, { exact: true })).toBeVisible()

  // The link was single-use.
  await page.goto(linkIn(fresh.text, 'token'))
  await page.getByRole('button', { name: 'Confirmar novo e-mail' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Este link de troca de e-mail é inválido, já foi usado, foi cancelado ou expirou.',
  )
})

test('an e-mail change cancelled from the old address: the new address’s link stops working', async ({
  page,
  account,
}) => {
  const newEmail = uniqueEmail('cancelado')
  const { old, fresh } = await askChange(page, account!, newEmail)
  await page.goto(linkIn(old.text, 'cancelar'))
  await expect(page.getByRole('heading', { name: 'Cancelar troca de e-mail' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancelar a troca' }).click()
  await expect(page.getByRole('status')).toContainText('A troca de e-mail foi cancelada.')

  await page.goto(linkIn(fresh.text, 'token'))
  await page.getByRole('button', { name: 'Confirmar novo e-mail' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Este link de troca de e-mail é inválido, já foi usado, foi cancelado ou expirou.',
  )
  await page.goto('/#/perfil')
  await expect(
    page.getByRole('definition').getByText(account!.email, { exact: true }),
  ).toBeVisible()
})

test('an e-mail change confirmed with a recovery code: used up, and the owner is told', async ({
  page,
  account,
  api,
}) => {
  const { codes } = await withAuthenticator(api, account!.email, account!.password)
  const newEmail = uniqueEmail('por-codigo')
  await page.goto('/#/perfil')
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Trocar e-mail' }) })
  await card.getByLabel('Novo e-mail').fill(newEmail)
  await card.getByRole('button', { name: 'Usar código do autenticador' }).click()
  await card.getByLabel('Código do autenticador').fill(codes[0]!)
  await card.getByRole('button', { name: 'Enviar link de confirmação' }).click()
  await expect(card.getByRole('status')).toContainText(
    `Se ${newEmail} puder ser usado, um link de confirmação chega lá em instantes.`,
  )
  // Issue 43: the focus goes to what says it is done (the form it was in starts over).
  await expect(card.getByRole('status')).toBeFocused()
  expect((await waitForMail(newEmail)).subject).toBe(CONFIRM)
  await expect
    .poll(
      async () =>
        (await mailsTo(account!.email)).find((mail) => mail.subject === CODE_USED)?.text ?? '',
      { timeout: 10_000 },
    )
    .toMatch(/confirmar uma alteração na sua conta do Painel, em Minha conta\. Restam 9 códigos/)

  // The form starts over, keeping the choice of the code; the same recovery code is refused.
  await card.getByLabel('Novo e-mail').fill(uniqueEmail('de-novo'))
  await card.getByLabel('Código do autenticador').fill(codes[0]!)
  await card.getByRole('button', { name: 'Enviar link de confirmação' }).click()
  await expect(card.getByLabel('Código do autenticador')).toBeFocused()
  await expect(
    card.getByText('O código não confere ou já foi usado.', { exact: false }),
  ).toBeVisible()
})
