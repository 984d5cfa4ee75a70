import type { Locator } from '@playwright/test'
import { expect, test } from './fixtures'
import { adminAccount, uniqueEmail } from './support/accounts'

/**
 * Issue 34 §10: every form speaks pt-BR in the page, whatever the browser's language; a server's
 * refusal of a field sits on that field and goes when it changes; every password field of
 * Minha conta has the sign-in's show/hide button.
 */

/**
 * Whether the browser would stop a submit with its own bubble ("Please fill out this field."):
 * only when the form lets it validate and a field breaks a constraint it declares (`required`,
 * `type=email`, …). The bubble itself is drawn outside the page, where no locator reaches.
 */
const browserWouldValidate = (form: Locator) =>
  form.evaluate(
    (element: HTMLFormElement) =>
      !element.noValidate &&
      [...element.elements].some(
        (field) => 'validity' in field && !(field as HTMLInputElement).validity.valid,
      ),
  )

test.describe('an English browser, as an admin', () => {
  test.use({ signedInAs: 'admin', locale: 'en-US' })

  test('the invite dialog says in pt-BR, on each field, what is missing or wrong', async ({
    page,
  }) => {
    await page.goto('/#/equipe')
    await page.getByRole('button', { name: 'Convidar pessoa' }).click()
    const dialog = page.getByRole('dialog', { name: 'Convidar pessoa' })
    const name = dialog.getByLabel('Nome')
    const email = dialog.getByLabel('E-mail')

    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    expect(await browserWouldValidate(dialog.locator('form'))).toBe(false)
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    await expect(name).toHaveAccessibleDescription('Informe o nome.')
    await expect(email).toHaveAttribute('aria-invalid', 'true')
    await expect(email).toHaveAccessibleDescription('Informe o e-mail.')
    await expect(dialog.getByRole('alert')).toHaveText(['Informe o nome.', 'Informe o e-mail.'])
    await expect(name).toBeFocused()

    // A field's message goes as it is edited; the other's stays until it is.
    await name.fill('Lia Linguagem')
    await expect(name).toHaveAttribute('aria-invalid', 'false')
    await expect(dialog.getByRole('alert')).toHaveText(['Informe o e-mail.'])
    await email.fill('lia@')
    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    expect(await browserWouldValidate(dialog.locator('form'))).toBe(false)
    await expect(email).toHaveAccessibleDescription(
      'Informe um e-mail válido, como nome@empresa.com.br.',
    )
    await expect(email).toBeFocused()

    // The server's "already has an account" is the e-mail's too.
    await email.fill(adminAccount().email)
    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    await expect(email).toHaveAccessibleDescription('Já existe uma conta com este e-mail.')
    await expect(dialog.getByRole('alert')).toHaveCount(1)

    const address = uniqueEmail('lingua')
    await email.fill(address)
    await expect(dialog.getByRole('alert')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    await expect(page.getByText(`Convite enviado para ${address}.`)).toBeVisible()
  })
})

test('register: the server’s refusal of a common password is said on the field and goes when it changes', async ({
  page,
}) => {
  await page.goto('/#/register')
  await page.getByLabel('Nome').fill('Clara Comum')
  await page.getByLabel('E-mail').fill(uniqueEmail('comum'))
  const password = page.getByLabel('Senha', { exact: true })
  await password.fill('senha123')
  await page.getByLabel('Confirmar senha').fill('senha123')
  await page.getByRole('button', { name: 'Solicitar cadastro' }).click()

  const refusal = 'Esta senha é muito comum ou já apareceu em vazamentos. Escolha outra.'
  await expect(password).toHaveAttribute('aria-invalid', 'true')
  await expect(password).toHaveAccessibleDescription(new RegExp(refusal.replace(/\./g, '\\.')))
  await expect(password).toBeFocused()
  // Under the field, not in a banner above the form.
  const message = page.getByRole('alert')
  await expect(message).toHaveText(refusal)
  const fieldBox = (await password.boundingBox())!
  const messageBox = (await message.boundingBox())!
  const confirmationBox = (await page.getByLabel('Confirmar senha').boundingBox())!
  expect(messageBox.y).toBeGreaterThan(fieldBox.y)
  expect(messageBox.y).toBeLessThan(confirmationBox.y)

  await password.fill('vaca amarela pula no brejo de manhã')
  await expect(page.getByText(/^Força da senha: (boa|forte)\.$/)).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(page.getByText(refusal)).toHaveCount(0)
  await expect(password).toHaveAttribute('aria-invalid', 'false')
})

test('register: the strength line keeps its distance from the next label', async ({ page }) => {
  await page.goto('/#/register')
  await page.getByLabel('Senha', { exact: true }).fill('vaca amarela pula no brejo de manhã')
  const strength = page.getByText(/^Força da senha:/)
  await expect(strength).toBeVisible()
  const label = page.locator('label', { hasText: 'Confirmar senha' })
  const strengthBox = (await strength.boundingBox())!
  const labelBox = (await label.boundingBox())!
  // The fields' own spacing (1rem) between them, as between any two fields.
  expect(labelBox.y - (strengthBox.y + strengthBox.height)).toBeGreaterThanOrEqual(12)
})

test.describe('Minha conta', () => {
  test.use({ signedInAs: 'staff' })

  test('each password field can be shown and hidden, as on the sign-in page', async ({ page }) => {
    await page.goto('/#/perfil')
    // Changing the e-mail and asking for deletion have a password field each, with its own toggle.
    await expect(page.getByRole('button', { name: 'Mostrar senha' })).toHaveCount(5)
    const form = page.locator('form', {
      has: page.getByRole('button', { name: 'Salvar nova senha' }),
    })
    const toggles = form.getByRole('button', { name: 'Mostrar senha' })
    await expect(toggles).toHaveCount(3)
    const fields = [
      form.getByLabel('Senha atual'),
      form.getByLabel('Nova senha', { exact: true }),
      form.getByLabel('Confirmar nova senha'),
    ]
    for (const [index, field] of fields.entries()) {
      await field.fill(`segredo-${index}-abc`)
      await expect(field).toHaveAttribute('type', 'password')
      await toggles.nth(index).click()
      await expect(field).toHaveAttribute('type', 'text')
      await expect(toggles.nth(index)).toHaveAttribute('aria-pressed', 'true')
      await expect(field).toHaveValue(`segredo-${index}-abc`)
      await toggles.nth(index).click()
      await expect(field).toHaveAttribute('type', 'password')
    }
  })
})
