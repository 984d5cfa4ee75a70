import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'

/** Issue 34 §6: "Nome (A–Z)" and "Nome (Z–A)" in Portuguese alphabetical order. */

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('Nome (A–Z): Álvaro before João, José after João, Úrsula before Yasmin; Z–A the reverse', async ({
    page,
    api,
  }) => {
    test.slow()
    const label = `ordem${Date.now().toString(36)}${process.pid % 1000}`
    for (const name of [
      'Yasmin Ordem',
      'José Ordem',
      'Úrsula Ordem',
      'João Ordem',
      'Álvaro Ordem',
    ]) {
      await createStaff(api, { name, label })
    }
    await page.goto(`/#/equipe?q=${label}`)
    await expect(page.getByText('5 contas', { exact: true })).toBeVisible({ timeout: 15_000 })
    const names = page
      .getByRole('table', { name: 'Contas da equipe' })
      .getByRole('link', { name: /^Abrir a conta de / })
    const inOrder = ['Álvaro Ordem', 'João Ordem', 'José Ordem', 'Úrsula Ordem', 'Yasmin Ordem']

    await page.getByLabel('Ordenar por').selectOption({ label: 'Nome (A–Z)' })
    await expect(names).toHaveText(inOrder)
    await page.getByLabel('Ordenar por').selectOption({ label: 'Nome (Z–A)' })
    await expect(names).toHaveText([...inOrder].reverse())
  })
})
