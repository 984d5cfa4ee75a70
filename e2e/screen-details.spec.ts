import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff } from './support/accounts'
import { colours, contrast, luminance, over, parseColor } from './support/contrast'
import { presetToken, sidebar } from './support/pages'
import { IPHONE_SAFARI } from './support/user-agents'

/** The signed-in screens at their edges: keyboard, long names, dark mode, names and dates. */

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }
const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'

const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Você está em' })

async function useDarkMode(page: Page) {
  await page.addInitScript((key) => window.localStorage.setItem(key, 'dark'), COLOR_MODE_KEY)
}

/** How many pixels of a screenshot are darker than `level` (0–255), counted by the page's canvas. */
async function pixelsDarkerThan(page: Page, png: Buffer, level: number): Promise<number> {
  return page.evaluate(
    async ([base64, level]) => {
      const image = new Image()
      image.src = `data:image/png;base64,${base64}`
      await image.decode()
      const canvas = document.createElement('canvas')
      canvas.width = image.width
      canvas.height = image.height
      const context = canvas.getContext('2d')!
      context.drawImage(image, 0, 0)
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
      let count = 0
      for (let i = 0; i < data.length; i += 4) {
        if ((data[i]! + data[i + 1]! + data[i + 2]!) / 3 < level) count++
      }
      return count
    },
    [png.toString('base64'), level] as const,
  )
}

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin', viewport: DESKTOP })

  test('the first Tab shows the skip link above the sidebar, and the page does not move', async ({
    page,
  }) => {
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    // The header's breadcrumb: the first Tab used to push it down 38 px.
    const header = breadcrumb(page)
    const before = await header.boundingBox()
    await page.keyboard.press('Tab')
    const skip = page.getByRole('button', { name: 'Pular para o conteúdo' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport({ ratio: 1 })
    // Drawn on top: what is under its centre is the link itself, not the sidebar.
    const box = (await skip.boundingBox())!
    const onTop = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('.painel-skip-link') !== null,
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    )
    expect(onTop, 'the skip link is not covered').toBe(true)
    expect(await header.boundingBox()).toEqual(before)
    await page.keyboard.press('Enter')
    await expect(page.getByRole('main')).toBeFocused()
  })

  test('a screen chosen in the sidebar by keyboard puts the focus on its heading; one Tab reaches its first control', async ({
    page,
  }) => {
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    const menu = sidebar(page)
    await menu.getByRole('link', { name: 'Equipe' }).focus()
    await page.keyboard.press('Enter')
    const equipe = page.getByRole('heading', { name: 'Equipe', level: 1 })
    await expect(equipe).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('main').getByRole('button', { name: 'Atualizar' })).toBeFocused()

    // Another screen, and its first control is a different one: Minha conta's name.
    await menu.getByRole('link', { name: 'Minha conta' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeFocused()
    await expect(page.getByRole('button', { name: 'Editar seu nome' })).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Editar seu nome' })).toBeFocused()
  })

  test('one page, one name: Início in the menu, the heading, the breadcrumb and the tab', async ({
    page,
  }) => {
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    await expect(page).toHaveTitle('Início · Painel')
    await expect(sidebar(page).getByRole('link', { name: 'Início' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Início'])
  })

  test('with the sidebar hidden, the content starts where the header and breadcrumb do', async ({
    page,
  }) => {
    await page.goto('/#/perfil')
    const heading = page.getByRole('heading', { name: 'Minha conta', level: 1 })
    await expect(heading).toBeVisible()
    await page.getByRole('button', { name: 'Mostrar ou ocultar o menu lateral' }).click()
    await expect(sidebar(page)).not.toBeInViewport()
    const left = async () => ({
      heading: Math.round((await heading.boundingBox())!.x),
      breadcrumb: Math.round((await breadcrumb(page).boundingBox())!.x),
    })
    await expect.poll(left).toEqual({ heading: 24, breadcrumb: 24 })
  })

  test('a day is written the same way in Equipe and in Minha conta', async ({ page, account }) => {
    // Equipe's page of one account (opened from the list) says when it was created.
    await page.goto(`/#/equipe?q=${encodeURIComponent(account!.email)}`)
    const link = page.getByRole('row', { name: new RegExp(account!.email) }).getByRole('link')
    await expect(page.getByRole('status')).toHaveText('1 conta')
    await page.goto((await link.getAttribute('href'))!)
    const created = page.getByRole('main').getByText('Conta criada em', { exact: true })
    await expect(created).toBeVisible()
    const inTable = (await created.locator('xpath=following-sibling::dd[1]').textContent())!.trim()
    expect(inTable).toMatch(/^\d{1,2} de [a-zç]{3}\. de \d{4}$/)
    await page.goto('/#/perfil')
    await expect(page.getByRole('main').getByText('Conta criada em')).toBeVisible()
    await expect(page.getByRole('main').getByText(inTable, { exact: true })).toBeVisible()
  })

  test('disabling an account says so in words that need no (a)', async ({ page, api }) => {
    const person = await createStaff(api, { name: 'Ana Souza' })
    await page.goto('/#/equipe')
    const row = page.getByRole('row', { name: new RegExp(person.email) })
    await row.getByRole('button', { name: 'Desativar Ana Souza' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('sessões')
    await dialog.getByRole('button', { name: 'Desativar', exact: true }).click()
    await expect(page.getByText('A conta de Ana Souza foi desativada.')).toBeVisible()
    await expect(page.getByText(/desativado\(a\)/)).toHaveCount(0)
  })

  test('a filter row lines up: its selects as tall as the fields beside them, labels in a row', async ({
    page,
  }) => {
    for (const [screen, fields] of [
      ['/#/equipe', ['Buscar por nome ou e-mail', 'Situação', 'Papel']],
      // Each filter is as wide as its longest value (the longest type is not cut), so at 1280 px
      // Auditoria's take two rows: each row lines up.
      ['/#/auditoria', ['Tipo', 'Conta', 'Autor']],
      ['/#/auditoria', ['De', 'Até']],
    ] as const) {
      await page.goto(screen)
      const boxes = []
      for (const name of fields) {
        const field = page.getByLabel(name, { exact: true })
        await expect(field).toBeVisible()
        const label = page.locator(`label[for="${await field.getAttribute('id')}"]`)
        boxes.push({
          name,
          field: (await field.boundingBox())!,
          label: (await label.boundingBox())!,
        })
      }
      const [first, ...others] = boxes
      for (const other of others) {
        expect(
          other.field.height,
          `${screen}: ${other.name} as tall as ${first!.name}`,
        ).toBeCloseTo(first!.field.height, 0)
        expect(other.label.y, `${screen}: the label of ${other.name} in line`).toBeCloseTo(
          first!.label.y,
          0,
        )
      }
    }
    // The invite dialog's role select, under its e-mail field.
    await page.goto('/#/equipe')
    await page.getByRole('button', { name: 'Convidar pessoa' }).click()
    const dialog = page.getByRole('dialog', { name: 'Convidar pessoa' })
    const email = (await dialog.getByLabel('E-mail', { exact: true }).boundingBox())!
    const role = (await dialog.getByLabel('Papel', { exact: true }).boundingBox())!
    expect(role.height, 'the invite dialog: Papel as tall as E-mail').toBeCloseTo(email.height, 0)
  })

  test('a light panel on a system in dark mode draws the browser’s own parts light: a date field’s calendar icon shows', async ({
    page,
    browserName,
  }) => {
    test.skip(browserName !== 'chromium', 'the calendar icon is Chromium’s own picker indicator')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/#/auditoria')
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'light')
    const field = page.getByLabel('De', { exact: true })
    await expect(field).toBeVisible()
    // Looked at until drawn, as a person would: a look taken while the screen was still being laid
    // out (its filters and list arriving) found no icon where the field's end was a moment later.
    await expect(async () => {
      const box = (await field.boundingBox())!
      // The icon sits at the field's right end, where the field is otherwise white.
      const end = await page.screenshot({
        clip: { x: box.x + box.width - 36, y: box.y + 4, width: 30, height: box.height - 8 },
      })
      // 76 such pixels when the icon is drawn dark; none when it is drawn white on the white field.
      expect(await pixelsDarkerThan(page, end, 128)).toBeGreaterThan(30)
    }).toPass({ timeout: 15_000 })
  })

  test('the sidebar, dark in both modes, has the browser draw its own parts dark (its scrollbar)', async ({
    page,
  }) => {
    await page.goto('/#/dashboard')
    const sidebar = page.getByRole('navigation', { name: 'Navegação principal' })
    await expect(sidebar).toBeVisible()
    // A short window scrolls the menu; headless Chromium hides scrollbars, so the test reads the
    // scheme they are drawn in.
    expect(await sidebar.evaluate((element) => getComputedStyle(element).colorScheme)).toBe('dark')
  })

  test.describe('in dark mode', () => {
    test('status badges are dark, and their text readable', async ({ page, api }) => {
      await createStaff(api, { name: 'Conta Pendente', approve: false })
      await useDarkMode(page)
      await page.goto('/#/equipe')
      for (const status of ['Ativa', 'Aguardando aprovação']) {
        const badge = page.getByRole('table').getByText(status, { exact: true }).first()
        const { color, background } = await colours(badge)
        expect(luminance(background), `${status}: a dark background`).toBeLessThan(0.05)
        expect(contrast(color, background), `${status}: text contrast`).toBeGreaterThanOrEqual(4.5)
      }
    })

    test('the sign-in chart’s colours stand out 3:1 from its card (WCAG 1.4.11)', async ({
      page,
    }) => {
      await useDarkMode(page)
      await page.goto('/#/dashboard')
      // The legend's swatches are drawn in the bars' two colours.
      const swatches = page.getByRole('main').locator('figure span > svg rect')
      await expect(swatches).toHaveCount(2)
      for (const swatch of await swatches.all()) {
        const { background } = await colours(swatch)
        const fill = parseColor(await swatch.evaluate((element) => getComputedStyle(element).fill))
        expect(contrast(over(fill, background), background)).toBeGreaterThanOrEqual(3)
      }
    })
  })
})

test.describe('a long name and e-mail in the user menu', () => {
  const name = 'Maria Aparecida de Albuquerque Cavalcanti Wanderley Vasconcelos Siqueira'

  for (const [what, viewport, maxWidth] of [
    ['on a phone', PHONE, PHONE.width - 16],
    ['on a desktop', DESKTOP, 320],
  ] as const) {
    test(`${what}, the menu stays on the screen and the lines end in an ellipsis`, async ({
      page,
      api,
    }) => {
      await page.setViewportSize(viewport)
      const person = await createStaff(api, {
        name,
        label: 'uma-pessoa-com-um-endereco-de-email-muito-comprido',
      })
      expect(person.email.length).toBeGreaterThan(60)
      await presetToken(
        page,
        JSON.stringify({ token: await apiSignIn(api, person.email, person.password) }),
      )
      await page.goto('/#/perfil')
      await page.getByRole('button', { name: 'Menu do usuário' }).click()
      const menu = page.locator('.painel-user-menu')
      await expect(menu.getByRole('button', { name: 'Sair' })).toBeVisible()
      const box = (await menu.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
      expect(box.width).toBeLessThanOrEqual(maxWidth)
      for (const text of [name, person.email]) {
        const line = menu.getByText(text, { exact: true })
        await expect(line).toHaveAttribute('title', text)
        await expect(line).toHaveCSS('text-overflow', 'ellipsis')
        expect(
          await line.evaluate((element) => element.scrollWidth > element.clientWidth),
          `${text} is cut`,
        ).toBe(true)
      }
    })
  }
})

test('the dashboard names the browser of the last sign-in in a few words, not its User-Agent', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'ultimo-acesso' })
  const earlier = await api.post('/api/auth/login', {
    data: { email: person.email, password: person.password },
    headers: { 'user-agent': IPHONE_SAFARI },
  })
  expect(earlier.status()).toBe(200)
  await presetToken(
    page,
    JSON.stringify({ token: await apiSignIn(api, person.email, person.password) }),
  )
  await page.goto('/#/dashboard')
  const access = page.getByText(/^Seu último acesso antes deste:/)
  await expect(access).toContainText('com Safari no iPhone')
  await expect(access).not.toContainText('Mozilla')
})
