import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff } from './support/accounts'
import { expectRoute, holdRequests, presetToken } from './support/pages'

/**
 * Issue "The login page painted from the HTML itself": index.html carries the sign-in page as the
 * build rendered it; the boot script shows it only on a sign-in load; the app hydrates it.
 */

/** The app's entry script: holding it is a page whose HTML (its CSS inline) has arrived, and no app. */
const APP_SCRIPT = '**/assets/main-*.js'
const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'

/** The prerendered #root as index.html sends it. */
async function prerenderedRoot(page: Page): Promise<string> {
  const html = await (await page.request.get('/')).text()
  const match =
    /<div id="root" data-prerendered="sign-in">([\s\S]*)<\/div><div class="painel-boot-spinner">/.exec(
      html,
    )
  expect(match, 'index.html holds the prerendered sign-in page').not.toBeNull()
  const root = match?.[1] ?? ''
  // The CSP (style-src 'self', script-src 'self') allows no inline style or script in it.
  expect(root).not.toMatch(/\sstyle=|<script/i)
  return root
}

/** HTML as this browser serialises it once parsed, so that two sources compare as markup. */
function reserialised(page: Page, html: string): Promise<string> {
  return page.evaluate((source) => {
    const template = document.createElement('template')
    template.innerHTML = source
    return template.innerHTML
  }, html)
}

/** The page's #root, once the app has taken over the prerendered markup. */
async function hydratedRoot(page: Page): Promise<string> {
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered')
  return page.locator('#root').innerHTML()
}

const COLOR_MODE_GROUP = 'Tema das cores'

/**
 * The markup without the colour-mode buttons: the build leaves them out of the prerendered page
 * (they would do nothing before the app, and the store starts at light), and the app adds them
 * right after hydrating.
 */
function withoutColorModeButtons(page: Page, html: string): Promise<string> {
  return page.evaluate(
    ([source, label]) => {
      const template = document.createElement('template')
      template.innerHTML = source
      template.content.querySelector(`[role="group"][aria-label="${label}"]`)?.remove()
      return template.innerHTML
    },
    [html, COLOR_MODE_GROUP] as const,
  )
}

/** One animation frame: how much of the page was parsed yet, and what was visible. */
interface Frame {
  /** #root's start tag was parsed. */
  root: boolean
  /**
   * The boot spinner after #root was parsed, so all of #root was. A frame between the two shows
   * the form's first part (the parser may yield inside the form on a busy machine).
   */
  parsed: boolean
  form: boolean
  spinner: boolean
}

/**
 * Records, on every animation frame from the first one, whether the login form's "Entrar" is
 * visible and whether a "Carregando…" spinner is: what each painted frame showed.
 */
async function recordFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const frames: Frame[] = []
    Object.assign(window, { __painelFrames: frames })
    const visible = (element: Element | undefined) =>
      element !== undefined &&
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    const frame = () => {
      const buttons = [...document.querySelectorAll('button')]
      frames.push({
        root: document.getElementById('root') !== null,
        parsed: document.querySelector('.painel-boot-spinner') !== null,
        form: buttons.some((button) => button.textContent === 'Entrar' && visible(button)),
        spinner: [...document.querySelectorAll('[role="status"]')].some(
          (status) => /Carregando/.test(status.textContent ?? '') && visible(status),
        ),
      })
      requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  })
}

const framesOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __painelFrames: Frame[] }).__painelFrames)

