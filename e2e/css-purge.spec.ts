import { readFile } from 'node:fs/promises'
import type { Browser, Page } from '@playwright/test'
import { unpurgedStylesheetPath } from '../scripts/paths'
import { expect as baseExpect, test } from './fixtures'
import { apiSignIn } from './support/accounts'
import { finiteAnimationsFinished, nextPaint } from './support/animations'
import { COLOR_MODE_KEY, switchColorMode } from './support/color-scheme'
import { e2e } from './support/test-env'

/**
 * The build ships only the CoreUI CSS the panel uses (scripts/build/purge-css.ts). This suite is
 * what allows it: every page and screen, in every state worth seeing, light and dark, renders
 * pixel for pixel the same with the purged stylesheet and with the full one.
 */

/**
 * Each test arranges its state, switches its colour mode and swaps in a 136 KB stylesheet answered
 * through Playwright's routing: on a busy two-core machine a screen and its data took longer than
 * the default 5 s to appear. A longer wait for what a user would wait for, not a looser comparison.
 */
const expect = baseExpect.configure({ timeout: 15_000 })
test.describe.configure({ timeout: 120_000 })

/** Fixed data for Equipe and the dashboard: other suites add accounts while this one runs. */
const account = (n: number, name: string, status: string, extra: object = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@painel.test`,
  role: 'staff',
  status,
  createdAt: `2026-11-2${n}T12:00:00.000Z`,
  lastSignInAt: null,
  locked: false,
  mfa: false,
  ...extra,
})
const STAFF = {
  items: [
    account(1, 'Ana Pendente', 'pending'),
    account(2, 'Bruno Ativo', 'active', { lastSignInAt: '2026-11-21T09:30:00.000Z' }),
    account(3, 'Carla Desativada', 'disabled'),
    account(4, 'Davi Bloqueado', 'active', { locked: true, role: 'admin' }),
  ],
  total: 4,
  page: 1,
  pageSize: 20,
}
const EVENT = {
  id: 'e1',
  at: '2026-11-21T10:00:00.000Z',
  type: 'approved',
  actor: { id: STAFF.items[3]!.id, name: 'Davi Bloqueado', email: 'davi@painel.test' },
  account: { id: STAFF.items[1]!.id, name: 'Bruno Ativo', email: 'bruno@painel.test' },
  ip: '127.0.0.1',
  userAgent: 'Navegador/1.0',
  browser: 'Navegador desconhecido',
  details: { from: 'pending', to: 'active' },
}
const DASHBOARD = {
  accounts: { active: 2, pending: 1, disabled: 1 },
  pending: [
    {
      id: STAFF.items[0]!.id,
      name: 'Ana Pendente',
      email: 'ana@painel.test',
      createdAt: '2026-11-21T12:00:00.000Z',
    },
  ],
  signIns: Array.from({ length: 14 }, (_, index) => ({
    day: `2026-11-${String(8 + index).padStart(2, '0')}`,
    succeeded: index % 5,
    failed: index % 3,
  })),
  recent: [EVENT],
  lastSignInAt: null,
}
/**
 * Minha conta's own lists, fixed: the real ones change while the test runs (other suites sign
 * the shared admin in, and a session's "last seen" moves), which made the two renders differ.
 */
const MY_SESSIONS = {
  sessions: [
    { current: true, userAgent: 'Chrome no Linux' },
    { current: false, userAgent: 'Safari no iPhone' },
  ].map((session, index) => ({
    id: `00000000-0000-4000-8000-00000000000${index + 1}`,
    createdAt: EVENT.at,
    lastSeenAt: EVENT.at,
    expiresAt: '2026-11-22T10:00:00.000Z',
    ip: '127.0.0.1',
    ...session,
  })),
}
const MY_PASSKEYS = {
  passkeys: [
    {
      id: '00000000-0000-4000-8000-00000000000a',
      name: 'Chave do notebook',
      createdAt: EVENT.at,
      lastUsedAt: null,
    },
  ],
}
const MY_FACTORS = { totp: true, recoveryCodesLeft: 8, passkeys: 1 }
const MINE = {
  lastSignIn: { at: '2026-11-20T08:00:00.000Z', ip: '127.0.0.1', userAgent: 'Navegador/1.0' },
  failedSince: 2,
  mfa: true,
  signIns: [
    { at: '2026-11-21T09:00:00.000Z', ip: '127.0.0.1', userAgent: 'Chrome no Linux' },
    { at: '2026-11-20T08:00:00.000Z', ip: '127.0.0.1', userAgent: 'Navegador/1.0' },
  ],
  openSessions: 2,
  // Few codes left: the warning's style is among what is compared.
  secondFactors: { totp: true, passkeys: 1, recoveryCodesLeft: 2 },
}

/** Every API call of the admins' screens and of Minha conta answered with the fixed data. */
async function fixedAdminData(page: Page) {
  await page.route(/\/api\/staff(\?.*)?$/, (route) => route.fulfill({ json: STAFF }))
  await page.route(/\/api\/staff\/[0-9a-f-]{36}$/, (route) =>
    route.fulfill({
      json: { user: STAFF.items[1], sessions: [{ createdAt: EVENT.at, expiresAt: EVENT.at }] },
    }),
  )
  await page.route(/\/api\/audit(\?.*)?$/, (route) =>
    route.fulfill({ json: { events: [EVENT], next: 'x' } }),
  )
  await page.route(/\/api\/dashboard$/, (route) => route.fulfill({ json: DASHBOARD }))
  await page.route(/\/api\/dashboard\/me$/, (route) => route.fulfill({ json: MINE }))
  await page.route(/\/api\/me\/sessions$/, (route) => route.fulfill({ json: MY_SESSIONS }))
  await page.route(/\/api\/me\/passkeys$/, (route) => route.fulfill({ json: MY_PASSKEYS }))
  await page.route(/\/api\/me\/mfa$/, (route) => route.fulfill({ json: MY_FACTORS }))
}

interface State {
  name: string
  signedIn?: boolean
  viewport?: { width: number; height: number }
  /**
   * 'styles': compare every element's computed style instead of pixels. For the phone's open
   * sidebar, whose text Chromium anti-aliases differently from one render to the next even with
   * the same stylesheet (a composited overlay), so pixels cannot tell a purge loss from noise.
   */
  compare?: 'pixels' | 'styles'
  arrange: (page: Page) => Promise<void>
}

const submitEmpty = async (page: Page) => {
  await page.locator('form button[type="submit"]').click()
  await expect(page.getByRole('alert').first()).toBeVisible()
}

const STATES: State[] = [
  {
    name: 'login, with its validation messages',
    arrange: async (page) => {
      await page.goto('/#/login')
      await submitEmpty(page)
    },
  },
  // The sign-in page paints from its own CSS, inline in the page (scripts/build/critical-css.ts):
  // what it shows after the app arrives must be in it too.
  {
    name: 'login, a password refused',
    arrange: async (page) => {
      await page.goto('/#/login')
      await page.getByLabel('E-mail').fill('ninguem@painel.test')
      await page.getByLabel('Senha', { exact: true }).fill('senha-errada-123')
      await page.locator('form button[type="submit"]').click()
      await expect(page.getByRole('alert').first()).toBeVisible()
    },
  },
  {
    name: 'login, the second step with every method',
    arrange: async (page) => {
      await page.route('**/api/auth/login', (route) =>
        route.fulfill({
          json: { mfa: { challenge: 'desafio', methods: ['totp', 'recovery_code', 'passkey'] } },
        }),
      )
      await page.goto('/#/login')
      await page.getByLabel('E-mail').fill('ana@painel.test')
      await page.getByLabel('Senha', { exact: true }).fill('senha-certa-123')
      await page.locator('form button[type="submit"]').click()
      await expect(page.getByLabel('Código de verificação')).toBeVisible()
    },
  },
  {
    name: 'register, with its validation messages',
    arrange: async (page) => {
      await page.goto('/#/register')
      await submitEmpty(page)
    },
  },
  {
    name: 'password recovery',
    arrange: async (page) => page.goto('/#/recuperar-senha').then(() => undefined),
  },
  {
    name: 'new password',
    arrange: async (page) => {
      // The page checks the link first; this one is taken as usable, to show the form.
      await page.route('**/api/auth/password-reset/check', (route) =>
        route.fulfill({ json: { email: 'ana@empresa.com.br' } }),
      )
      await page.goto(`/#/recuperar-senha?token=${'A'.repeat(43)}`)
      await submitEmpty(page)
    },
  },
  {
    name: 'a used reset link',
    arrange: async (page) => {
      await page.goto(`/#/recuperar-senha?token=${'A'.repeat(43)}`)
      await expect(page.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
    },
  },
  { name: '404', arrange: async (page) => page.goto('/#/404').then(() => undefined) },
  { name: '500', arrange: async (page) => page.goto('/#/500').then(() => undefined) },
  {
    name: 'the error screen',
    signedIn: true,
    arrange: async (page) => {
      await page.route('**/assets/default-layout-*.js', (route) => route.abort('failed'))
      await page.addInitScript(() =>
        sessionStorage.setItem('painel:chunk-reload-at', String(Date.now())),
      )
      await page.goto('/#/dashboard')
      await expect(
        page.getByRole('heading', { name: 'Erro inesperado na aplicação' }),
      ).toBeVisible()
    },
  },
  {
    name: 'dashboard',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/dashboard')
      await expect(page.getByText('Acessos nos últimos 14 dias')).toBeVisible()
      await expect(page.getByText('Olá, Administrador!')).toBeVisible()
    },
  },
  {
    name: 'Minha conta',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/perfil')
      await expect(page.getByRole('main').getByText(e2e.admin.email)).toBeVisible()
      // The fixed lists, not the live ones (which change while the test runs).
      await expect(page.getByText('Safari no iPhone')).toBeVisible()
      await expect(page.getByText('Chave do notebook')).toBeVisible()
    },
  },
  {
    name: 'Equipe',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/equipe')
      await expect(page.getByRole('table')).toBeVisible()
    },
  },
  {
    name: 'Equipe on a phone, a confirmation open',
    signedIn: true,
    viewport: { width: 390, height: 844 },
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/equipe')
      await page.getByRole('button', { name: 'Desativar Bruno Ativo' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'an account in Equipe',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto(`/#/equipe/${STAFF.items[1]!.id}`)
      await expect(page.getByRole('heading', { name: 'Histórico' })).toBeVisible()
    },
  },
  {
    name: 'Auditoria',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/auditoria')
      await expect(page.getByRole('button', { name: 'Carregar mais' })).toBeVisible()
    },
  },
  {
    name: 'an unknown inner path',
    signedIn: true,
    arrange: async (page) => page.goto('/#/nada').then(() => undefined),
  },
  {
    name: 'the user menu, open',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/dashboard')
      await page.getByRole('button', { name: 'Menu do usuário' }).click()
      await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible()
    },
  },
  {
    name: 'the colour-mode menu, open',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/dashboard')
      await page.getByRole('button', { name: /^Escolher tema/ }).click()
      await expect(page.getByRole('button', { name: 'Automático' })).toBeVisible()
    },
  },
  {
    name: 'the sidebar hidden on a wide screen',
    signedIn: true,
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/dashboard')
      await page.getByRole('button', { name: 'Mostrar ou ocultar o menu lateral' }).click()
      await expect(
        page.getByRole('navigation', { name: 'Navegação principal' }),
      ).not.toBeInViewport()
    },
  },
  {
    name: 'a phone, with the sidebar open',
    signedIn: true,
    viewport: { width: 390, height: 760 },
    compare: 'styles',
    arrange: async (page) => {
      await fixedAdminData(page)
      await page.goto('/#/perfil')
      const toggler = page.getByRole('button', { name: 'Mostrar ou ocultar o menu lateral' })
      // CoreUI's sidebar finds out it is on a phone after its first render, and then closes.
      await expect(toggler).toHaveAttribute('aria-expanded', 'false')
      await toggler.click()
      await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toBeInViewport()
      // The backdrop gets its `show` class a moment after it appears (react-transition-group).
      await expect(page.locator('.sidebar-backdrop')).toHaveClass(/\bshow\b/)
    },
  },
]

