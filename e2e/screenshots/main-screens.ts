import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { root } from '../../scripts/paths'
import { expect, test } from '../fixtures'
import { createStaff } from '../support/accounts'

/**
 * `npm run screenshots`: the main screens, light and dark, on a desktop and on a phone, written to
 * docs/screenshots/ (the README shows some). Made on purpose when the screens change, never by
 * `npm test`: playwright.config.ts runs this folder only when PAINEL_SCREENSHOTS=1.
 */

const OUT = join(root, 'docs', 'screenshots')
const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const

interface Screen {
  name: string
  signedIn: boolean
  open: (page: Page) => Promise<void>
}

const SCREENS: Screen[] = [
  {
    name: 'login',
    signedIn: false,
    open: async (page) => {
      await page.goto('/#/login')
      await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible()
    },
  },
  {
    name: 'dashboard',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/dashboard')
      await expect(page.getByText('Olá, Administrador!')).toBeVisible()
    },
  },
  {
    name: 'equipe',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/equipe')
      await expect(page.getByRole('table')).toBeVisible()
    },
  },
  {
    name: 'minha-conta',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/perfil')
      await expect(page.getByText('Conta criada em')).toBeVisible()
    },
  },
]

test.use({ signedInAs: 'admin' })

test.beforeAll(async ({ playwright, baseURL }) => {
  // A few colleagues, so that Equipe shows a row in each state.
  const api = await playwright.request.newContext({ baseURL })
  await createStaff(api, { name: 'Bruno Almeida', label: 'bruno' })
  await createStaff(api, { name: 'Carla Mendes', label: 'carla', approve: false })
  await api.dispose()
})

for (const screen of SCREENS) {
  for (const mode of ['light', 'dark'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      test(`${screen.name}, ${mode}, ${size}`, async ({ browser, storageState }) => {
        const context = await browser.newContext({
          viewport,
          locale: 'pt-BR',
          timezoneId: 'America/Sao_Paulo',
          reducedMotion: 'reduce',
          storageState: screen.signedIn ? storageState : undefined,
        })
        await context.addInitScript(
          ([key, value]) => window.localStorage.setItem(key, value),
          [COLOR_MODE_KEY, mode] as const,
        )
        const page = await context.newPage()
        await screen.open(page)
        await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', mode)
        await page.mouse.move(0, viewport.height - 1)
        await page.screenshot({
          path: join(OUT, `${screen.name}-${mode}-${size}.png`),
          animations: 'disabled',
          caret: 'hide',
        })
        await context.close()
      })
    }
  }
}
