import { expect, test } from './fixtures'

/**
 * Auditoria as a Brazilian user reads it: the date filters take the day first (dd/mm/aaaa),
 * and on a phone an event's details ("Entrou": where from, with what) are whole, wrapping
 * between words, not cut by an ellipsis.
 */
test.use({ signedInAs: 'admin', locale: 'pt-BR' })

test('"De" and "Até" take the day first: typed 25/12/2026, the filter is 25 de dez.', async ({
  page,
}) => {
  await page.goto('/#/auditoria')
  const from = page.getByLabel('De', { exact: true })
  await expect(from).toBeVisible()
  expect(await page.evaluate(() => navigator.language)).toBe('pt-BR')
  expect(await from.evaluate((input) => input.closest('[lang]')?.getAttribute('lang'))).toBe(
    'pt-BR',
  )
  // Focused from the keyboard, the field starts at its first part: the day in dd/mm/aaaa, the
  // month in mm/dd/yyyy (where 25 is no month).
  await from.focus()
  await from.pressSequentially('25122026')
  await expect(from).toHaveValue('2026-12-25')
})

test('on a phone, "Entrou"\'s details are whole, wrapping between words', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/#/auditoria')
  // The signed-in admin's own sign-in (the fixture's): "… · com senha".
  const details = page.getByText(/ · com senha$/).first()
  await expect(details).toBeVisible()
  const problems = await details.evaluate((element) => {
    const found: string[] = []
    const style = getComputedStyle(element)
    if (style.textOverflow === 'ellipsis' && style.overflowX !== 'visible')
      found.push('cut with an ellipsis')
    if (style.whiteSpace === 'nowrap') found.push('kept to one line')
    if (element.scrollWidth > element.clientWidth + 1) found.push('wider than its box')
    if (element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      found.push('runs off the page')
    return found
  })
  expect(problems).toEqual([])
})