/**
 * What makes two renders of one state differ by time alone, switched off in both before the
 * pixels are compared: CSS transitions and animations (a focus ring still fading in), and the
 * text caret, which blinks. Playwright's own `animations: 'disabled'` and `caret: 'hide'` act only
 * while a screenshot is being taken; on a busy machine a screenshot could catch a frame painted
 * before they applied, with the caret on and a field's focus ring a step short of its end: the
 * "few pixels near a field border and the header toggles" that made the suite flaky. With none
 * of them in the page, every frame of a state is the same. A stylesheet on the page's own origin
 * (a route answers it), so the page's CSP (style-src 'self') allows it as it is. Transitions and
 * animations are not what the purge comparison judges: a still picture cannot show them.
 */
const STILL_URL = '/__css-purge/still.css'
const STILL_CSS =
  '*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }'

async function holdStill(page: Page): Promise<void> {
  await page.addStyleTag({ url: STILL_URL })
  await page.waitForFunction(() => document.getAnimations().length === 0)
  await paintWithImagesDecoded(page)
}

/**
 * The cause of the pixels that differed on a busy machine, found by rendering one state eight
 * times with one and the same stylesheet (so nothing the purge does): "new password" came out in
 * two variants, 4 and 4, five pixels apart in the invalid field's icon (a data: SVG background);
 * "Minha conta" in three, apart in the edges of the brand mark and of the avatar (round shapes,
 * anti-aliased). What the first paint of such an element looks like depends on what was ready
 * when it happened (the image decoded or not, the layer's first raster), a race a loaded CPU
 * decides; later paints do not redo it. Decoding every background image, then painting the page
 * afresh, gave one variant in 8 renders of 8 for each (light and dark): every render the same.
 */
