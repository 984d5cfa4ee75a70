import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { DARK_SYSTEM, emulateSystemColorScheme } from './support/color-scheme'

/** Colour modes (docs/architecture.md, "Fixed contracts"): light, dark, auto; stored, applied before the first paint, shared by tabs. */

const KEY = 'coreui-free-react-admin-template-theme'
const html = (page: Page) => page.locator('html')
const stored = (page: Page) => page.evaluate((key) => window.localStorage.getItem(key), KEY)
const switcher = (page: Page) => page.getByRole('button', { name: /^Escolher tema/ })

async function presetMode(page: Page, mode: string | null): Promise<void> {
  // Only on the first document of the test, so later reloads see what the page itself stored.
  await page.addInitScript(
    ([key, value]) => {
      if (window.sessionStorage.getItem('test:preset') !== null) return
      window.sessionStorage.setItem('test:preset', '1')
      if (value === null) window.localStorage.removeItem(key)
      else window.localStorage.setItem(key, value)
    },
    [KEY, mode] as const,
  )
}

async function choose(page: Page, label: 'Claro' | 'Escuro' | 'Automático'): Promise<void> {
  await switcher(page).click()
  await page.getByRole('button', { name: label, exact: true }).click()
}

test.describe('the switcher in the header', () => {
  test.use({ signedInAs: 'staff' })

  const CHOICES = [
    { label: 'Claro', value: 'light', system: 'dark', shown: 'light' },
    { label: 'Escuro', value: 'dark', system: 'light', shown: 'dark' },
    { label: 'Automático', value: 'auto', system: 'dark', shown: 'dark' },
  ] as const
  for (const { label, value, system, shown } of CHOICES) {
    test(
      `choosing ${label} applies it at once, stores it, and keeps it after a reload`,
      {
        tag: system === 'dark' ? [DARK_SYSTEM] : [],
      },
      async ({ page }) => {
        await emulateSystemColorScheme(page, system)
        await page.goto('/#/dashboard')
        await choose(page, label)
        await expect(html(page)).toHaveAttribute('data-coreui-theme', shown)
        expect(await stored(page)).toBe(value)
        // The redux `theme` field, as the switcher shows it: its label and the pressed item.
        await expect(switcher(page)).toHaveAccessibleName(`Escolher tema (Tema: ${label})`)
        await switcher(page).click()
        await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute(
          'aria-pressed',
          'true',
        )
        await expect(
          page.getByRole('button', { name: label === 'Claro' ? 'Escuro' : 'Claro', exact: true }),
        ).toHaveAttribute('aria-pressed', 'false')

        await page.reload()
        await expect(html(page)).toHaveAttribute('data-coreui-theme', shown)
        await expect(switcher(page)).toHaveAccessibleName(`Escolher tema (Tema: ${label})`)
        expect(await stored(page)).toBe(value)
      },
    )
  }

  test('works with the keyboard alone', async ({ page }) => {
    await emulateSystemColorScheme(page, 'light')
    await page.goto('/#/dashboard')
    await switcher(page).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Escuro', exact: true })).toBeVisible()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('button', { name: 'Escuro', exact: true })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'dark')
    // Escape closes the menu and gives the focus back to the switcher.
    await switcher(page).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Claro', exact: true })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Claro', exact: true })).toBeHidden()
    await expect(switcher(page)).toBeFocused()
  })

  test('another open tab follows the choice', async ({ page, context }) => {
    await page.goto('/#/dashboard')
    const other = await context.newPage()
    await other.goto('/#/perfil')
    await expect(html(other)).toHaveAttribute('data-coreui-theme', 'light')
    await choose(page, 'Escuro')
    await expect(html(other)).toHaveAttribute('data-coreui-theme', 'dark')
    await expect(switcher(other)).toHaveAccessibleName('Escolher tema (Tema: Escuro)')
  })
})

test.describe('auto and the system preference', () => {
  test('auto follows the system when it changes, without a reload', async ({ page }) => {
    await presetMode(page, 'auto')
    await emulateSystemColorScheme(page, 'light')
    await page.goto('/#/login')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'light')
    await emulateSystemColorScheme(page, 'dark')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'dark')
    await emulateSystemColorScheme(page, 'light')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'light')
    expect(await stored(page)).toBe('auto')
  })

  for (const mode of ['light', 'dark'] as const) {
    test(`an explicit ${mode} stays ${mode} whatever the system does`, async ({ page }) => {
      await presetMode(page, mode)
      await emulateSystemColorScheme(page, mode === 'light' ? 'dark' : 'light')
      await page.goto('/#/login')
      await expect(html(page)).toHaveAttribute('data-coreui-theme', mode)
      await emulateSystemColorScheme(page, mode === 'light' ? 'light' : 'dark')
      await emulateSystemColorScheme(page, mode === 'light' ? 'dark' : 'light')
      await page.waitForTimeout(100)
      await expect(html(page)).toHaveAttribute('data-coreui-theme', mode)
    })
  }

  test(
    'with nothing stored the panel is light (docs/architecture.md, "Fixed contracts"), even on a dark system',
    {
      tag: DARK_SYSTEM,
    },
    async ({ page }) => {
      await presetMode(page, null)
      await emulateSystemColorScheme(page, 'dark')
      await page.goto('/#/login')
      await expect(html(page)).toHaveAttribute('data-coreui-theme', 'light')
      expect(await stored(page)).toBeNull()
    },
  )

  test('a tampered stored value counts as none', async ({ page }) => {
    await presetMode(page, '"><img src=x onerror=alert(1)>')
    await page.goto('/#/login')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'light')
    await expect(page.locator('img[src="x"]')).toHaveCount(0)
  })
})

