import { expect, test } from './fixtures'
import { adminAccount, apiSignIn, createStaff } from './support/accounts'
import { expectRoute, sidebar, signInWithForm } from './support/pages'
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
  // Focus on what happened, not left on the emptied form.
  await expect(shown.getByRole('heading', { name: `Token “${name}” criado` })).toBeFocused()
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
  await expect(nameField).toBeFocused()
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

test.describe('on a phone', () => {
  test.use({ signedInAs: 'admin', viewport: { width: 390, height: 844 } })

  test('the new token is shown whole and the tokens are cards: nothing scrolls sideways', async ({
    page,
  }) => {
    await page.goto('/#/provisionamento')
    const name = unique('Okta do celular')
    await page.getByLabel('Nome do token').fill(name)
    await page.getByRole('button', { name: 'Criar token' }).click()
    const tokenField = page
      .getByRole('region', { name: `Token “${name}” criado` })
      .getByRole('textbox', { name: 'Token', exact: true })
    await expect(tokenField).toHaveValue(/^[A-Za-z0-9_-]{43}$/)
    // All of it in view inside its field: no part hidden to the right or below.
    const cut = await tokenField.evaluate(
      (field) => field.scrollWidth > field.clientWidth || field.scrollHeight > field.clientHeight,
    )
    expect(cut, 'the token is cut in its field').toBe(false)

    const card = page
      .getByRole('list', { name: 'Tokens de provisionamento' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name }) })
    await expect(card).toContainText('Nunca usado')
    await expect(card).toContainText('Criado por')
    await expect(card.getByRole('button', { name: `Revogar o token ${name}` })).toBeVisible()
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    )
    expect(sideways, 'the page scrolls sideways').toBe(false)
  })
})

test('the directory sets active to false: the person’s open panel, in every tab, goes to Entrar at once, saying why', async ({
  page,
  context,
  api,
}) => {
  const admin = {
    authorization: `Bearer ${await apiSignIn(api, e2e.admin.email, e2e.admin.password)}`,
  }
  const made = await api.post('/api/scim-tokens', {
    data: { name: unique('Entra ID') },
    headers: admin,
  })
  expect(made.status(), await made.text()).toBe(201)
  const scim = {
    authorization: `Bearer ${((await made.json()) as { token: string }).token}`,
    'content-type': 'application/scim+json',
  }
  const person = await createStaff(api, { name: 'Olga Desligada', label: 'desligada' })
  await page.goto('/#/login')
  await signInWithForm(page, person)
  await page.goto('/#/perfil')
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
  const other = await context.newPage()
  await other.goto('/#/dashboard')
  await expect(other.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

  // As Entra ID does it: found by userName, then a Replace with "False" as a string.
  const found = await api.get(
    `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${person.email}"`)}`,
    { headers: scim },
  )
  const { Resources } = (await found.json()) as { Resources: { id: string }[] }
  expect(Resources).toHaveLength(1)
  const sent = Date.now()
  const patched = await api.patch(`/scim/v2/Users/${Resources[0]!.id}`, {
    headers: scim,
    data: {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', value: { active: 'False' } }],
    },
  })
  expect(patched.status(), await patched.text()).toBe(200)

  // Nothing done in the browser: no click, no reload. The stream of the session says it ended.
  // (Início is where a sign-in lands anyway: its login page needs no way back.)
  for (const [tab, login] of [
    [page, '/login?redirect=%2Fperfil'],
    [other, '/login'],
  ] as const) {
    await expectRoute(tab, login)
    await expect(tab.getByRole('status')).toContainText(
      'Sua conta foi desativada. Fale com um administrador da equipe.',
    )
    // A measure, not a limit (a busy machine is slower): how long the person saw the panel after
    // the directory's change, Playwright's polling of the page included (docs/provisioning.md).
    console.log(`${login}: on Entrar ${Date.now() - sent} ms after the directory's PATCH was sent`)
  }
})