async function paintWithImagesDecoded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const urls = new Set<string>()
    for (const element of document.querySelectorAll('*')) {
      for (const match of getComputedStyle(element).backgroundImage.matchAll(/url\("([^"]+)"\)/g)) {
        if (match[1]) urls.add(match[1])
      }
    }
    await Promise.all(
      [...urls].map(async (url) => {
        const image = new Image()
        image.src = url
        await image.decode()
      }),
    )
    // Taken out of the rendering and put back: the next paint is a whole new one.
    const root = document.documentElement
    root.style.display = 'none'
    void root.offsetHeight
    root.style.display = ''
  })
}

/** Where the page finds the full stylesheet when the test swaps it in (a route answers it). */
const FULL_URL = '/assets/main-full.css'

/** A new page of `state` in `mode`, arranged, with the build's own (purged) stylesheets. */
async function openState(
  browser: Browser,
  state: State,
  mode: 'light' | 'dark',
  token: string,
  fullStylesheet: string,
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: e2e.baseURL,
    viewport: state.viewport ?? { width: 1280, height: 800 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin: e2e.baseURL,
          localStorage: [
            { name: COLOR_MODE_KEY, value: mode },
            ...(state.signedIn ? [{ name: 'token_adm', value: JSON.stringify({ token }) }] : []),
          ],
        },
      ],
    },
  })
  const page = await context.newPage()
  await page.route(`**${STILL_URL}`, (route) =>
    route.fulfill({ contentType: 'text/css; charset=utf-8', body: STILL_CSS }),
  )
  await page.route(`**${FULL_URL}`, (route) =>
    route.fulfill({ contentType: 'text/css; charset=utf-8', body: fullStylesheet }),
  )
  await state.arrange(page)
  const viewport = page.viewportSize()
  if (viewport) await page.mouse.move(viewport.width - 1, viewport.height - 1)
  await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
  await expect(page.getByRole('status', { name: 'Carregando…' })).toHaveCount(0)
  await page.evaluate(() => document.fonts.ready)
  if (state.compare !== 'styles') await holdStill(page)
  return page
}