test.describe('a signed-in cold load', () => {
  test.use({ signedInAs: 'staff' })

  test('of #/dashboard never shows the login form, in any frame', async ({ page }) => {
    await recordFrames(page)
    // Frames with the page's HTML and its CSS but no app yet: the boot script's choice alone.
    const app = await holdRequests(page, APP_SCRIPT)
    await page.goto('/#/dashboard', { waitUntil: 'commit' })
    await expect.poll(() => app.count()).toBeGreaterThan(0)
    await expect(page.getByRole('status', { name: 'Carregando…' })).toBeVisible()
    await expect.poll(async () => (await framesOf(page)).length).toBeGreaterThan(2)
    app.release()

    // The layout's and the screen's chunks and /api/auth/me after the app: slow on a busy machine.
    await expect(page.getByRole('heading', { level: 1, name: 'Início' })).toBeVisible({
      timeout: 15_000,
    })
    const frames = await framesOf(page)
    expect(frames.filter((frame) => frame.form)).toEqual([])
    expect(frames.some((frame) => frame.spinner)).toBe(true)
  })

  test('of #/login goes on to the dashboard, without showing the form', async ({ page }) => {
    await recordFrames(page)
    await page.goto('/#/login')
    await expectRoute(page, '/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Início' })).toBeVisible()
    expect((await framesOf(page)).filter((frame) => frame.form)).toEqual([])
  })
})

for (const route of ['/register', '/recuperar-senha', '/404', '/500']) {
  test(`a cold load of #${route} never shows the login form`, async ({ page }) => {
    await recordFrames(page)
    const app = await holdRequests(page, APP_SCRIPT)
    await page.goto(`/#${route}`, { waitUntil: 'commit' })
    await expect(page.getByRole('status', { name: 'Carregando…' })).toBeVisible()
    app.release()
    // The page's chunk comes after the held app script: on a busy machine that takes more than 5 s.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 })
    await expectRoute(page, route)
    expect((await framesOf(page)).filter((frame) => frame.form)).toEqual([])
  })
}

test('the form is there before any script of the app, from the first frame with the page', async ({
  page,
}) => {
  await recordFrames(page)
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/login', { waitUntil: 'commit' })
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  await expect(page.getByLabel('E-mail')).toBeEditable()
  await expect(page.getByRole('status', { name: 'Carregando…' })).toBeHidden()
  await expect
    .poll(async () => (await framesOf(page)).filter((frame) => frame.parsed).length)
    .toBeGreaterThan(2)
  // Frames before the body was parsed show nothing at all, and none shows the spinner; every one
  // after the form was parsed shows it.
  const frames = await framesOf(page)
  expect(frames.filter((frame) => frame.root && frame.spinner)).toEqual([])
  expect(frames.filter((frame) => frame.parsed && !frame.form)).toEqual([])
  app.release()
})

test('the app starts after a frame with the form was drawn, even when its scripts are already there', async ({
  page,
}) => {
  // On loopback the scripts arrive with the page; run as soon as they arrive, they would hold
  // the first paint back for as long as React takes to start (Lighthouse counts all of it). The
  // page counts the animation frames that had the form and its CSS before the app's
  // script was added (a browser draws each frame right after its animation-frame callbacks).
  await page.addInitScript(() => {
    const seen = { framesWithForm: 0, appAdded: false }
    ;(window as unknown as { seen: typeof seen }).seen = seen
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof HTMLScriptElement && node.type === 'module') seen.appAdded = true
    }).observe(document, { childList: true, subtree: true })
    const frame = () => {
      if (seen.appAdded) return
      // The form's CSS is inline in the page (scripts/build/critical-css.ts): a frame with the
      // form is a styled one.
      if (document.querySelector('#root form')) seen.framesWithForm += 1
      requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  })
  await page.goto('/#/login')
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered')
  const seen = await page.evaluate(
    () => (window as unknown as { seen: { framesWithForm: number; appAdded: boolean } }).seen,
  )
  expect(seen.appAdded).toBe(true)
  expect(seen.framesWithForm).toBeGreaterThanOrEqual(1)
})

