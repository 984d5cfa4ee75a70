import { TOTP } from 'otpauth'
import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { seriousViolations } from './support/axe'
import { expectRoute, signInWithForm } from './support/pages'

/** The authenticator app and recovery codes, from Minha conta to the login's second step. */

const codeFor = (secret: string, at = Date.now()) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at })

test('TOTP on → sign out → sign in with a code from the secret → a recovery code works once', async ({
  page,
  api,
}) => {
  test.slow()
  const staff = await createStaff(api, { label: 'totp', name: 'Tina Totp' })
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expectRoute(page, '/dashboard')
  await page.goto('/#/perfil')

  await page.getByRole('button', { name: 'Ativar aplicativo autenticador' }).click()
  await expect(
    page.getByRole('img', { name: 'Código QR para o aplicativo autenticador' }),
  ).toBeVisible()
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s+/g, '')
  for (const mode of ['light', 'dark'] as const) {
    await page.evaluate(
      (theme) => document.documentElement.setAttribute('data-coreui-theme', theme),
      mode,
    )
    expect(await seriousViolations(page), `TOTP set-up in ${mode} mode`).toEqual([])
  }
  await page.getByLabel('Código de 6 dígitos do aplicativo').fill(codeFor(secret))
  await page.getByRole('button', { name: 'Confirmar e ativar' }).click()
  const codes = page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  const recovery = (await codes.allTextContents()).map((code) => code.trim())
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Baixar como .txt' }).click()
  expect((await download).suggestedFilename()).toBe('painel-codigos-de-recuperacao.txt')
  await page.getByRole('button', { name: 'Já guardei os códigos' }).click()
  await expect(page.getByText('Ativada com aplicativo autenticador.')).toBeVisible()
  // The codes are gone from the page; focus is on the card's heading, not lost on the body.
  await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeFocused()

  // Sign out; the password alone is not enough any more.
  await page.getByRole('button', { name: 'Menu do usuário' }).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expectRoute(page, '/login')
  await signInWithForm(page, staff)
  const code = page.getByLabel('Código de verificação')
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
  await expect(code).toHaveAttribute('inputmode', 'numeric')
  expect(await seriousViolations(page), 'the code step').toEqual([])
  // A code of the next step: within the ±1 step the server allows, and not used yet.
  await code.fill(codeFor(secret, Date.now() + 30_000))
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expectRoute(page, '/dashboard')

  // A recovery code instead, then the same one again: refused.
  for (const attempt of ['first', 'again'] as const) {
    await page.evaluate(() => window.localStorage.removeItem('token_adm'))
    await page.goto('/#/login')
    await signInWithForm(page, staff)
    if (attempt === 'first') {
      await page.getByRole('button', { name: 'Verificar' }).click()
      await expect(page.getByRole('alert')).toHaveText('Informe o código.')
    }
    await page.getByRole('button', { name: 'Usar um código de recuperação' }).click()
    // A new, empty field: the app code's complaint is gone with it.
    await expect(page.getByRole('alert')).toHaveCount(0)
    await page.getByLabel('Código de recuperação').fill(recovery[0]!)
    await page.getByRole('button', { name: 'Verificar' }).click()
    if (attempt === 'first') await expectRoute(page, '/dashboard')
    else await expect(page.getByRole('alert')).toBeVisible()
  }
})

test('setting up the app on the phone that shows the page: a link opens the app, the key is copied whole and read in groups, the code field waits', async ({
  page,
  context,
  api,
  browserName,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const staff = await createStaff(api, { label: 'totp-phone', name: 'Paula Celular' })
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expectRoute(page, '/dashboard')
  await page.goto('/#/perfil')
  await page.getByRole('button', { name: 'Ativar aplicativo autenticador' }).click()

  // The code field has the focus: the next step once the app has the key.
  await expect(page.getByLabel('Código de 6 dígitos do aplicativo')).toBeFocused()

  const key = page.getByTestId('totp-secret')
  const secret = (await key.textContent())!.replace(/\s+/g, '')
  const open = page.getByRole('link', { name: 'Abrir no aplicativo autenticador' })
  const href = await open.getAttribute('href')
  expect(href).toMatch(/^otpauth:\/\/totp\//)
  expect(new URL(href!).searchParams.get('secret')).toBe(secret)

  // Groups of four, none of one character, each on one line of the phone's screen.
  const groups = key.locator('span')
  const texts = await groups.allTextContents()
  expect(texts.join('')).toBe(secret)
  for (const [index, text] of texts.entries()) {
    expect(text.length, `group ${index + 1}: "${text}"`).toBeGreaterThanOrEqual(2)
    if (index < texts.length - 1) expect(text).toHaveLength(4)
  }
  const lineHeight = await key.evaluate((element) =>
    parseFloat(getComputedStyle(element).lineHeight),
  )
  for (const box of await groups.evaluateAll((spans) =>
    spans.map((span) => span.getBoundingClientRect().height),
  ))
    expect(box).toBeLessThan(lineHeight * 1.5)

  if (browserName === 'chromium') {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: 'Copiar chave' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Chave copiada.' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
  }
})
