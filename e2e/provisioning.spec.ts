import { expect, test } from './fixtures'
import { adminAccount } from './support/accounts'
import { sidebar, signInWithForm } from './support/pages'
import { e2e } from './support/test-env'

/**
 * Issue 46, Provisionamento: an admin makes a token, the organisation's directory provisions a
 * person with it through /scim/v2 (here the test speaks for the directory), the person is in
 * Equipe in their team, and a revoked token opens nothing any more.
 */

const unique = (name: string) =>
  `${name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

test('an admin creates a token, a person provisioned with it is in Equipe in their team, the token is revoked', async ({
  page,
  context,
  api,
  browserName,
}) => {
  await page.goto('/#/login')
  await signInWithForm(page, adminAccount())
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  await sidebar(page).getByRole('link', { name: 'Provisionamento' }).click()
  await expect(page.getByRole('heading', { name: 'Provisionamento', level: 1 })).toBeVisible()
  // The address the server answers (PUBLIC_URL + /scim/v2), which the directory is given.
  await expect(page.getByText(`${e2e.baseURL}/scim/v2`, { exact: true })).toBeVisible()

  // A token needs a name: said under the field, announced, and the field takes the focus.
  const nameField = page.getByLabel('Nome do token')
  await page.getByRole('button', { name: 'Criar token' }).click()
  await expect(page.getByRole('alert')).toHaveText('Dê um nome ao token.')
  await expect(nameField).toBeFocused()
  await expect(nameField).toHaveAccessibleDescription(/Dê um nome ao token\./)

  const name = unique('Entra ID')
  await nameField.fill(name)
  await page.getByRole('button', { name: 'Criar token' }).click()
  const shown = page.getByRole('region', { name: `Token “${name}” criado` })
  await expect(shown).toBeVisible()
  await expect(nameField).toHaveValue('')
  const token = await shown.getByLabel('Token').inputValue()
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  // The token is in a field (the locator the end of the test expects none of finds it here).
  const tokenField = page.getByRole('textbox', { name: 'Token', exact: true })
  await expect(tokenField).toHaveValue(token)
  if (browserName === 'chromium') {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await shown.getByRole('button', { name: 'Copiar token' }).click()
    await expect(shown.getByRole('status')).toHaveText('Token copiado.')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)
  }
  const row = page
    .getByRole('table', { name: 'Tokens de provisionamento' })
    .getByRole('row', { name })
  await expect(row).toContainText('Nunca usado')

  // The directory provisions a person and puts them in a group.
  const scim = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }
  const email = `${Date.now().toString(36)}-provisionada@painel.test`
  const person = await api.post('/scim/v2/Users', {
    headers: scim,
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Paula', familyName: 'Provisionada' },
      active: true,
    },
  })
  expect(person.status(), await person.text()).toBe(201)
  const { id } = (await person.json()) as { id: string }
  const teamName = unique('Time do diretório')
  const group = await api.post('/scim/v2/Groups', {
    headers: scim,
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: teamName,
      members: [{ value: id }],
    },
  })
  expect(group.status(), await group.text()).toBe(201)

  // Once shown, the token is not shown again; its last use is.
  await shown.getByRole('button', { name: 'Já copiei' }).click()
  await expect(shown).toBeHidden()
  await page.getByRole('button', { name: 'Atualizar' }).click()
  await expect(row).not.toContainText('Nunca usado')
  await expect(page.getByText(token)).toHaveCount(0)
  // getByText never reads a field's value: the field itself is gone.
  await expect(tokenField).toHaveCount(0)

  await sidebar(page).getByRole('link', { name: 'Equipe' }).click()
  await page.getByRole('searchbox').fill(email)
  const listed = page.getByRole('row').filter({ hasText: email })
  await expect(listed).toContainText('Paula Provisionada')
  await expect(listed).toContainText(teamName)

  await sidebar(page).getByRole('link', { name: 'Provisionamento' }).click()
  await row.getByRole('button', { name: `Revogar o token ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Revogar o token “${name}”?` })
  await dialog.getByRole('button', { name: 'Revogar' }).click()
  await expect(page.getByText(`Token “${name}” revogado.`)).toBeVisible()
  await expect(row).toHaveCount(0)
  const refused = await api.get('/scim/v2/Users', { headers: scim })
  expect(refused.status()).toBe(401)
})