for (const mode of ['light', 'dark'] as const) {
  test(`in ${mode} mode the hydrated page is the prerendered HTML, without a mismatch`, async ({
    page,
  }) => {
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        consoleErrors.push(message.text())
    })
    await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
      COLOR_MODE_KEY,
      mode,
    ] as const)
    const prerendered = await prerenderedRoot(page)

    // A node of the prerendered page, marked before the app runs: hydration keeps it.
    const app = await holdRequests(page, APP_SCRIPT)
    await page.goto('/#/login', { waitUntil: 'commit' })
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
    await page.getByLabel('E-mail').evaluate((input) => Object.assign(input, { __before: true }))
    app.release()

    const hydrated = await hydratedRoot(page)
    expect(prerendered).not.toContain(COLOR_MODE_GROUP)
    expect(await withoutColorModeButtons(page, hydrated)).toBe(
      await reserialised(page, prerendered),
    )
    // The buttons come with the app, the stored mode already the one shown as chosen.
    const buttons = page.getByRole('group', { name: COLOR_MODE_GROUP })
    await expect(
      buttons.getByRole('button', { name: mode === 'dark' ? 'Escuro' : 'Claro' }),
    ).toHaveAttribute('aria-pressed', 'true')
    await expect(buttons.getByRole('button', { pressed: true })).toHaveCount(1)
    expect(
      await page.getByLabel('E-mail').evaluate((input) => '__before' in input),
      'the input is the one the HTML made, not a new one',
    ).toBe(true)
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
    expect(consoleErrors).toEqual([])
  })
}

test('the prerendered HTML is what the app renders by itself', async ({ page }) => {
  const prerendered = await prerenderedRoot(page)
  // #/register renders from scratch; moving to the login page renders it in the browser alone.
  await page.goto('/#/register')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.evaluate(() => (window.location.hash = '#/login'))
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  await expect(page.getByRole('group', { name: COLOR_MODE_GROUP })).toBeVisible()
  const rendered = await withoutColorModeButtons(page, await page.locator('#root').innerHTML())

  // useId's ids differ between a server and a client render; the text separators and Suspense
  // boundaries React's server renderer marks are comments. None of it is anything a person sees.
  const normalise = (html: string) => {
    const ids = new Map<string, string>()
    return html.replace(/<!--(?: |\/?\$[!?]?)-->/g, '').replace(/:[rR][0-9a-zA-Z]*:/g, (id) => {
      if (!ids.has(id)) ids.set(id, `id-${ids.size}`)
      return ids.get(id) ?? id
    })
  }
  expect(normalise(rendered)).toBe(normalise(await reserialised(page, prerendered)))
})

test('what is typed before the app arrives is kept, and "Entrar" pressed then signs in once it is there', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { label: 'early' })
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/login?redirect=%2Fperfil', { waitUntil: 'commit' })
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Senha', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()

  // Held: the browser did not send the form itself (that would put the password in the URL).
  await expect(page.locator('html')).toHaveAttribute('data-painel-submit-held')
  expect(page.url()).not.toContain(encodeURIComponent(person.password))
  await expectRoute(page, '/login?redirect=%2Fperfil')

  app.release()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('main').getByText(person.name, { exact: true })).toBeVisible()
  await expect(page.locator('html')).not.toHaveAttribute('data-painel-submit-held')
})

test('values typed before the app arrives are still in the fields after it has', async ({
  page,
}) => {
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/login', { waitUntil: 'commit' })
  await page.getByLabel('E-mail').fill('cedo@painel.test')
  await page.getByLabel('Senha', { exact: true }).fill('digitado-antes')
  app.release()
  await hydratedRoot(page)
  await expect(page.getByLabel('E-mail')).toHaveValue('cedo@painel.test')
  await expect(page.getByLabel('Senha', { exact: true })).toHaveValue('digitado-antes')

  // The app's own validation now answers a submit: the form is React's.
  await page.getByLabel('E-mail').fill('não é um e-mail')
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
})

test('the theme parameter applies on the prerendered page before the app, and is taken out of the URL', async ({
  page,
}) => {
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/login?theme=dark', { waitUntil: 'commit' })
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'dark')
  await expectRoute(page, '/login')
  app.release()
  await hydratedRoot(page)
  await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', 'dark')
  expect(await page.evaluate((key) => localStorage.getItem(key), COLOR_MODE_KEY)).toBe('dark')
})

test('#/ shows the prerendered form as #/login', async ({ page }) => {
  await presetToken(page, null)
  const app = await holdRequests(page, APP_SCRIPT)
  await page.goto('/#/', { waitUntil: 'commit' })
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  await expectRoute(page, '/login')
  app.release()
  await hydratedRoot(page)
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
})
