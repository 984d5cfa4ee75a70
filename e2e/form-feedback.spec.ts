import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { SERVER_DECIDES } from './support/engine-sensitive'
import { signInWithForm } from './support/pages'

/** What the forms say back: information as information, an error on its field, and help typing. */

test(
  'waiting for approval is said as information, not as an error',
  { tag: SERVER_DECIDES },
  async ({ page, api }) => {
    const person = await createStaff(api, { approve: false, label: 'pendente' })
    await page.goto('/#/login')
    await signInWithForm(page, person)
    const notice = page.getByRole('status')
    await expect(notice).toHaveText('Seu cadastro ainda aguarda a aprovação de um administrador.')
    await expect(notice).toHaveClass(/alert-info/)
    await expect(page.getByRole('alert')).toHaveCount(0)
  },
)

test('register: a field’s error sits right under it, the hint after', async ({ page }) => {
  await page.goto('/#/register')
  await page.getByLabel('Senha', { exact: true }).fill('curta')
  // As a person would, after the strength estimate: with advice it takes two lines and moves the
  // button (the next test), and a click on its way there missed it in Firefox.
  await expect(page.getByText(/^Força da senha:/)).toBeVisible()
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()
  const field = page.getByLabel('Senha', { exact: true })
  await expect(field).toHaveAccessibleDescription(/A senha deve ter pelo menos 8 caracteres/)
  const error = page.getByText('A senha deve ter pelo menos 8 caracteres.')
  const hint = page.getByText('De 8 a 128 caracteres.')
  const top = async (locator: typeof field) => (await locator.boundingBox())!.y
  const errorTop = await top(error)
  expect(errorTop).toBeGreaterThan(await top(field))
  expect(errorTop).toBeLessThan(await top(hint))
})

test('register: the strength estimate arriving does not move the button', async ({ page }) => {
  // The estimate is held until the button has been measured: the line must be there before it.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/auth/password-strength', async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/#/register')
  const button = page.getByRole('button', { name: 'Solicitar cadastro' })
  await page.getByLabel('Senha', { exact: true }).fill('vaca amarela pula no brejo de manhã')
  const before = (await button.boundingBox())!.y
  release()
  await expect(page.getByText(/^Força da senha: (boa|forte)\.$/)).toBeVisible()
  expect((await button.boundingBox())!.y).toBe(before)
})

test.describe('the sign-in password', () => {
  test('can be shown and hidden again', async ({ page }) => {
    await page.goto('/#/login')
    const password = page.getByLabel('Senha', { exact: true })
    const toggle = page.getByRole('button', { name: 'Mostrar senha' })
    await password.fill('segredo-123')
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await toggle.click()
    await expect(password).toHaveAttribute('type', 'text')
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await expect(password).toHaveValue('segredo-123')
    await toggle.click()
    await expect(password).toHaveAttribute('type', 'password')
  })

  test('warns while Caps Lock is on', async ({ page }) => {
    await page.goto('/#/login')
    const password = page.getByLabel('Senha', { exact: true })
    await password.focus()
    // Playwright cannot press a real Caps Lock; the key event carries its state, as the browser's does.
    await password.dispatchEvent('keydown', { key: 'A', modifierCapsLock: true })
    await expect(page.getByText('Caps Lock está ativado.')).toBeVisible()
    await expect(password).toHaveAccessibleDescription('Caps Lock está ativado.')
    await password.dispatchEvent('keyup', { key: 'a', modifierCapsLock: false })
    await expect(page.getByText('Caps Lock está ativado.')).toHaveCount(0)
  })
})

test.describe('Minha conta', () => {
  test.use({ signedInAs: 'staff' })

  test('a wrong current password is said on that field, which gets the focus', async ({ page }) => {
    await page.goto('/#/perfil')
    // Changing the e-mail and asking for deletion ask for the current password too: this form's.
    const form = page.locator('form', {
      has: page.getByRole('button', { name: 'Salvar nova senha' }),
    })
    const current = form.getByLabel('Senha atual')
    await current.fill('not-my-password')
    await form.getByLabel('Nova senha', { exact: true }).fill('minha-senha-nova-1')
    await form.getByLabel('Confirmar nova senha').fill('minha-senha-nova-1')
    await form.getByRole('button', { name: 'Salvar nova senha' }).click()
    await expect(current).toHaveAttribute('aria-invalid', 'true')
    await expect(current).toHaveAccessibleDescription('A senha atual não confere.')
    await expect(current).toBeFocused()
    await expect(page.getByRole('alert')).toHaveCount(1)
  })

  test('a password changed: the focus goes to the message that says so, not to <body>', async ({
    page,
    account,
  }) => {
    await page.goto('/#/perfil')
    const form = page.locator('form', {
      has: page.getByRole('button', { name: 'Salvar nova senha' }),
    })
    await form.getByLabel('Senha atual').fill(account!.password)
    await form.getByLabel('Nova senha', { exact: true }).fill('minha-senha-nova-1')
    await form.getByLabel('Confirmar nova senha').fill('minha-senha-nova-1')
    await form.getByLabel('Confirmar nova senha').press('Enter')
    const done = page.getByRole('status').filter({ hasText: 'Senha alterada.' })
    await expect(done).toBeVisible()
    await expect(done).toBeFocused()
  })
})
