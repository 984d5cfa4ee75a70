import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { e2e } from './support/test-env'

/**
 * Issue 34 §1: Equipe shows names and e-mails of 45 characters whole, at 1280 px in the table
 * and at 390 px in the cards: an admin approving a registration decides on the domain. A name
 * wraps only between words, an e-mail only after its "@" or before a dot, never mid-word; the
 * table, with its role, team and last sign-in, fits the content area.
 */

let counter = 0
/** A 45-character address no other test uses, with a long domain as public bodies have. */
function email45(token: string): string {
  counter += 1
  const domain = '@secretaria.saude.sp.gov.br'
  const unique = `${token}${counter}`
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

/**
 * Where the element's text breaks to a new line and is not allowed to: a name between words
 * only, an e-mail after its "@" or before a dot only. Each as "before|after".
 */
const badBreaks = (element: Locator, kind: 'name' | 'email') =>
  element.evaluate((node, kind) => {
    const chars: { char: string; top: number }[] = []
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT)
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (let index = 0; index < (text.textContent ?? '').length; index += 1) {
        const range = document.createRange()
        range.setStart(text, index)
        range.setEnd(text, index + 1)
        const rect = range.getClientRects()[0]
        if (rect) chars.push({ char: text.textContent![index]!, top: Math.round(rect.top) })
      }
    }
    const whole = chars.map(({ char }) => char).join('')
    const found: string[] = []
    for (let index = 1; index < chars.length; index += 1) {
      if (chars[index]!.top <= chars[index - 1]!.top + 2) continue
      const before = chars[index - 1]!.char
      const after = chars[index]!.char
      const allowed =
        kind === 'name' ? before === ' ' || after === ' ' : before === '@' || after === '.'
      if (!allowed) found.push(`${whole.slice(0, index)}|${whole.slice(index)}`)
    }
    return found
  }, kind)

/** A custom role and a team with the screenshots' words, unique to the run. */
async function placeInRoleAndTeam(api: APIRequestContext, id: string, token: string) {
  const headers = {
    authorization: `Bearer ${await apiSignIn(api, e2e.admin.email, e2e.admin.password)}`,
  }
  const role = await api.post('/api/roles', {
    data: {
      name: `Auditoria interna ${token}`,
      description: '',
      scope: 'all',
      permissions: ['staff.view', 'audit.view'],
    },
    headers,
  })
  expect(role.status(), await role.text()).toBe(201)
  const team = await api.post('/api/teams', {
    data: { name: `Operações ${token}`, open: true },
    headers,
  })
  expect(team.status(), await team.text()).toBe(201)
  const placed = await api.patch(`/api/staff/${id}`, {
    data: {
      roleId: ((await role.json()) as { role: { id: string } }).role.id,
      teamId: ((await team.json()) as { team: { id: string } }).team.id,
    },
    headers,
  })
  expect(placed.status(), await placed.text()).toBe(200)
}

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
      const token = `${Date.now().toString(36)}${process.pid % 1000}`
      const name = 'Ana Beatriz Souza Pereira de Albuquerque Lima'
      expect(name).toHaveLength(45)
      const pending = await createStaff(api, { name, email: email45(token), approve: false })
      const active = await createStaff(api, {
        name: `${name.slice(0, 40)} Neto`,
        email: email45(token),
      })
      // The columns the screenshots showed too wide: a role, a team, a last sign-in.
      await placeInRoleAndTeam(api, active.id, token)
      await apiSignIn(api, active.email, active.password)
      // Both rows in one list, as an admin sees them: the table sizes its columns for both.
      await page.goto(`/#/equipe?q=${token}`)
      await expect(page.getByText('2 contas', { exact: true })).toBeVisible({ timeout: 15_000 })
      const table = viewport.width > 1000
      const list = table
        ? page.getByRole('table', { name: 'Contas da equipe' })
        : page.getByRole('list', { name: 'Contas da equipe' })
      for (const person of [pending, active]) {
        const email = list.getByText(person.email, { exact: true })
        const link = list.getByRole('link', { name: `Abrir a conta de ${person.name}` })
        await expectWhole(email)
        await expectWhole(link)
        expect(await badBreaks(email, 'email'), 'the e-mail breaks mid-word').toEqual([])
        expect(await badBreaks(link, 'name'), 'the name breaks mid-word').toEqual([])
        const status = person === pending ? 'Aguardando aprovação' : 'Ativa'
        const badge = list.getByText(status, { exact: true })
        await expectWhole(badge)
        expect(await linesOf(badge), `"${status}" on one line`).toBe(1)
      }
      if (table) {
        // The table within the content area: its right edge no further than the heading's
        // buttons' ("Convidar pessoa" ends the content area), its headers on one line each.
        const tableBox = (await list.boundingBox())!
        const invite = (await page.getByRole('button', { name: 'Convidar pessoa' }).boundingBox())!
        expect(
          tableBox.x + tableBox.width,
          'the table ends within the content area',
        ).toBeLessThanOrEqual(invite.x + invite.width + 1)
        for (const header of await list.getByRole('columnheader').all())
          expect(await linesOf(header), await header.innerText()).toBeLessThanOrEqual(1)
        // The role and the team, stacked; the last sign-in's day whole on one line.
        const row = list.getByRole('row', { name: new RegExp(active.email) })
        await expect(row).toContainText(`Auditoria interna ${token}`)
        await expect(row).toContainText(`Operações ${token}`)
        const day = row.getByText(/^\d+ de \S+ de \d{4}$/)
        expect(await linesOf(day), "the last sign-in's day on one line").toBe(1)
      }
      expect(await noSidewaysScroll(page)).toBe(true)
    })
  }
})
