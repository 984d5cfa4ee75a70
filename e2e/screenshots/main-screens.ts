import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { root } from '../../scripts/paths'
import { expect as baseExpect, test } from '../fixtures'

/**
 * `npm run screenshots`: the main screens (Entrar, Início, Equipe, Auditoria, Minha conta), light
 * and dark, on a desktop and on a phone, written to docs/screenshots/ (the README shows some). Made on purpose when the screens change, never by
 * `npm test`: playwright.config.ts runs this folder only when PAINEL_SCREENSHOTS=1.
 */

const OUT = join(root, 'docs', 'screenshots')
/** Waits for what a person would wait for, longer than the default on a busy machine. */
const expect = baseExpect.configure({ timeout: 20_000 })
const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const

const TEAM = [
  ['Administrador', 'admin@painel.test', 'admin', 'active', '2026-09-01'],
  ['Ana Souza', 'ana.souza@empresa.com.br', 'staff', 'active', '2026-09-15'],
  ['Bruno Almeida', 'bruno.almeida@empresa.com.br', 'staff', 'active', '2026-10-03'],
  ['Carla Mendes', 'carla.mendes@empresa.com.br', 'staff', 'pending', '2026-11-20'],
  ['Diego Lima', 'diego.lima@empresa.com.br', 'staff', 'disabled', '2026-10-21'],
  ['Elisa Rocha', 'elisa.rocha@empresa.com.br', 'staff', 'invited', '2026-11-24'],
].map(([name, email, role, status, day], index) => ({
  id: `00000000-0000-4000-8000-00000000000${index + 1}`,
  name,
  email,
  role,
  status,
  createdAt: `${day}T12:00:00.000Z`,
  lastSignInAt: status === 'active' ? '2026-11-21T12:00:00.000Z' : null,
  locked: false,
  mfa: false,
  // An invitation lasts 7 days from when it was sent.
  invitationExpiresAt: status === 'invited' ? `2026-12-01T12:00:00.000Z` : null,
}))

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
      await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
      // The form is painted from the HTML before the app runs; the colour-mode buttons come with
      // the app, so the picture waits for them.
      await expect(page.getByRole('group', { name: 'Tema das cores' })).toBeVisible()
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
      // A team to show, the same on every run (the test server's own accounts come and go).
      await page.route(/\/api\/staff(\?.*)?$/, async (route) => {
        // The real admin's id, so that the signed-in admin's row says "(você)".
        const real = (await (await route.fetch()).json()) as {
          items: { id: string; email: string }[]
        }
        const me = real.items.find((account) => account.email === TEAM[0]?.email)
        const items = TEAM.map((row, index) => (index === 0 && me ? { ...row, id: me.id } : row))
        await route.fulfill({ json: { items, total: items.length, page: 1, pageSize: 20 } })
      })
      await page.goto('/#/equipe')
      // A table on a desktop, cards on a phone: either way the team's names.
      await expect(page.getByText('Ana Souza').first()).toBeVisible()
    },
  },
  {
    name: 'auditoria',
    signedIn: true,
    open: async (page) => {
      // The test server's own events: the admin's sign-ins, at least.
      await page.goto('/#/auditoria')
      await expect(
        page.getByRole('list', { name: 'Eventos da auditoria' }).getByRole('listitem').first(),
      ).toBeVisible()
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
  {
    // The authenticator app's setup in Minha conta: the QR code, the link for the phone that shows
    // it, the key in groups of four, the code field. Started, never confirmed: nothing changes.
    name: 'autenticador',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/perfil')
      await page.getByRole('button', { name: 'Ativar aplicativo autenticador' }).click()
      await expect(page.getByLabel('Código de 6 dígitos do aplicativo')).toBeFocused()
      await page.getByLabel('Código de 6 dígitos do aplicativo').scrollIntoViewIfNeeded()
    },
  },
]

test.use({ signedInAs: 'admin' })

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
        await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
          COLOR_MODE_KEY,
          mode,
        ] as const)
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
