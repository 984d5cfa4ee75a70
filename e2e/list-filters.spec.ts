import type { Page, Request } from '@playwright/test'
import { expect, test } from './fixtures'
import { e2e } from './support/test-env'

/**
 * Equipe's and Auditoria's filters behave alike (client/src/ui/filter-bar.tsx): a select applies
 * when picked, a search or a day when typing pauses (or on Enter), with no "Filtrar" to press; the
 * bar fits the screen; an inverted date range is said on the field and not asked of the API.
 */

test.use({ signedInAs: 'admin' })

const search = (page: Page) => page.getByRole('search')

/** Every /api/audit request the page sends from now on. */
function auditRequests(page: Page): Request[] {
  const seen: Request[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/api/audit')) seen.push(request)
  })
  return seen
}

test('Equipe: the search applies as typing pauses, a select at once, with no "Filtrar" to press', async ({
  page,
}) => {
  await page.goto('/#/equipe')
  await expect(search(page).getByRole('button', { name: 'Filtrar' })).toHaveCount(0)
  await page.getByLabel('Buscar por nome ou e-mail').fill(e2e.admin.email)
  await expect(page).toHaveURL(new RegExp(`#/equipe\\?q=${encodeURIComponent(e2e.admin.email)}$`))
  await expect(page.getByText('1 conta', { exact: true })).toBeVisible()
  // What was typed stays in the box as the list comes back.
  await expect(page.getByLabel('Buscar por nome ou e-mail')).toHaveValue(e2e.admin.email)
  await page.getByLabel('Situação').selectOption('disabled')
  await expect(page).toHaveURL(/[?&]status=disabled(&|$)/)
  await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
  // "Limpar filtros" empties the box too.
  await search(page).getByRole('button', { name: 'Limpar filtros' }).click()
  await expect(page).toHaveURL(/#\/equipe$/)
  await expect(page.getByLabel('Buscar por nome ou e-mail')).toHaveValue('')
})

test('Equipe: Enter applies the search at once', async ({ page }) => {
  await page.goto('/#/equipe')
  const box = page.getByLabel('Buscar por nome ou e-mail')
  await box.pressSequentially('ninguem-assim')
  await box.press('Enter')
  await expect(page).toHaveURL(/#\/equipe\?q=ninguem-assim$/)
  await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
})

test('Equipe: a select picked while the search waits for its pause keeps both', async ({
  page,
}) => {
  await page.goto('/#/equipe')
  await page.getByLabel('Buscar por nome ou e-mail').fill('ninguem-assim')
  // Before the search's pause is over: the search, applied after, must not undo the select.
  await page.getByLabel('Situação').selectOption('disabled')
  await expect(page).toHaveURL(/#\/equipe\?status=disabled&q=ninguem-assim$/)
  await expect(page.getByLabel('Situação')).toHaveValue('disabled')
  await expect(page.getByLabel('Buscar por nome ou e-mail')).toHaveValue('ninguem-assim')
  // And the back button undoes the search alone, the box showing what the URL says.
  await page.goBack()
  await expect(page).toHaveURL(/#\/equipe\?status=disabled$/)
  await expect(page.getByLabel('Buscar por nome ou e-mail')).toHaveValue('')
})

test('Auditoria: a type and the days apply as they are chosen, as on Equipe', async ({ page }) => {
  await page.goto('/#/auditoria')
  await expect(search(page).getByRole('button', { name: 'Filtrar' })).toHaveCount(0)
  await page.getByLabel('Tipo').selectOption('sign_in')
  await expect(page).toHaveURL(/#\/auditoria\?type=sign_in$/)
  const events = page.getByRole('list', { name: 'Eventos da auditoria' })
  await expect(events.getByText('Entrou').first()).toBeVisible()
  await page.getByLabel('De').fill('2020-01-01')
  await expect(page).toHaveURL(/#\/auditoria\?type=sign_in&from=2020-01-01$/)
  await expect(events.getByText('Entrou').first()).toBeVisible()
})

test('Auditoria: "Até" before "De" is said on the field, and the log is not asked for it', async ({
  page,
}) => {
  await page.goto('/#/auditoria')
  await expect(
    page.getByRole('list', { name: 'Eventos da auditoria' }).getByRole('listitem').first(),
  ).toBeVisible()
  const asked = auditRequests(page)
  await page.getByLabel('De').fill('2026-11-20')
  await expect(page).toHaveURL(/from=2026-11-20/)
  const to = page.getByLabel('Até')
  await to.fill('2026-11-10')
  await expect(page).toHaveURL(/from=2026-11-20&to=2026-11-10$/)
  await expect(to).toHaveAttribute('aria-invalid', 'true')
  await expect(to).toHaveAccessibleDescription('«Até» não pode ser anterior a «De».')
  // Not an empty log as if nothing had happened: no list, no "Nenhum evento", nothing to export.
  await expect(page.getByRole('list', { name: 'Eventos da auditoria' })).toHaveCount(0)
  await expect(page.getByText('Nenhum evento com estes filtros.')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled()
  const inverted = asked.filter((request) => {
    const query = new URL(request.url()).searchParams
    return query.has('to') && query.get('to')! < query.get('from')!
  })
  expect(inverted.map((request) => request.url())).toEqual([])

  // A link with the range already inverted says the same.
  await page.goto('/#/auditoria?from=2026-11-20&to=2026-11-10')
  await expect(page.getByLabel('Até')).toHaveAttribute('aria-invalid', 'true')

  // Put right, the log comes back and the field is fine.
  await page.getByLabel('Até').fill('2026-11-25')
  await expect(page.getByLabel('Até')).not.toHaveAttribute('aria-invalid', 'true')
  await expect(
    page
      .getByText('Nenhum evento com estes filtros.')
      .or(page.getByRole('list', { name: 'Eventos da auditoria' })),
  ).toBeVisible()
})

/** Whether a select shows its chosen option's text whole (its text fits inside the box). */
const showsWholeValue = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((select: HTMLSelectElement) => {
    const style = getComputedStyle(select)
    const context = document.createElement('canvas').getContext('2d')!
    context.font = style.font
    const text = context.measureText(select.selectedOptions[0]!.text).width
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    return text <= room
  })

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('each filter is as wide as its values: "Ordenar por" does not span the row, Tipo is not cut', async ({
    page,
  }) => {
    await page.goto('/#/equipe?sort=-lastSignInAt')
    const sort = await page.getByLabel('Ordenar por').boundingBox()
    expect(sort!.width).toBeLessThan(320)
    expect(await showsWholeValue(page, 'Ordenar por')).toBe(true)
    expect(await showsWholeValue(page, 'Situação')).toBe(true)

    // The longest type there is.
    await page.goto('/#/auditoria?type=recovery_codes_regenerated')
    await expect(page.getByLabel('Tipo')).toHaveValue('recovery_codes_regenerated')
    expect(await showsWholeValue(page, 'Tipo')).toBe(true)
  })
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  for (const screen of ['equipe', 'auditoria']) {
    test(`${screen}: "Filtros" stands alone with "Limpar filtros", no "Filtrar" beside it`, async ({
      page,
    }) => {
      await page.goto(`/#/${screen}?sort=name&type=sign_in`)
      const form = search(page)
      await expect(form.getByRole('button', { name: /^Filtros/ })).toBeVisible()
      await expect(form.getByRole('button', { name: 'Filtrar' })).toHaveCount(0)
      await expect(form.getByRole('button', { name: 'Limpar filtros' })).toBeInViewport()
      await form.getByRole('button', { name: /^Filtros/ }).click()
      await expect(form.getByRole('combobox').first()).toBeVisible()
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true)
    })
  }
})
