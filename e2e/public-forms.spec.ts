import type { Page, Request } from '@playwright/test'
import { expect, test } from './fixtures'
import { expectRoute, holdRequests, signInWithForm } from './support/pages'

/** The public forms as a person meets them: labels, validation, announcements, focus, sending. */

const alerts = (page: Page) => page.getByRole('alert')

test('login: empty submit names both fields, focuses the first, and sends nothing', async ({
  page,
}) => {
  let sent = 0
  page.on('request', (request) => {
    if (request.url().includes('/api/')) sent += 1
  })
  await page.goto('/#/login')
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(alerts(page)).toHaveText(['Informe o e-mail.', 'Informe a senha.'])
  await expect(page.getByLabel('E-mail')).toBeFocused()
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Informe o e-mail.')
  expect(sent).toBe(0)

  await page.getByLabel('E-mail').fill('ana@')
  await page.getByLabel('Senha', { exact: true }).fill('x')
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(alerts(page)).toHaveText(['Informe um e-mail válido, como nome@empresa.com.br.'])
  await expect(page.getByLabel('E-mail')).toBeFocused()
})

test('login fields say what they are to password managers and keyboards', async ({ page }) => {
  await page.goto('/#/login')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('autocomplete', 'username')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('type', 'email')
  await expect(page.getByLabel('Senha', { exact: true })).toHaveAttribute(
    'autocomplete',
    'current-password',
  )
  await expect(page.getByLabel('Senha', { exact: true })).toHaveAttribute('type', 'password')
  await expect(page.getByRole('link', { name: 'Esqueci minha senha' })).toHaveAttribute(
    'href',
    '#/recuperar-senha',
  )
  await expect(page.getByRole('link', { name: 'Solicitar cadastro' })).toHaveAttribute(
    'href',
    '#/register',
  )
  await expect(page).toHaveTitle('Entrar · Painel')
})

test('the submit button is disabled while the form is being sent', async ({ page }) => {
  const login = await holdRequests(page, '**/api/auth/login')
  await page.goto('/#/login')
  await signInWithForm(page, { email: 'alguem@painel.test', password: 'uma-senha-qualquer' })
  const sending = page.getByRole('button', { name: 'Entrando…' })
  await expect(sending).toBeDisabled()
  // A second submit while the first is on its way sends nothing.
  await page.getByLabel('Senha', { exact: true }).press('Enter')
  login.release()
  await expect(alerts(page)).toHaveText('E-mail ou senha incorretos.')
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeEnabled()
  expect(login.count()).toBe(1)
})

test('a server that cannot be reached is said so, never a fake success', async ({ page }) => {
  await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'))
  await page.goto('/#/login')
  await signInWithForm(page, { email: 'alguem@painel.test', password: 'uma-senha-qualquer' })
  await expect(alerts(page)).toHaveText(
    'Sem conexão com o servidor. Verifique sua rede e tente novamente.',
  )
  await expectRoute(page, '/login')
})

test('a proxy’s non-JSON error page is reported with its status', async ({ page }) => {
  await page.route('**/api/auth/login', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }),
  )
  await page.goto('/#/login')
  await signInWithForm(page, { email: 'alguem@painel.test', password: 'uma-senha-qualquer' })
  await expect(alerts(page)).toHaveText(
    'O servidor respondeu de forma inesperada (HTTP 502). Tente novamente.',
  )
  await expect(page.getByText('Bad Gateway')).toHaveCount(0)
})

test('register: every rule, with the first invalid field focused', async ({ page }) => {
  await page.goto('/#/register')
  await expect(page.getByLabel('Nome')).toHaveAttribute('autocomplete', 'name')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('autocomplete', 'email')
  await expect(page.getByLabel('Senha', { exact: true })).toHaveAttribute(
    'autocomplete',
    'new-password',
  )
  await expect(page.getByLabel('Confirmar senha')).toHaveAttribute('autocomplete', 'new-password')
  await expect(page.getByLabel('Senha', { exact: true })).toHaveAccessibleDescription(
    'De 8 a 128 caracteres.',
  )

  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  await expect(alerts(page)).toHaveText([
    'Informe seu nome.',
    'Informe o e-mail.',
    'Informe a senha.',
    'Confirme a senha.',
  ])
  await expect(page.getByLabel('Nome')).toBeFocused()

  await page.getByLabel('Nome').fill('Fábio')
  await page.getByLabel('E-mail').fill('fabio@painel')
  await page.getByLabel('Senha', { exact: true }).fill('curta')
  await page.getByLabel('Confirmar senha').fill('outra')
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  await expect(alerts(page)).toHaveText([
    'A senha deve ter pelo menos 8 caracteres.',
    'As senhas não conferem.',
  ])
  await expect(page.getByLabel('Senha', { exact: true })).toBeFocused()

  // Typing in a field clears its own message.
  await page.getByLabel('Senha', { exact: true }).fill('x'.repeat(129))
  await expect(alerts(page)).toHaveText(['As senhas não conferem.'])
  await page.getByLabel('Confirmar senha').fill('x'.repeat(129))
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  await expect(alerts(page)).toHaveText(['A senha deve ter no máximo 128 caracteres.'])
})

