import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { contrast, over, parseColor } from './support/contrast'

/** Keyboard focus can be seen and follows the page's order (issue 34 §4). */

/** Presses Tab until `name` is focused (or gives up after 40 presses). */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let press = 0; press < 40; press += 1) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate(() => {
      const element = document.activeElement
      return element?.getAttribute('aria-label') ?? element?.textContent ?? ''
    })
    if (name.test(focused)) return
  }
  throw new Error(`Tab never reached ${name}`)
}

/**
 * The focused element's ring (its outline or its box-shadow, with a width above zero) and the first
 * opaque background behind the element, as the browser computes them.
 */
async function focusRing(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement
    const style = getComputedStyle(element)
    let background = 'rgb(255, 255, 255)'
    for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor
      if (!/rgba\([^)]*,\s*0\)$/.test(colour) && colour !== 'transparent') {
        background = colour
        break
      }
    }
    const outline =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        ? { width: parseFloat(style.outlineWidth), color: style.outlineColor }
        : null
    // "rgba(…) 0px 0px 0px 4px": the spread is the last length.
    const shadow = /^(rgba?\([^)]*\))\s+(?:-?[\d.]+px\s+){3}([\d.]+)px/.exec(style.boxShadow)
    const ring = shadow ? { width: parseFloat(shadow[2] ?? '0'), color: shadow[1] ?? '' } : null
    return {
      matches: element.matches(':focus-visible'),
      outline,
      ring,
      background,
    }
  })
}

/** The colour mode the pages open in, stored before the app reads it. */
const storeColourMode = (page: Page, mode: 'light' | 'dark') =>
  page.addInitScript((theme) => {
    window.localStorage.setItem('coreui-free-react-admin-template-theme', theme)
  }, mode)

/**
 * Seen, not merely drawn: WCAG 2.2's non-text contrast (1.4.11) and focus appearance ask for 3:1
 * between the ring, as it shows over the background, and that background.
 */
const visible = (ring: { width: number; color: string } | null, background: string) => {
  if (ring === null || ring.width <= 0 || ring.color === 'transparent') return false
  const behind = parseColor(background)
  return contrast(over(parseColor(ring.color), behind), behind) >= 3
}

test.describe('signed in', () => {
  test.use({ signedInAs: 'staff' })

  for (const mode of ['light', 'dark'] as const) {
    test(`the header's controls show a focus ring in ${mode} mode`, async ({ page }) => {
      await storeColourMode(page, mode)
      await page.goto('/#/dashboard')
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      for (const name of [
        /^Mostrar ou ocultar o menu lateral$/,
        /^Escolher tema/,
        /^Menu do usuário/,
      ]) {
        await tabTo(page, name)
        const ring = await focusRing(page)
        expect(ring.matches, `${name} has keyboard focus`).toBe(true)
        expect(
          visible(ring.outline, ring.background) || visible(ring.ring, ring.background),
          `${name} shows its focus in ${mode} mode: ${JSON.stringify(ring)}`,
        ).toBe(true)
      }
    })

    test(`the sidebar's links show a focus ring in ${mode} mode`, async ({ page }) => {
      await storeColourMode(page, mode)
      await page.goto('/#/perfil')
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await tabTo(page, /^Início$/)
      const ring = await focusRing(page)
      expect(ring.matches, 'Início has keyboard focus').toBe(true)
      expect(
        visible(ring.outline, ring.background) || visible(ring.ring, ring.background),
        `Início shows its focus in ${mode} mode: ${JSON.stringify(ring)}`,
      ).toBe(true)
    })
  }
})

test.describe('an unchecked box', () => {
  test.use({ signedInAs: 'admin' })

  for (const mode of ['light', 'dark'] as const) {
    test(`can be told from its background in ${mode} mode (3:1)`, async ({ page }) => {
      await storeColourMode(page, mode)
      await page.goto('/#/equipe')
      const box = page.getByRole('checkbox').first()
      await expect(box).toBeVisible()
      await expect(box).not.toBeChecked()
      const { border, background } = await box.evaluate((element) => {
        let behind = 'rgb(255, 255, 255)'
        for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor
          if (!/rgba\([^)]*,\s*0\)$/.test(colour) && colour !== 'transparent') {
            behind = colour
            break
          }
        }
        return { border: getComputedStyle(element).borderTopColor, background: behind }
      })
      const page_ = parseColor(background)
      // WCAG 1.4.11: the box's edge is what shows an unchecked box at all.
      expect(
        contrast(over(parseColor(border), page_), page_),
        `border ${border} on ${background}`,
      ).toBeGreaterThanOrEqual(3)
    })
  }
})

test('login: the first Tab reaches E-mail; the colour-mode buttons come after "Entrar"', async ({
  page,
}) => {
  await page.goto('/#/login')
  const colourButtons = page.getByRole('group', { name: 'Tema' }).getByRole('button')
  await expect(colourButtons).toHaveCount(3)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('E-mail')).toBeFocused()

  const order: string[] = []
  for (let press = 0; press < 15; press += 1) {
    await page.keyboard.press('Tab')
    order.push(
      await page.evaluate(() => {
        const element = document.activeElement
        return (
          element?.getAttribute('aria-label') ??
          element?.getAttribute('title') ??
          element?.textContent?.trim() ??
          ''
        )
      }),
    )
  }
  const signIn = order.indexOf('Entrar')
  expect(signIn, `Tab order: ${order.join(' › ')}`).toBeGreaterThan(-1)
  for (const colour of ['Claro', 'Escuro', 'Automático']) {
    expect(order.indexOf(colour), `${colour} after Entrar: ${order.join(' › ')}`).toBeGreaterThan(
      signIn,
    )
  }
})
