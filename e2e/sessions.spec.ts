import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { seriousViolations } from './support/axe'
import { e2e } from './support/test-env'
import { expectRoute, seedTokenOnce } from './support/pages'

/** Minha conta lists the person's sessions and ends them; the ended one is told why. */

test('two browsers: "Encerrar as outras sessões" ends the second one, which lands on login saying why', async ({
  page,
  api,
  browser,
}) => {
  const staff = await createStaff(api, { label: 'sessoes', name: 'Sara Sessões' })
  const mine = await apiSignIn(api, staff.email, staff.password)
  const theirs = await apiSignIn(api, staff.email, staff.password)
  const storage = (token: string) => ({
    cookies: [],
    origins: [
      {
        origin: e2e.baseURL,
        localStorage: [{ name: 'token_adm', value: JSON.stringify({ token }) }],
      },
    ],
  })
  const other = await browser.newContext({ storageState: storage(theirs) })
  const second = await other.newPage()
  await second.goto('/#/perfil')
  await expect(second.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()

  await page.context().addInitScript(
    (value) => {
      if (!window.sessionStorage.getItem('seeded')) {
        window.sessionStorage.setItem('seeded', '1')
        window.localStorage.setItem('token_adm', value)
      }
    },
    JSON.stringify({ token: mine }),
  )
  await page.goto('/#/perfil')
  const list = page.getByRole('list', { name: 'Sessões abertas' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const current = list.locator('li[aria-current="true"]')
  await expect(current).toContainText('Esta sessão')
  await expect(current).toContainText('127.0.0.1')
  // The app's date format: "22 de nov. de 2026, 17:05".
  await expect(current).toContainText(/\d{1,2} de [a-zç]{3}\. de \d{4},? \d{2}:\d{2}/)

  await page.getByRole('button', { name: 'Encerrar as outras sessões' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Encerrar 1 sessão' }).click()
  await expect(page.getByText('As outras sessões foram encerradas.')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByText('Só esta sessão está aberta.')).toBeVisible()

  await second.reload()
  await expectRoute(second, '/login?redirect=%2Fperfil')
  await expect(second.getByRole('status')).toContainText(
    'Sua sessão foi encerrada em outro dispositivo ou por um administrador.',
  )
  await other.close()

  // This one goes on.
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
})

test('ending one other session by its button', async ({ page, api }) => {
  const staff = await createStaff(api, { label: 'uma-sessao' })
  const mine = await apiSignIn(api, staff.email, staff.password)
  const theirs = await apiSignIn(api, staff.email, staff.password)
  await seedTokenOnce(page, mine)
  await page.goto('/#/perfil')
  await page.getByRole('button', { name: /^Encerrar a sessão de / }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Encerrar', exact: true }).click()
  await expect(page.getByText('Sessão encerrada.')).toBeVisible()
  const refused = await api.get('/api/auth/me', { headers: { authorization: `Bearer ${theirs}` } })
  expect(refused.status()).toBe(401)
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('session_revoked')
})

for (const mode of ['light', 'dark'] as const) {
  test(`Minha conta with its new cards passes axe in ${mode} mode`, async ({ page, api }) => {
    const staff = await createStaff(api, { label: `axe-conta-${mode}` })
    const token = await apiSignIn(api, staff.email, staff.password)
    await page.addInitScript(
      ([value, theme]) => {
        window.localStorage.setItem('token_adm', value)
        window.localStorage.setItem('coreui-free-react-admin-template-theme', theme)
      },
      [JSON.stringify({ token }), mode] as const,
    )
    await page.goto('/#/perfil')
    await expect(page.getByRole('list', { name: 'Sessões abertas' })).toBeVisible()
    expect(await seriousViolations(page), `Minha conta in ${mode} mode`).toEqual([])
  })
}
