import type { CDPSession } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { expectRoute, seedTokenOnce } from './support/pages'

/** Passkeys with Chromium's virtual authenticator (CDP WebAuthn): added, then used to sign in. */

test.skip(
  ({ browserName }) => browserName !== 'chromium',
  'the virtual authenticator is Chromium’s (CDP WebAuthn); Firefox and WebKit have none here: passkeys are proven in Chromium and in the server tests (server/features/*/*passkey*.test.ts)',
)

async function virtualAuthenticator(cdp: CDPSession): Promise<string> {
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return authenticatorId
}

test('a passkey is added in Minha conta and signs in from the login page without an e-mail', async ({
  page,
  api,
}) => {
  test.slow()
  const staff = await createStaff(api, { label: 'chave', name: 'Paulo Passkey' })
  const token = await apiSignIn(api, staff.email, staff.password)
  await virtualAuthenticator(await page.context().newCDPSession(page))
  await seedTokenOnce(page, token)
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
  await page.getByRole('dialog').getByRole('button', { name: 'Remover', exact: true }).click()
  await expect(page.getByText('Chave de acesso removida.')).toBeVisible()
  await expect(page.getByText('Nenhuma chave de acesso cadastrada.')).toBeVisible()
})

test('removing a passkey asks first, says what the last one means, and keeps focus in place', async ({
  page,
  api,
}) => {
  test.slow()
  const staff = await createStaff(api, { label: 'chave-foco', name: 'Rita Remoção' })
  const token = await apiSignIn(api, staff.email, staff.password)
  const cdp = await page.context().newCDPSession(page)
  await seedTokenOnce(page, token)
  await page.goto('/#/perfil')
  const list = page.getByRole('list', { name: 'Chaves de acesso' })
  let authenticatorId: string | null = null
  for (const name of ['Chave um', 'Chave dois']) {
    // One passkey an account per authenticator (the server excludes those it knows): a second
    // device for the second key.
    if (authenticatorId) await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })
    authenticatorId = await virtualAuthenticator(cdp)
    await page.getByLabel('Nome da chave').fill(name)
    await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click()
    await expect(list).toContainText(name)
  }
  const removeOne = page.getByRole('button', { name: 'Remover a chave Chave um' })
  const removeTwo = page.getByRole('button', { name: 'Remover a chave Chave dois' })

  // Escape: nothing removed, focus back on the button.
  await removeOne.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Remover a chave Chave um?' })).toBeVisible()
  await expect(dialog).toContainText('Ela deixa de servir para entrar nesta conta.')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(removeOne).toBeFocused()

  // Cancelar: the same.
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(removeOne).toBeFocused()
  await expect(list.getByRole('listitem')).toHaveCount(2)

  // Confirmed: the row goes, focus moves to the same button of the next one.
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Remover', exact: true }).click()
  await expect(page.getByText('Chave de acesso removida.')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(removeTwo).toBeFocused()

  // The last passkey, no authenticator app: the dialog says what that means.
  await removeTwo.focus()
  await page.keyboard.press('Enter')
  await expect(dialog).toContainText(
    'Sem chave de acesso nem aplicativo autenticador, a conta deixa de pedir uma segunda etapa ao entrar.',
  )
  await dialog.getByRole('button', { name: 'Remover', exact: true }).click()
  await expect(page.getByText('Nenhuma chave de acesso cadastrada.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Chaves de acesso' })).toBeFocused()
})

test('renaming a passkey shows one name field, Escape cancels it, and focus stays in place', async ({
  page,
  api,
}) => {
  test.slow()
  const staff = await createStaff(api, { label: 'chave-nome', name: 'Nara Nome' })
  const token = await apiSignIn(api, staff.email, staff.password)
  await virtualAuthenticator(await page.context().newCDPSession(page))
  await seedTokenOnce(page, token)
  await page.goto('/#/perfil')
  const list = page.getByRole('list', { name: 'Chaves de acesso' })
  await page.getByLabel('Nome da chave').fill('Notebook')
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click()
  await expect(list).toContainText('Notebook')

  // Half a name typed for the next passkey: renaming hides that field, and it comes back as it was.
  await page.getByLabel('Nome da chave').fill('Celular')
  const rename = page.getByRole('button', { name: 'Renomear a chave Notebook' })
  await rename.click()
  // Role queries see what is on screen (and to a screen reader), not hidden elements.
  const field = page.getByRole('textbox', { name: 'Nome da chave' })
  await expect(field).toHaveCount(1)
  await expect(field).toHaveValue('Notebook')
  await expect(field).toBeFocused()
  await expect(page.getByRole('button', { name: 'Adicionar chave de acesso' })).toBeHidden()

  await field.fill('Nome que fica para trás')
  await page.keyboard.press('Escape')
  await expect(list.getByRole('textbox')).toHaveCount(0)
  await expect(list).toContainText('Notebook')
  await expect(list).not.toContainText('Nome que fica para trás')
  await expect(rename).toBeFocused()
  await expect(page.getByLabel('Nome da chave')).toHaveValue('Celular')

  // Saved: the new name, focus back on its "Renomear".
  await page.keyboard.press('Enter')
  await field.fill('Notebook do trabalho')
  await page.keyboard.press('Enter')
  await expect(page.getByText('Nome da chave salvo.')).toBeVisible()
  const renamed = page.getByRole('button', { name: 'Renomear a chave Notebook do trabalho' })
  await expect(renamed).toBeFocused()
  await expect(page.getByLabel('Nome da chave')).toHaveValue('Celular')
})

test('the cold login page does not load the WebAuthn code', async ({ page }) => {
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(request.url()))
  await page.goto('/#/login')
  await expect(page.getByRole('button', { name: 'Entrar com chave de acesso' })).toBeVisible()
  expect(fetched.filter((url) => /passkey|mfa-step/.test(url))).toEqual([])
})
