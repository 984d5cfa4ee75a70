import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff, type TestAccount } from './support/accounts'
import { seriousViolations } from './support/axe'
import { waitForMail } from './support/mailbox'
import { e2e } from './support/test-env'

/**
 * Issue 34 §3: Equipe's row selection and bulk actions (approve, refuse with one reason,
 * disable), one confirmation naming how many and who, and a summary of what was done.
 */

let runs = 0
/** A label for this test's people only: searching for it lists them and nobody else. */
const batch = () => `lote${Date.now().toString(36)}${process.pid % 1000}${(runs += 1)}`

async function people(
  api: Parameters<typeof createStaff>[0],
  label: string,
  names: string[],
  approve = false,
) {
  const made: TestAccount[] = []
  for (const name of names) made.push(await createStaff(api, { name, label, approve }))
  return made
}

async function openBatch(page: Page, label: string, count: number) {
  await page.goto(`/#/equipe?q=${label}`)
  await expect(page.getByText(`${count} contas`, { exact: true })).toBeVisible({ timeout: 15_000 })
}

const summary = (page: Page) => page.getByRole('status').filter({ hasText: 'Resultado' })

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('the selection bar reads clearly in both colour modes (axe, contrast included)', async ({
    page,
    api,
  }) => {
    const label = batch()
    const [ana] = await people(api, label, ['Ana Contraste', 'Bia Contraste'])
    await openBatch(page, label, 2)
    await page.getByRole('checkbox', { name: `Selecionar ${ana!.name}` }).check()
    const bar = page.getByRole('toolbar', { name: 'Ações para as pessoas selecionadas' })
    await expect(bar.getByRole('button', { name: 'Limpar seleção' })).toBeVisible()
    for (const mode of ['light', 'dark'] as const) {
      await page.evaluate(
        (theme) => document.documentElement.setAttribute('data-coreui-theme', theme),
        mode,
      )
      expect(await seriousViolations(page), `Equipe with a selection, ${mode} mode`).toEqual([])
    }
  })

  test('approves three pending people in one confirmation; one approved meanwhile is said so', async ({
    page,
    api,
  }) => {
    test.slow()
    const label = batch()
    const [ana, bia, caio] = await people(api, label, ['Ana Lote', 'Bia Lote', 'Caio Lote'])
    await openBatch(page, label, 3)
    for (const person of [ana!, bia!, caio!]) {
      await page.getByRole('checkbox', { name: `Selecionar ${person.name}` }).check()
    }
    const bar = page.getByRole('toolbar', { name: 'Ações para as pessoas selecionadas' })
    await expect(bar).toContainText('3 pessoas selecionadas')
    await bar.getByRole('button', { name: 'Aprovar 3 pessoas selecionadas' }).click()

    const dialog = page.getByRole('dialog', { name: 'Aprovar 3 cadastros?' })
    for (const person of [ana!, bia!, caio!]) await expect(dialog).toContainText(person.name)
    await expect(dialog).toContainText('receberá um e-mail')
    // Another admin approves Caio while the dialog is open.
    const token = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
    const meanwhile = await api.patch(`/api/staff/${caio!.id}`, {
      data: { status: 'active' },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(meanwhile.status()).toBe(200)
    await dialog.getByRole('button', { name: 'Aprovar', exact: true }).click()
    await expect(dialog).toHaveCount(0)

    await expect(summary(page)).toContainText('Cadastros aprovados (2): Ana Lote e Bia Lote.')
    await expect(summary(page)).toContainText(
      'Já estavam aprovados antes, por outra pessoa (nada mudou): Caio Lote.',
    )
    for (const person of [ana!, bia!, caio!]) {
      const row = page.getByRole('row', { name: new RegExp(person.name) })
      await expect(row).toContainText('Ativa')
      await expect(row.getByRole('checkbox')).not.toBeChecked()
    }
    await expect(bar).toHaveCount(0)
    expect((await waitForMail(ana!.email)).subject).toMatch(/aprovado/)
  })

  test('refuses a whole page with one reason, by keyboard', async ({ page, api }) => {
    test.slow()
    const label = batch()
    const refused = await people(api, label, ['Davi Recusa', 'Eva Recusa'])
    await openBatch(page, label, 2)
    const all = page.getByRole('checkbox', { name: 'Selecionar todos desta página' })
    await all.focus()
    await page.keyboard.press('Space')
    for (const person of refused) {
      await expect(page.getByRole('checkbox', { name: `Selecionar ${person.name}` })).toBeChecked()
    }
    await page.getByRole('button', { name: 'Recusar 2 pessoas selecionadas' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Recusar 2 cadastros?' })
    await expect(dialog).toContainText('Davi Recusa')
    await expect(dialog).toContainText('Eva Recusa')
    await dialog.getByLabel('Motivo (opcional, vai no e-mail de cada pessoa)').focus()
    await page.keyboard.type('Cadastro de teste.')
    await dialog.getByRole('button', { name: 'Recusar', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect(dialog).toHaveCount(0)
    await expect(summary(page)).toContainText('Cadastros recusados (2): Davi Recusa e Eva Recusa.')
    await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
    for (const person of refused) {
      expect((await waitForMail(person.email)).text).toContain('Cadastro de teste.')
    }
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } })

    test('the selection bar stays in view while the admin scrolls down the cards', async ({
      page,
      api,
    }) => {
      test.slow()
      const label = batch()
      const names = ['Ana', 'Bia', 'Caio', 'Davi', 'Edu', 'Fábio', 'Gil', 'Hugo'].map(
        (name) => `${name} Rolagem`,
      )
      await people(api, label, names)
      await openBatch(page, label, names.length)
      const cards = page.getByRole('list', { name: 'Contas da equipe' })
      const first = cards.getByRole('checkbox', { name: `Selecionar ${names[0]}` })
      const last = cards.getByRole('checkbox', { name: `Selecionar ${names.at(-1)}` })
      await first.check()
      const bar = page.getByRole('toolbar', { name: 'Ações para as pessoas selecionadas' })
      await expect(bar).toContainText('1 pessoa selecionada')

      // Going down the cards with Tab, the focused control comes out from under the bar (a
      // frame after the focus, once the page has scrolled).
      const underTheBar = () =>
        page.evaluate(() => {
          const focused = document.activeElement
          const pinned = document.querySelector('[role="toolbar"]')
          if (!focused || !pinned || pinned.contains(focused)) return null
          const box = focused.getBoundingClientRect()
          const barBox = pinned.getBoundingClientRect()
          return box.bottom > barBox.top + 1 && box.top < barBox.bottom
            ? (focused.getAttribute('aria-label') ?? focused.textContent)
            : null
        })
      await first.focus()
      for (let press = 1; press <= 12; press += 1) {
        await page.keyboard.press('Tab')
        await expect
          .poll(underTheBar, {
            message: `after Tab ${press}, the focused control is under the bar`,
          })
          .toBeNull()
      }

      // Halfway down, then at the very end: the first card is long gone, the bar is not.
      await cards.getByRole('checkbox', { name: `Selecionar ${names[4]}` }).scrollIntoViewIfNeeded()
      await expect(first).not.toBeInViewport()
      await expect(bar).toBeInViewport({ ratio: 1 })
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
      await expect(first).not.toBeInViewport()
      await expect(bar).toBeInViewport({ ratio: 1 })
      // Ticking one further down, the count and "Aprovar (2)" are right there.
      await last.check()
      await expect(bar).toContainText('2 pessoas selecionadas')
      const approve = bar.getByRole('button', { name: 'Aprovar 2 pessoas selecionadas' })
      await expect(approve).toBeInViewport({ ratio: 1 })
      // Nor does the bar hide the last card or the pages' buttons at the end of the list.
      await expect(last).toBeInViewport({ ratio: 1 })
      const lastBox = (await last.boundingBox())!
      const barBox = (await bar.boundingBox())!
      expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(barBox.y)
      await approve.click()
      await expect(page.getByRole('dialog', { name: 'Aprovar 2 cadastros?' })).toBeVisible()
    })

    test('selects people on the cards and disables them; the page never scrolls sideways', async ({
      page,
      api,
    }) => {
      test.slow()
      const label = batch()
      const [one, two] = await people(api, label, ['Fábio Desativa', 'Gil Desativa'], true)
      await openBatch(page, label, 2)
      const cards = page.getByRole('list', { name: 'Contas da equipe' })
      await cards.getByRole('checkbox', { name: `Selecionar ${one!.name}` }).check()
      await cards.getByRole('checkbox', { name: `Selecionar ${two!.name}` }).check()
      await expect(
        page.getByRole('checkbox', { name: 'Selecionar todos desta página' }),
      ).toBeChecked()
      const disable = page.getByRole('button', { name: 'Desativar 2 pessoas selecionadas' })
      await expect(disable).toBeInViewport()
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true)
      await disable.click()
      const dialog = page.getByRole('dialog', { name: 'Desativar 2 contas?' })
      await expect(dialog).toContainText('sessões abertas')
      await dialog.getByRole('button', { name: 'Desativar', exact: true }).click()
      await expect(summary(page)).toContainText(
        'Contas desativadas (2): Fábio Desativa e Gil Desativa.',
      )
      await expect(cards.getByText('Desativada', { exact: true })).toHaveCount(2)
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true)
    })
  })
})
