import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'

/**
 * Words a new user tripped on: one name per concept ("Papel"), sentences addressed to the person
 * reading them, forms that assume no gender, and a confirmation that repeats what was typed.
 */

test('"Verifique seu e-mail" repeats the address typed, and a wrong one can be typed again', async ({
  page,
}) => {
  await page.goto('/#/recuperar-senha')
  await page.getByLabel('E-mail').fill('  ana.beatriz@painel.test ')
  await page.getByRole('button', { name: 'Enviar link' }).click()
  await expect(page.getByRole('heading', { name: 'Verifique seu e-mail' })).toBeVisible()
  await expect(
    page.getByText('Se houver uma conta com o e-mail ana.beatriz@painel.test,'),
  ).toBeVisible()
  await page.getByRole('button', { name: 'O endereço está errado? Peça de novo' }).click()
  await expect(page.getByRole('heading', { name: 'Recuperar senha' })).toBeVisible()
})

test.describe('signed in as staff', () => {
  test.use({ signedInAs: 'staff' })

  test('Minha conta says "Papel", and the second factor is explained to the person', async ({
    page,
  }) => {
    await page.goto('/#/perfil')
    await expect(page.getByText('Papel', { exact: true })).toBeVisible()
    await expect(page.getByText('Perfil de acesso')).toHaveCount(0)
    await expect(
      page.getByText('Ao entrar, você digita também um código do aplicativo autenticador'),
    ).toBeVisible()
  })
})

test.describe('signed in as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('giving a person the admin role is worded for anyone', async ({ page, api }) => {
    const person = await createStaff(api, { label: 'papel', name: 'Rafa Souza' })
    // Roles are chosen by name on the person's page ("Papel e time"), not by a menu shortcut.
    await page.goto(`/#/equipe/${person.id}`)
    const card = page.locator('form').filter({ hasText: 'Salvar papel e time' })
    await card.getByLabel('Papel').selectOption({ label: 'Administrador' })
    await expect(card.getByRole('button', { name: 'Salvar papel e time' })).toBeEnabled()
    await expect(page.getByText(/Tornar /)).toHaveCount(0)
  })
})
