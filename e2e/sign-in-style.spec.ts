import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { expectRoute, holdRequests } from './support/pages'

/**
 * The sign-in page's own CSS is inline in index.html (scripts/build/critical-css.ts): a cold
 * #/login paints from the HTML and the boot script, and never downloads the whole stylesheet;
 * every other page waits for it (client/src/prerender/app-stylesheet.ts), so nobody sees a page
 * half-styled.
 */

const STYLESHEET = '**/assets/main-*.css'
const APP_SCRIPT = '**/assets/main-*.js'

/** Every stylesheet the page asked the network for. */
function stylesheetRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') urls.push(request.url())
  })
  return urls
}

/**
 * Records, on every animation frame, whether the screen's heading was visible and whether the
 * whole stylesheet applied then.
 */
async function recordStyledFrames(page: Page, heading: string): Promise<void> {
  await page.addInitScript((name) => {
    const frames: { heading: boolean; styled: boolean }[] = []
    Object.assign(window, { __painelStyledFrames: frames })
    const frame = () => {
      const h1 = [...document.querySelectorAll('h1')].find((el) => el.textContent === name)
      frames.push({
        heading: h1 !== undefined && h1.checkVisibility(),
        styled: [...document.styleSheets].some((sheet) => /\/assets\/main-/.test(sheet.href ?? '')),
      })
      requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  }, heading)
}

const unstyledFramesWithHeading = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as { __painelStyledFrames: { heading: boolean; styled: boolean }[] }
    ).__painelStyledFrames.filter((frame) => frame.heading && !frame.styled),
  )

test('a cold #/login is styled before the app arrives, and never fetches the whole stylesheet', async ({
  page,
}) => {
  const stylesheets = stylesheetRequests(page)
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/login', { waitUntil: 'commit' })
  const entrar = page.getByRole('button', { name: 'Entrar', exact: true })
  await expect(entrar).toBeVisible()
  // CoreUI's primary button, from the inline CSS alone: the app's script is still held.
  await expect(entrar).toHaveCSS('background-color', 'rgb(88, 86, 214)')
  await expect(page.getByLabel('E-mail')).toHaveCSS('border-top-style', 'solid')

  app.release()
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered')
  // What the app adds to the page needs nothing more: the colour-mode buttons, an error.
  await expect(page.getByRole('group', { name: 'Tema das cores' })).toBeVisible()
  await page.getByLabel('E-mail').fill('ninguem@painel.test')
  await page.getByLabel('Senha', { exact: true }).fill('senha-errada-123')
  await entrar.click()
  const alert = page.getByRole('alert')
  await expect(alert).toBeVisible()
  await expect(alert).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
  expect(stylesheets).toEqual([])
})

test('signing in from a cold #/login shows the dashboard only with the whole stylesheet', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'styled' })
  await recordStyledFrames(page, 'Início')
  const stylesheets = stylesheetRequests(page)
  await page.goto('/#/login')
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered')
  // Slow enough that a dashboard drawn before it arrived would be seen.
  await page.route(STYLESHEET, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Senha', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expectRoute(page, '/dashboard')
  await expect(page.getByRole('heading', { level: 1, name: 'Início' })).toBeVisible()
  expect(stylesheets).toHaveLength(1)
  expect(await unstyledFramesWithHeading(page)).toEqual([])
})

test.describe('a signed-in cold load', () => {
  test.use({ signedInAs: 'staff' })

  test('of #/dashboard shows it only with the whole stylesheet', async ({ page }) => {
    await recordStyledFrames(page, 'Início')
    await page.route(STYLESHEET, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Início' })).toBeVisible({
      timeout: 15_000,
    })
    expect(await unstyledFramesWithHeading(page)).toEqual([])
  })
})