test('no flash: a stored dark mode is on <html> before the app’s script runs', async ({ page }) => {
  await presetMode(page, 'dark')
  // Hold the app's entry script back for the whole test: whatever is dark is dark without it.
  await page.route('**/assets/main-*.js', () => {})
  await page.goto('/#/login', { waitUntil: 'commit' })
  await expect(html(page)).toHaveAttribute('data-coreui-theme', 'dark')
  // The sign-in page's CSS is inline in the page (scripts/build/critical-css.ts).
  await page.waitForFunction(() => document.styleSheets.length > 0)
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number)
  expect(0.2126 * r + 0.7152 * g + 0.0722 * b, `body background ${background}`).toBeLessThan(60)
  // The page is the sign-in form index.html carries, not yet taken over by the app.
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'sign-in')
})

test.describe('the theme URL parameter', () => {
  /** Raw query values (as typed in a URL), what they should do, and the text they must not leave. */
  const VALUES: { raw: string; expect: 'light' | 'dark' | 'auto' | 'rejected'; text?: string }[] = [
    { raw: 'dark', expect: 'dark' },
    { raw: 'light', expect: 'light' },
    { raw: 'auto', expect: 'auto' },
    { raw: 'DARK', expect: 'dark' },
    { raw: 'dark%20blue', expect: 'rejected', text: 'dark blue' },
    { raw: 'dark-x', expect: 'rejected', text: 'dark-x' },
    { raw: 'dark%3Cx%3E', expect: 'rejected', text: 'dark<x>' },
    { raw: '%3Cscript%3Ealert(1)%3C%2Fscript%3E', expect: 'rejected', text: 'alert(1)' },
    { raw: '%00', expect: 'rejected' },
    { raw: '', expect: 'rejected' },
    { raw: 'x'.repeat(10_000), expect: 'rejected', text: 'x'.repeat(100) },
    { raw: '%D1%82%D1%91%D0%BC%D0%BD%D1%8B%D0%B9', expect: 'rejected', text: 'тёмный' },
    { raw: 'd%C3%A1rk', expect: 'rejected', text: 'dárk' },
    { raw: 'dark&theme=light', expect: 'rejected' },
  ]

  for (const value of VALUES) {
    const label =
      value.raw.length > 40
        ? `${value.raw.slice(0, 12)}… (${value.raw.length} characters)`
        : value.raw || '(empty)'
    test(
      `theme=${label} ${value.expect === 'rejected' ? 'is ignored' : `sets ${value.expect}`}, before or inside the hash`,
      {
        tag: DARK_SYSTEM,
      },
      async ({ page }) => {
        const dialogs: string[] = []
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message())
          void dialog.dismiss()
        })
        await emulateSystemColorScheme(page, 'dark')
        // Light stored as each load begins, before the page's own scripts: what the parameter
        // must override, or leave as it is.
        await page.addInitScript((key) => {
          if (window.location.protocol.startsWith('http')) window.localStorage.setItem(key, 'light')
        }, KEY)
        for (const url of [`/?theme=${value.raw}#/login`, `/#/login?theme=${value.raw}`]) {
          // A new document for each address: a hash change alone would not load the page again.
          await page.goto('about:blank')
          await page.goto(url)
          await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()

          const expectedStored = value.expect === 'rejected' ? 'light' : value.expect
          const expectedShown =
            value.expect === 'rejected' || value.expect === 'light' ? 'light' : 'dark'
          await expect(html(page), url).toHaveAttribute('data-coreui-theme', expectedShown)
          expect(await stored(page), url).toBe(expectedStored)
          // The parameter has done its work and is gone from the address.
          expect(page.url(), url).not.toContain('theme=')
          // Nothing of the value reached the page: no element of its own, and the one script in
          // the page is the build's boot script (a data block, the providers' list, never runs).
          await expect(page.locator('x')).toHaveCount(0)
          const inline = page.locator('script:not([src]):not([type="application/json"])')
          await expect(inline).toHaveCount(1)
          if (value.text) expect(await inline.textContent(), url).not.toContain(value.text)
          if (value.text)
            expect(await page.locator('body').innerText(), url).not.toContain(value.text)
        }
        expect(dialogs).toEqual([])
      },
    )
  }

  test('theme=dark typed into the hash after the page loaded applies too', async ({ page }) => {
    await page.goto('/#/login')
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'light')
    await page.evaluate(() => (window.location.hash = '#/register?theme=dark'))
    await expect(html(page)).toHaveAttribute('data-coreui-theme', 'dark')
    await expect(page.getByRole('heading', { name: 'Solicitar cadastro' })).toBeVisible()
    expect(page.url()).not.toContain('theme=')
    expect(await stored(page)).toBe('dark')
  })
})