test('register: a strength hint appears as a password is typed, costing a few KB, and warns of a common password before the server refuses it', async ({
  page,
}) => {
  const afterTyping: Request[] = []
  let typing = false
  page.on('requestfinished', (request) => {
    if (typing) afterTyping.push(request)
  })
  await page.goto('/#/register')
  await expect(page.getByRole('button', { name: 'Solicitar cadastro' })).toBeVisible()

  const password = page.getByLabel('Senha', { exact: true })
  typing = true
  await password.fill('12345678')
  await expect(page.getByText('Força da senha: muito fraca.')).toBeVisible()
  // What the meter cost: its small script and the server's answer, not a dictionary download.
  const urls = afterTyping.map((request) => new URL(request.url()).pathname)
  expect(urls).toContain('/api/auth/password-strength')
  let bytes = 0
  for (const request of afterTyping) bytes += (await request.sizes()).responseBodySize
  expect(bytes, urls.join(', ')).toBeLessThan(30_000)

  await password.fill('vaca amarela pula no brejo de manhã')
  await expect(page.getByText(/^Força da senha: (boa|forte)\.$/)).toBeVisible()

  await page.getByLabel('Nome').fill('Fábio')
  await page.getByLabel('E-mail').fill('fabio-comum@painel.test')
  await password.fill('senha123')
  await expect(
    page.getByText(
      'Força da senha: muito fraca. Esta senha é muito comum ou já apareceu em vazamentos. Escolha outra.',
    ),
  ).toBeVisible()
  await page.getByLabel('Confirmar senha').fill('senha123')
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  await expect(alerts(page)).toHaveText(
    'Esta senha é muito comum ou já apareceu em vazamentos. Escolha outra.',
  )
})

test('recovery: the e-mail is required and checked; a sent request says what happens next', async ({
  page,
}) => {
  await page.goto('/#/recuperar-senha')
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(alerts(page)).toHaveText('Informe o e-mail.')
  await expect(page.getByLabel('E-mail')).toBeFocused()
  await page.getByLabel('E-mail').fill('ninguem@painel.test')
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(page.getByRole('heading', { name: 'Verifique seu e-mail' })).toBeVisible()
  await expect(
    page.getByText('O link vale por 30 minutos e só pode ser usado uma vez.'),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Voltar para a tela de entrada' }).click()
  await expectRoute(page, '/login')
})

test('the new-password form checks its fields and reports a link that stopped working', async ({
  page,
}) => {
  // Usable when the page opened, used up (elsewhere) before the form was sent.
  await page.route('**/api/auth/password-reset/check', (route) =>
    route.fulfill({ json: { email: 'ana@empresa.com.br' } }),
  )
  await page.goto(`/#/recuperar-senha?token=${'A'.repeat(43)}`)
  await expect(page.getByRole('heading', { name: 'Criar nova senha' })).toBeVisible()
  await page.getByRole('button', { name: 'Salvar nova senha' }).click()
  await expect(alerts(page)).toHaveText(['Informe a senha.', 'Confirme a senha.'])
  await page.getByLabel('Nova senha', { exact: true }).fill('senha-nova-123')
  await page.getByLabel('Confirmar nova senha').fill('senha-nova-123')
  await page.getByRole('button', { name: 'Salvar nova senha' }).click()
  await expect(alerts(page)).toHaveText(
    'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
  )
  await page.getByRole('link', { name: 'Pedir um novo link' }).click()
  await expect(page.getByRole('heading', { name: 'Recuperar senha' })).toBeVisible()
})

test('404 and 500 say what happened and lead back to the start', async ({ page }) => {
  for (const [path, heading] of [
    ['/404', 'Página não encontrada'],
    ['/500', 'Erro no servidor'],
  ]) {
    await page.goto(`/#${path}`)
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    await page.getByRole('link', { name: 'Voltar ao início' }).click()
    await expectRoute(page, '/login')
  }
})
