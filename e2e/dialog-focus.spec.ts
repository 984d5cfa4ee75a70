import { seedTokenOnce } from './support/pages'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'

/**
 * Keyboard focus around the panel's dialogs (issue 34 §4, §5): opened from a button, Escape and
 * Cancelar give focus back to that button; Tab stays inside; once the thing is gone, focus goes
 * to a neighbour instead of falling to the page's body.
 */

/** Minha conta of a fresh staff account with `others` more sessions open elsewhere. */
async function myAccountWithSessions(
  page: Page,
  api: Parameters<typeof createStaff>[0],
  others: number,
) {
  const staff = await createStaff(api, { label: 'foco-sessoes', name: 'Fábio Foco' })
  const mine = await apiSignIn(api, staff.email, staff.password)
  const theirs: string[] = []
  for (let index = 0; index < others; index += 1) {
    theirs.push(await apiSignIn(api, staff.email, staff.password))
  }
  await seedTokenOnce(page, mine)
  await page.goto('/#/perfil')
  const list = page.getByRole('list', { name: 'Sessões abertas' })
  await expect(list.getByRole('listitem')).toHaveCount(others + 1)
  return { list, theirs }
}

/** Focuses `opener` and opens its dialog with Enter, as a keyboard user would. */
async function openByKeyboard(page: Page, opener: Locator): Promise<Locator> {
  await opener.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  return dialog
}

/** Goes twice round the dialog's controls backwards, then forwards: focus never leaves it. */
async function expectTabStaysIn(page: Page, dialog: Locator, controls: number): Promise<void> {
  for (let press = 0; press < controls * 2 + 1; press += 1) {
    await page.keyboard.press('Shift+Tab')
    await expect(dialog.locator(':focus'), `Shift+Tab ${press + 1}`).toHaveCount(1)
  }
  for (let press = 0; press < controls * 2 + 1; press += 1) {
    await page.keyboard.press('Tab')
    await expect(dialog.locator(':focus'), `Tab ${press + 1}`).toHaveCount(1)
  }
}

test('ending a session asks first; Escape and Cancelar keep it and give focus back; after it, the next row', async ({
  page,
  api,
}) => {
  const { list, theirs } = await myAccountWithSessions(page, api, 2)
  const endButtons = list.getByRole('button', { name: /^Encerrar a sessão de / })
  await expect(endButtons).toHaveCount(2)

  let dialog = await openByKeyboard(page, endButtons.first())
  await expect(dialog.getByRole('heading', { name: /^Encerrar a sessão de .*\?$/ })).toBeVisible()
  await expect(dialog).toContainText('volta para a página de entrada')
  await expect(dialog.getByRole('button', { name: 'Encerrar', exact: true })).toBeVisible()
  await expectTabStaysIn(page, dialog, 2)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(endButtons.first()).toBeFocused()

  dialog = await openByKeyboard(page, endButtons.first())
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(endButtons.first()).toBeFocused()
  await expect(list.getByRole('listitem')).toHaveCount(3)
  for (const token of theirs) {
    const alive = await api.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
    expect(alive.status(), 'Cancelar ended no session').toBe(200)
  }

  dialog = await openByKeyboard(page, endButtons.first())
  await dialog.getByRole('button', { name: 'Encerrar', exact: true }).click()
  await expect(page.getByText('Sessão encerrada.')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(2)
  // The row left the list: focus is on the remaining other session's button, not on the body.
  await expect(endButtons).toHaveCount(1)
  await expect(endButtons.first()).toBeFocused()
})

test('a refusal keeps focus in the dialog, on the button that was pressed, with the reason said', async ({
  page,
  api,
}) => {
  const { list } = await myAccountWithSessions(page, api, 1)
  await page.route(/\/api\/me\/sessions\/[0-9a-f-]{36}$/, (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({
          status: 503,
          json: { error: { code: 'unavailable', message: 'O servidor está ocupado agora.' } },
        })
      : route.fallback(),
  )
  const dialog = await openByKeyboard(
    page,
    list.getByRole('button', { name: /^Encerrar a sessão de / }),
  )
  const confirm = dialog.getByRole('button', { name: 'Encerrar', exact: true })
  await page.keyboard.press('Tab')
  await expect(confirm).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toContainText('O servidor está ocupado agora.')
  // Not on the page's body: a keyboard user goes on from where they were (Enter tries again).
  await expect(confirm).toBeFocused()
  await expect(list.getByRole('listitem')).toHaveCount(2)
})

test('"Encerrar as outras sessões" names how many, and focus lands on the card once it is done', async ({
  page,
  api,
}) => {
  const { list } = await myAccountWithSessions(page, api, 2)
  const opener = page.getByRole('button', { name: 'Encerrar as outras sessões' })
  let dialog = await openByKeyboard(page, opener)
  await expect(
    dialog.getByRole('heading', { name: 'Encerrar as outras 2 sessões abertas?' }),
  ).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(opener).toBeFocused()
  await expect(list.getByRole('listitem')).toHaveCount(3)

  dialog = await openByKeyboard(page, opener)
  await dialog.getByRole('button', { name: 'Encerrar 2 sessões' }).click()
  await expect(page.getByText('As outras sessões foram encerradas.')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByRole('heading', { name: 'Sessões abertas' })).toBeFocused()
})

test.describe('Equipe, as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('approving by keyboard: Escape gives focus back; once approved, focus is on the next row’s "Aprovar"', async ({
    page,
    api,
  }) => {
    const label = `foco-aprovar-${Date.now().toString(36)}`
    const first = await createStaff(api, { label, name: 'Primeira Pendente', approve: false })
    const second = await createStaff(api, { label, name: 'Segunda Pendente', approve: false })
    await page.goto(`/#/equipe?status=pending&q=${label}`)
    const approveFirst = page.getByRole('button', { name: `Aprovar ${first.name}` })
    const approveSecond = page.getByRole('button', { name: `Aprovar ${second.name}` })
    await expect(approveSecond).toBeVisible({ timeout: 15_000 })

    let dialog = await openByKeyboard(page, approveFirst)
    await expectTabStaysIn(page, dialog, 2)
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(approveFirst).toBeFocused()

    dialog = await openByKeyboard(page, approveFirst)
    await dialog.getByRole('button', { name: 'Aprovar', exact: true }).click()
    await expect(page.getByText(`O cadastro de ${first.name} foi aprovado.`)).toBeVisible()
    await expect(approveFirst).toHaveCount(0)
    await expect(approveSecond).toBeFocused()
  })

  test('an action from the "Ações" menu gives focus back to the menu’s button', async ({
    page,
    api,
  }) => {
    const person = await createStaff(api, { label: 'foco-menu', name: 'Mário Menu' })
    await page.goto(`/#/equipe?q=${encodeURIComponent(person.email)}`)
    const toggle = page.getByRole('button', { name: `Ações para ${person.name}` })
    await toggle.focus()
    await page.keyboard.press('Enter')
    const item = page.getByRole('button', { name: 'Encerrar sessões', exact: true })
    await item.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(toggle).toBeFocused()
  })

  test('the invite dialog: Tab stays inside; Cancelar gives focus back to "Convidar pessoa"', async ({
    page,
  }) => {
    await page.goto('/#/equipe')
    const opener = page.getByRole('button', { name: 'Convidar pessoa' })
    const dialog = await openByKeyboard(page, opener)
    await expectTabStaysIn(page, dialog, 5)
    await dialog.getByRole('button', { name: 'Cancelar' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(opener).toBeFocused()
  })
})
