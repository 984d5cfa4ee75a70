import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { withAuthenticator } from './support/authenticator'
import { expectRoute, presetToken } from './support/pages'
import { IPHONE_SAFARI } from './support/user-agents'

/**
 * Issue 34 §14: a staff member's Início shows what is theirs, from one request: their last
 * sign-ins, their open sessions (with the way to end them), and their second factors.
 */

test('a staff member’s Início shows their sign-ins, sessions and second factor, from one request', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'inicio', name: 'Iris Início' })
  // An earlier sign-in from a phone, still open.
  const phone = await api.post('/api/auth/login', {
    data: { email: person.email, password: person.password },
    headers: { 'user-agent': IPHONE_SAFARI },
  })
  expect(phone.status()).toBe(200)
  await presetToken(
    page,
    JSON.stringify({ token: await apiSignIn(api, person.email, person.password) }),
  )
  const calls: string[] = []
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/api/')) calls.push(path)
  })
  await page.goto('/#/dashboard')

  const signIns = page.getByRole('list', { name: 'Últimos acessos' })
  await expect(signIns.getByRole('listitem')).toHaveCount(2)
  await expect(signIns.getByRole('listitem').nth(1)).toContainText('Safari no iPhone')
  await expect(signIns).not.toContainText('Mozilla')

  await expect(page.getByText('Há 2 sessões abertas na sua conta, contando esta.')).toBeVisible()
  // Início's own part is one API call, not one per card.
  expect(calls.filter((path) => path.startsWith('/api/dashboard'))).toEqual(['/api/dashboard/me'])
  await page.getByRole('link', { name: 'Ver e encerrar sessões em Minha conta' }).click()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('heading', { name: 'Sessões abertas' })).toBeVisible()
  await page.goBack()

  const factor = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Verificação em duas etapas' }),
  })
  await expect(factor.getByText('Desativada', { exact: true })).toBeVisible()
  await expect(factor).toContainText('Só a senha protege a sua conta.')
  await expect(factor.getByRole('link', { name: 'Ativar em Minha conta' })).toBeVisible()
})

test('"primeiro acesso" only when it is so: not above sign-ins made since, from elsewhere', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'inicio-primeiro', name: 'Paula Primeira' })
  // This browser's session is the account's first sign-in (createStaff signs in nowhere).
  await presetToken(
    page,
    JSON.stringify({ token: await apiSignIn(api, person.email, person.password) }),
  )
  await page.goto('/#/dashboard')
  const signIns = page.getByRole('list', { name: 'Últimos acessos' })
  await expect(page.getByText('Este é o seu primeiro acesso registrado.')).toBeVisible()
  await expect(signIns).toHaveCount(0)

  // Then three more, from other browsers: four sign-ins listed, none of them "the first".
  for (let index = 0; index < 3; index += 1) await apiSignIn(api, person.email, person.password)
  await page.reload()
  await expect(signIns.getByRole('listitem')).toHaveCount(4)
  await expect(page.getByText('Este é o seu primeiro acesso registrado.')).toHaveCount(0)
})

test('with an authenticator app, Início says it is on, with recovery codes left, and warns when few', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'inicio-fator', name: 'Fábio Fator' })
  const { token, codes: recoveryCodes } = await withAuthenticator(
    api,
    person.email,
    person.password,
  )
  await presetToken(page, JSON.stringify({ token }))
  await page.goto('/#/dashboard')

  const factor = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Verificação em duas etapas' }),
  })
  await expect(factor.getByText('Ativada', { exact: true })).toBeVisible()
  await expect(factor.getByRole('definition').nth(0)).toHaveText('ativado')
  await expect(factor.getByRole('definition').nth(1)).toHaveText('0')
  await expect(factor.getByRole('definition').nth(2)).toHaveText('10')
  await expect(factor.getByText('Gere novos', { exact: false })).toHaveCount(0)
  await expect(factor.getByRole('link', { name: 'Gerenciar em Minha conta' })).toBeVisible()

  // Eight codes spent: two left, and Início says to make new ones.
  for (const code of recoveryCodes.slice(0, 8)) {
    const login = await api.post('/api/auth/login', {
      data: { email: person.email, password: person.password },
    })
    const { mfa } = (await login.json()) as { mfa: { challenge: string } }
    const used = await api.post('/api/auth/login/mfa', { data: { challenge: mfa.challenge, code } })
    expect(used.status()).toBe(200)
  }
  await page.reload()
  await expect(factor.getByRole('definition').nth(2)).toHaveText('2')
  await expect(factor).toContainText(
    'Restam só 2 códigos de recuperação. Gere novos em Minha conta.',
  )
})