/** What the page shows now: its pixels, or every element's computed style. */
async function capture(page: Page, state: State): Promise<Buffer> {
  return state.compare === 'styles' ? computedStyles(page) : stableScreenshot(page)
}

/**
 * The same page with the full stylesheet alone, or back with the build's own: the page's inline
 * one (the sign-in page's critical CSS, scripts/build/critical-css.ts) and the purged main-*.css
 * give way to the unpurged build, and take its place again. The one coming is in place, loaded,
 * before the other goes, so the styles change once, from one complete set to the other (a gap
 * between would start transitions from unstyled values).
 * The same state, arranged once for both stylesheets: what differs between the captures is the
 * stylesheet and nothing else (arranging it twice took twice the time, and a state's own data,
 * its clock or a race of its first paint could differ between two arrangements).
 */
async function useStylesheet(page: Page, state: State, which: 'full' | 'purged'): Promise<void> {
  const swapped = await page.evaluate(
    async ({ href, which }) => {
      let full = document.querySelector<HTMLLinkElement>(`link[href="${href}"]`)
      if (!full) {
        full = document.createElement('link')
        full.rel = 'stylesheet'
        full.href = href
        await new Promise((resolve, reject) => {
          full!.onload = resolve
          full!.onerror = () => reject(new Error(`${href} did not load`))
          document.head.append(full!)
        })
      }
      const purged = [
        ...document.querySelectorAll('style'),
        ...document.querySelectorAll('link[rel="stylesheet"][href*="/assets/main-"]'),
      ].filter((sheet): sheet is HTMLStyleElement | HTMLLinkElement => sheet !== full)
      // Disabled, not removed: a second look swaps them back (see the test).
      if (which === 'full') {
        full.disabled = false
        purged.forEach((sheet) => (sheet.disabled = true))
      } else {
        purged.forEach((sheet) => (sheet.disabled = false))
        full.disabled = true
      }
      return purged.length
    },
    { href: FULL_URL, which },
  )
  expect(swapped, 'the purged stylesheets are on the page').toBeGreaterThan(0)
  if (state.compare !== 'styles') {
    await page.waitForFunction(() => document.getAnimations().length === 0)
    await paintWithImagesDecoded(page)
  }
}

