import { expect, test } from './fixtures'

/**
 * #/confirmar-email always offers a way on: the login page ("Entrar"), or Início for whoever is
 * signed in, whether the link is whole, incomplete or refused, not only after it worked.
 */

test.describe('signed out', () => {
  for (const [what, address] of [
    ['a link to confirm', '/#/confirmar-email?token=abc'],
    ['a link to cancel', '/#/confirmar-email?cancelar=abc'],
    ['an incomplete link', '/#/confirmar-email'],
  ] as const) {
    test(`${what}: "Ir para o login" leads to Entrar`, async ({ page }) => {
      await page.goto(address)
      await page.getByRole('link', { name: 'Ir para o login' }).click()
      await expect(page.getByRole('heading', { name: 'Entrar', exact: true })).toBeVisible()
    })
  }

  test('a link the server refuses: the error, and still the way to Entrar', async ({ page }) => {
    await page.goto('/#/confirmar-email?token=abc')
    await page.getByRole('button', { name: 'Confirmar novo e-mail' }).click()
    await expect(page.getByRole('alert')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Ir para o login' })).toBeVisible()
  })
})

test.describe('signed in', () => {
  test.use({ signedInAs: 'staff' })

  test('"Ir para o Início" leads to Início', async ({ page }) => {
    await page.goto('/#/confirmar-email?token=abc')
    await page.getByRole('link', { name: 'Ir para o Início' }).click()
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  })
})
