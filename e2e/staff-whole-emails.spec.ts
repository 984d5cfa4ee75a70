import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'

/**
 * Issue 34 §1: Equipe shows names and e-mails of 45 characters whole, at 1280 px in the table
 * and at 390 px in the cards: an admin approving a registration decides on the domain.
 */

let counter = 0
/** A 45-character address no other test uses, with a long domain as public bodies have. */
function email45(): string {
  counter += 1
  const domain = '@secretaria.saude.sp.gov.br'
  const unique = `${Date.now().toString(36)}${process.pid % 1000}${counter}`
  const local = `ana.${unique}.souzapereira`.slice(0, 45 - domain.length)
  const email = `${local}${domain}`
  expect(email).toHaveLength(45)
  return email
}

/** The text is all on screen: nothing clips it, it ends in no ellipsis, it spills nowhere. */
async function expectWhole(text: Locator) {
  await expect(text).toBeVisible()
  const problems = await text.evaluate((element) => {
    const found: string[] = []
    const box = element.getBoundingClientRect()
    // An inline box has no overflow of its own (its text flows in the lines of its block), and
    // its clientWidth is 0: Firefox still gives its scrollWidth, Chromium 0. Its block is checked
    // below, as any box that clips.
    const inline = getComputedStyle(element).display === 'inline'
    if (!inline && element.scrollWidth > element.clientWidth + 1)
      found.push('its content is wider than it')
    if (box.right > document.documentElement.clientWidth + 1) found.push('it runs off the page')
    for (
      let node: Element | null = element;
      node && node !== document.body;
      node = node.parentElement
    ) {
      const style = getComputedStyle(node)
      if (style.textOverflow === 'ellipsis' && style.overflowX !== 'visible')
        found.push(`an ellipsis on <${node.tagName.toLowerCase()}>`)
      if (style.overflowX !== 'visible' && node !== element) {
        const clip = node.getBoundingClientRect()
        if (box.left < clip.left - 1 || box.right > clip.right + 1)
          found.push(`clipped by <${node.tagName.toLowerCase()}>`)
      }
    }
    return found
  })
  expect(problems, await text.innerText()).toEqual([])
}

/** How many lines the element's text takes. */
const linesOf = (element: Locator) =>
  element.evaluate((node) => {
    const range = document.createRange()
    range.selectNodeContents(node)
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom))).size
  })

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin' })

  for (const [what, viewport] of [
    ['at 1280 px, in the table', { width: 1280, height: 800 }],
    ['at 390 px, in the cards', { width: 390, height: 844 }],
  ] as const) {
    test(`${what}, names and e-mails of 45 characters are whole, the status on one line`, async ({
      page,
      api,
    }) => {
      await page.setViewportSize(viewport)
      const name = 'Ana Beatriz Souza Pereira de Albuquerque Lima'
      expect(name).toHaveLength(45)
      const pending = await createStaff(api, { name, email: email45(), approve: false })
      const active = await createStaff(api, { name: `${name.slice(0, 40)} Neto`, email: email45() })
      for (const person of [pending, active]) {
        await page.goto(`/#/equipe?q=${encodeURIComponent(person.email)}`)
        await expect(page.getByText('1 conta', { exact: true })).toBeVisible({ timeout: 15_000 })
        const list =
          viewport.width > 1000
            ? page.getByRole('table', { name: 'Contas da equipe' })
            : page.getByRole('list', { name: 'Contas da equipe' })
        await expectWhole(list.getByText(person.email, { exact: true }))
        await expectWhole(list.getByRole('link', { name: `Abrir a conta de ${person.name}` }))
        const status = person === pending ? 'Aguardando aprovação' : 'Ativa'
        const badge = list.getByText(status, { exact: true })
        await expectWhole(badge)
        expect(await linesOf(badge), `"${status}" on one line`).toBe(1)
        if (viewport.width > 1000) {
          // Beside the role and team columns the address may break once (after its @), no more.
          expect(await linesOf(list.getByText(person.email, { exact: true }))).toBeLessThanOrEqual(
            2,
          )
        }
        expect(await noSidewaysScroll(page)).toBe(true)
      }
    })
  }
})