/**
 * Every element's computed style, in document order, as one comparable buffer. Custom properties
 * are left out: the purge removes those no rule reads (purge-css.ts), so they are missing from the
 * purged stylesheet by design, and only what they feed into is rendering.
 */
async function computedStyles(page: Page): Promise<Buffer> {
  // Mid-transition values (the backdrop fading in) depend on timing, not on the stylesheet.
  await finiteAnimationsFinished(page)
  // What renders: <head> is left out, where the full render has a <link> for the inline <style>.
  const styles = await page.evaluate(() =>
    [document.documentElement, document.body, ...document.body.querySelectorAll('*')].map(
      (element) => {
        const style = getComputedStyle(element)
        return `${element.tagName}.${element.className.toString()}{${Array.from(style)
          .filter((name) => !name.startsWith('--'))
          .map((name) => `${name}:${style.getPropertyValue(name)}`)
          .sort()
          .join(';')}}`
      },
    ),
  )
  return Buffer.from(styles.join('\n'))
}

/**
 * The elements whose computed style differs between the purged and the full stylesheet, for the
 * report: the CI log then says what a pixel difference was made of, without the images.
 */
async function stylesThatDiffer(page: Page, state: State): Promise<string> {
  const purged = (await computedStyles(page)).toString().split('\n')
  await useStylesheet(page, state, 'full')
  const full = (await computedStyles(page)).toString().split('\n')
  const properties = (line: string) => new Set(line.slice(line.indexOf('{') + 1, -1).split(';'))
  const differing = purged.flatMap((line, index) => {
    const other = full[index] ?? ''
    if (line === other) return []
    const inFull = properties(other)
    const changed = [...properties(line)].filter((property) => !inFull.has(property))
    return [`\n  ${line.slice(0, line.indexOf('{'))}: purged ${changed.join(';').slice(0, 200)}`]
  })
  return differing.length === 0
    ? ' (every element computes the same style: the pixels changed between the captures)'
    : `; ${differing.length} elements differ:${differing.slice(0, 5).join('')}`
}

/**
 * A screenshot of a page that has stopped moving: taken again until two in a row are the same,
 * as Playwright's toHaveScreenshot does (the phone's sidebar settles a few frames after its
 * slide-in, and two renders caught at different frames would differ for no reason of CSS).
 */
async function stableScreenshot(page: Page): Promise<Buffer> {
  await nextPaint(page)
  let previous = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' })
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await page.waitForTimeout(100)
    await nextPaint(page)
    const next = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' })
    if (next.equals(previous)) return next
    previous = next
  }
  throw new Error('the page never stopped changing')
}

// One test per state, both colour modes in it: each state gets its own time limit, and a report
// names the state and the mode that differ. The state is arranged once, in light mode, and seen
// in dark mode after a switch: arranging it again in a new page for dark mode was half the
// suite's time.
test.describe('the purged stylesheet looks like the full one', () => {
  for (const state of STATES) {
    test(state.name, async ({ browser, api }, testInfo) => {
      const fullStylesheet = await readFile(unpurgedStylesheetPath, 'utf8')
      const token = state.signedIn ? await apiSignIn(api, e2e.admin.email, e2e.admin.password) : ''
      const page = await openState(browser, state, 'light', token, fullStylesheet)
      try {
        for (const mode of ['light', 'dark'] as const) {
          await test.step(`${mode} mode`, async () => {
            if (mode === 'dark') {
              // Then the page's own stylesheets again, settled and painted afresh.
              await switchColorMode(page, mode)
              await useStylesheet(page, state, 'purged')
            }
            let purged = await capture(page, state)
            await useStylesheet(page, state, 'full')
            const full = await capture(page, state)
            // A second look when they differ: a purge loss shows again with the purged
            // stylesheet back, a page that changed between the two captures (on a busy
            // machine) does not.
            if (!purged.equals(full)) {
              await useStylesheet(page, state, 'purged')
              purged = await capture(page, state)
            }
            let styles = ''
            if (!purged.equals(full)) {
              const contentType = state.compare === 'styles' ? 'text/plain' : 'image/png'
              await testInfo.attach(`${mode}, purged`, { body: purged, contentType })
              await testInfo.attach(`${mode}, full`, { body: full, contentType })
              if (state.compare !== 'styles') styles = await stylesThatDiffer(page, state)
            }
            // Soft: a difference in light mode does not hide one in dark mode.
            expect
              .soft(purged.equals(full), `${mode} mode renders differently purged${styles}`)
              .toBe(true)
          })
        }
      } finally {
        await page.context().close()
      }
    })
  }
})
