import { expect, test } from './fixtures'
import { apiSignIn, createStaff, uniqueEmail } from './support/accounts'
import { mailsTo, waitForMail } from './support/mailbox'
import {
  expectRoute,
  loginForm,
  signInWithForm,
  submitRegistration,
  tokenIn,
} from './support/pages'
import { e2e } from './support/test-env'

/** Issue "Real sign-in": the whole journey against the built server and its real database. */

test('register, wait for approval, get approved by an admin, sign in, sign out', async ({
  page,
  browser,
}) => {
  // Two browsers, a registration, an approval, two sign-ins: past the default 30 s beside a CPU
  // job (a loaded CI run timed out on both tries).
  test.slow()
  const person = { name: 'Carla Nova', email: uniqueEmail('carla'), password: 'senha-da-carla-1' }

  await page.goto('/#/login')
  await page.getByRole('link', { name: 'Solicitar cadastro' }).click()
  await expectRoute(page, '/register')
  await submitRegistration(page, person)
  await expect(page.getByText('Um administrador precisa aprovar o acesso')).toBeVisible()

  // Signing in before the approval says so.
  await page.getByRole('link', { name: 'Entrar', exact: true }).click()
  await signInWithForm(page, person)
  await expect(page.getByRole('status')).toHaveText(
    'Seu cadastro ainda aguarda a aprovação de um administrador.',
  )
  expect(await tokenIn(page)).toBeNull()

  // An admin approves it on the Equipe screen, in their own browser.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await admin.goto('/#/login?redirect=%2Fequipe')
  await signInWithForm(admin, e2e.admin)
  await expectRoute(admin, '/equipe')
  await admin.getByRole('searchbox', { name: 'Buscar por nome ou e-mail' }).fill(person.email)
  await admin.keyboard.press('Enter')
  const row = admin.getByRole('row', { name: new RegExp(person.email) })
  await expect(row.getByText('Aguardando aprovação')).toBeVisible()
  await row.getByRole('button', { name: `Aprovar ${person.name}` }).click()
  await admin.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click()
  await expect(
    admin.getByRole('status').filter({ hasText: `O cadastro de ${person.name} foi aprovado.` }),
  ).toBeVisible()
  await expect(row.getByText('Ativa', { exact: true })).toBeVisible()
  await expect(row.getByRole('button', { name: `Desativar ${person.name}` })).toBeVisible()
  await adminContext.close()

  // Now the sign-in works, and goes to the path the person wanted.
  await page.goto('/#/perfil')
  await expectRoute(page, '/login?redirect=%2Fperfil')
  await signInWithForm(page, person)
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('main').getByText(person.name, { exact: true })).toBeVisible()
  await expect(page.getByRole('main').getByText('Equipe', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
  expect(await tokenIn(page)).toBeNull()
})

test('a wrong password is refused with the server’s message, and nothing is stored', async ({
  page,
  api,
}) => {
  const staff = await createStaff(api)
  await page.goto('/#/login')
  await signInWithForm(page, { email: staff.email, password: 'not-the-password' })
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.')
  await expectRoute(page, '/login')
  expect(await tokenIn(page)).toBeNull()
  // The same answer for an e-mail nobody has.
  await signInWithForm(page, { email: uniqueEmail('ninguem'), password: 'not-the-password' })
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.')
})

test('a disabled account is told so', async ({ page, api }) => {
  const staff = await createStaff(api)
  const adminToken = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
  await api.patch(`/api/staff/${staff.id}`, {
    data: { status: 'disabled' },
    headers: { authorization: `Bearer ${adminToken}` },
  })
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expect(page.getByRole('alert')).toHaveText(
    'Sua conta está desativada. Fale com um administrador.',
  )
})

test('password recovery: the mailed link sets a new password and ends the old sessions', async ({
  page,
  api,
}) => {
  const staff = await createStaff(api, { name: 'Davi Esquecido' })
  const oldToken = await apiSignIn(api, staff.email, staff.password)

  await page.goto('/#/login')
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click()
  await expectRoute(page, '/recuperar-senha')
  const before = (await mailsTo(staff.email)).length
  await page.getByLabel('E-mail').fill(staff.email.toUpperCase())
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(page.getByRole('heading', { name: 'Verifique seu e-mail' })).toBeVisible()

  // The mail arrives at a real SMTP server on loopback.
  const mail = await waitForMail(staff.email, before)
  expect(mail.subject).toBe('Painel: criar uma nova senha')
  expect(mail.text).toContain('Olá, Davi Esquecido.')
  const link = /(http:\/\/\S+\/#\/recuperar-senha\?token=[\w-]{43})/.exec(mail.text)?.[1]
  expect(link, mail.text).toBeTruthy()
  expect(link?.startsWith(`${e2e.baseURL}/`)).toBe(true)

  await page.goto(link!)
  await expect(page.getByRole('heading', { name: 'Criar nova senha' })).toBeVisible()
  await page.getByLabel('Nova senha', { exact: true }).fill('senha-nova-do-davi')
  await page.getByLabel('Confirmar nova senha').fill('senha-nova-do-davi')
  await page.getByRole('button', { name: 'Salvar nova senha' }).click()
  await expect(page.getByRole('heading', { name: 'Senha alterada' })).toBeVisible()
  const notice = await waitForMail(staff.email, before + 1)
  expect(notice.subject).toBe('Painel: sua senha foi alterada')
  expect(notice.text).toContain('com um link de nova senha enviado por e-mail')

  // The link works once: opened again, the page says so at once, with no form to fill.
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
  await expect(page.getByLabel('Nova senha', { exact: true })).toHaveCount(0)

  // Old password refused, new one accepted, the session from before the reset ended.
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.')
  await signInWithForm(page, { email: staff.email, password: 'senha-nova-do-davi' })
  await expectRoute(page, '/dashboard')
  const me = await api.get('/api/auth/me', { headers: { authorization: `Bearer ${oldToken}` } })
  expect(me.status()).toBe(401)
})

test.describe('with a session', () => {
  test.use({ signedInAs: 'staff' })

  test('a session that ends on the server sends the user to the login page, remembering where they were', async ({
    page,
    api,
  }) => {
    await page.goto('/#/perfil')
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    const { token } = JSON.parse((await tokenIn(page)) ?? '{}') as { token: string }
    await api.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } })

    await page.reload()
    await expectRoute(page, '/login?redirect=%2Fperfil')
    await expect(loginForm(page)).toBeVisible()
    expect(await tokenIn(page)).toBeNull()
  })

  test('Minha conta changes the password', async ({ page, account, api }) => {
    await page.goto('/#/perfil')
    // Changing the e-mail and asking for deletion ask for the current password too: this form's.
    const form = page.locator('form', {
      has: page.getByRole('button', { name: 'Salvar nova senha' }),
    })
    await form.getByLabel('Senha atual').fill('not-my-password')
    await form.getByLabel('Nova senha', { exact: true }).fill('minha-senha-nova-1')
    await form.getByLabel('Confirmar nova senha').fill('minha-senha-nova-1')
    await form.getByRole('button', { name: 'Salvar nova senha' }).click()
    // Minha conta has other cards with their own alerts: the error is the field's own.
    await expect(form.getByLabel('Senha atual')).toHaveAccessibleDescription(
      'A senha atual não confere.',
    )
    await expect(
      page.getByRole('alert').filter({ hasText: 'A senha atual não confere.' }),
    ).toBeVisible()

    const mailsBefore = (await mailsTo(account!.email)).length
    await form.getByLabel('Senha atual').fill(account!.password)
    await form.getByRole('button', { name: 'Salvar nova senha' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Senha alterada' })).toBeVisible()
    await expect(form.getByLabel('Senha atual')).toHaveValue('')

    // The owner is told by mail, with the way back if it was not them.
    const notice = await waitForMail(account!.email, mailsBefore)
    expect(notice.subject).toBe('Painel: sua senha foi alterada')
    expect(notice.text).toContain('na tela Minha conta')
    expect(notice.text).toContain(`${e2e.baseURL}/#/recuperar-senha`)

    // Still signed in here; the new password is the one that works now, the old one no more.
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    await apiSignIn(api, account!.email, 'minha-senha-nova-1')
    const withOld = await api.post('/api/auth/login', {
      data: { email: account!.email, password: account!.password },
    })
    expect(withOld.status()).toBe(401)
  })
})

test('a new browser that guesses waits after five failures, and the page says how long', async ({
  page,
  api,
}) => {
  const staff = await createStaff(api)
  await page.goto('/#/login')
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await signInWithForm(page, { email: staff.email, password: `errada-${attempt}` })
    await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.')
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeEnabled()
  }
  await signInWithForm(page, staff)
  await expect(page.getByRole('alert')).toHaveText(
    'Muitas tentativas. Tente novamente em 1 minuto.',
  )
  expect(await tokenIn(page)).toBeNull()
})

test('a browser that signed in before is let in even while guesses from elsewhere wait', async ({
  page,
  api,
  browser,
}) => {
  // Two browsers, an account made through the API, failed guesses that wait: past the default
  // 30 s beside a CPU job (a loaded CI run timed out on both tries).
  test.slow()
  const staff = await createStaff(api)
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  await page.evaluate(() => localStorage.clear())

  // Another browser (no device cookie) guesses until it has to wait.
  const guesser = await browser.newPage()
  await guesser.goto('/#/login')
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    await signInWithForm(guesser, { email: staff.email, password: `errada-${attempt}` })
    await expect(guesser.getByRole('button', { name: 'Entrar', exact: true })).toBeEnabled()
  }
  await expect(guesser.getByRole('alert')).toHaveText(/^Muitas tentativas/)
  await guesser.close()

  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
})

test('a staff member does not see the Equipe screen', async ({ page, api }) => {
  const staff = await createStaff(api)
  await page.goto('/#/login?redirect=%2Fequipe')
  await signInWithForm(page, staff)
  await expectRoute(page, '/equipe')
  await expect(page.getByText('Sem permissão: seu papel não dá acesso a esta tela.')).toBeVisible()
  await expect(
    page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: 'Equipe' }),
  ).toHaveCount(0)
})
