import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { TWO_PROVIDERS_ENV } from '../../scripts/bench/browser-routes'
import { root } from '../../scripts/paths'
import { expect as baseExpect, test } from '../fixtures'
import { startOwnServer, type OwnServer } from '../support/own-server'
import { e2e } from '../support/test-env'
import { MANAGER_ROLE, screenshotScene, type Scene } from '../support/screenshot-scene'

/**
 * `npm run screenshots`: the main screens (Entrar, Início, Equipe and its Pedidos de exclusão,
 * Auditoria, Papéis and a role's page, Times, Minha conta and its cards, the e-mail confirmation
 * page, Entrar with two sign-in providers), light and dark, on a desktop and on a phone, written
 * to docs/screenshots/ (docs/screens.md and the README show some). Made on purpose when the
 * screens change, never by `npm test`: playwright.config.ts runs this folder only when
 * PAINEL_SCREENSHOTS=1.
 */

const OUT = join(root, 'docs', 'screenshots')
/** Waits for what a person would wait for, longer than the default on a busy machine. */
const expect = baseExpect.configure({ timeout: 20_000 })
const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const

/** Equipe's rows: the scene's people (e2e/support/screenshot-scene.ts) and a few more, dated. */
const TEAM = [
  ['Administrador', 'admin@painel.test', 'admin', 'active', '2026-09-01'],
  // 45 characters, as public bodies' addresses can be: whole at 1280 px beside Papel and Time.
  [
    'Maria Eduarda Vasconcellos',
    'maria.eduarda.vasconcellos@educacao.sp.gov.br',
    'staff',
    'active',
    '2026-10-09',
  ],
  ['Ana Souza', 'ana.souza@empresa.com.br', 'staff', 'active', '2026-09-15'],
  ['Bruno Almeida', 'bruno.almeida@empresa.com.br', 'staff', 'active', '2026-10-03'],
  ['Carla Mendes', 'carla.mendes@empresa.com.br', 'staff', 'pending', '2026-11-20'],
  ['Diego Lima', 'diego.lima@empresa.com.br', 'staff', 'disabled', '2026-10-21'],
  ['Elisa Rocha', 'elisa.rocha@empresa.com.br', 'staff', 'invited', '2026-11-24'],
] as const
/** Each row's role and team, by name (Equipe by default, no team when not listed). */
const PLACES: Record<string, readonly [role: string, team: string | null]> = {
  Administrador: ['Administrador', null],
  'Maria Eduarda Vasconcellos': ['Auditoria interna', 'Operações'],
  'Ana Souza': [MANAGER_ROLE, 'Atendimento'],
  'Bruno Almeida': ['Equipe', 'Atendimento'],
  'Carla Mendes': ['Equipe', 'Financeiro'],
  'Diego Lima': [MANAGER_ROLE, 'Financeiro'],
}

/** A row's id (the signed-in admin's row gets the real one). */
const rowId = (index: number) => `00000000-0000-4000-8000-00000000000${index + 1}`

function teamRows(scene: Scene) {
  return TEAM.map(([name, email, role, status, day], index) => {
    const [roleName, teamName] = PLACES[name] ?? ['Equipe', null]
    return {
      id: rowId(index),
      name,
      email,
      role,
      roleId: scene.roleIds[roleName] ?? '',
      roleName,
      teamId: teamName ? (scene.teamIds[teamName] ?? null) : null,
      teamName,
      status,
      createdAt: `${day}T12:00:00.000Z`,
      lastSignInAt: status === 'active' ? '2026-11-21T12:00:00.000Z' : null,
      locked: false,
      mfa: false,
      // An invitation lasts 7 days from when it was sent.
      invitationExpiresAt: status === 'invited' ? `2026-12-01T12:00:00.000Z` : null,
    }
  })
}

/** Two open requests for deletion, dated: Equipe's link counts them, their screen lists them. */
const DELETION_REQUESTS = {
  requests: [
    ['Diego Lima', 'diego.lima@empresa.com.br', '2026-11-22T14:30:00.000Z'],
    ['Bruno Almeida', 'bruno.almeida@empresa.com.br', '2026-11-25T09:10:00.000Z'],
  ].map(([name, email, requestedAt], index) => ({
    id: `00000000-0000-4000-9000-00000000000${index + 1}`,
    account: { id: rowId(TEAM.findIndex((row) => row[1] === email)), name, email },
    requestedAt,
  })),
}
const showDeletionRequests = (page: Page) =>
  page.route(/\/api\/staff\/deletion-requests$/, (route) =>
    route.fulfill({ json: DELETION_REQUESTS }),
  )

/**
 * Scrolls the page until `heading`'s card starts just below the sticky header (or the page's end
 * is reached), again while the cards above it are still loading their data and changing height.
 */
async function scrollToCard(page: Page, heading: string) {
  const target = page.getByRole('heading', { name: heading, exact: true })
  await expect(target).toBeVisible()
  // Every card has its data (the network is never quiet: the session's stream stays open).
  await expect(page.getByRole('status', { name: 'Carregando…' })).toHaveCount(0)
  await expect
    .poll(() =>
      target.evaluate((element) => {
        const card = element.closest('.card') ?? element
        const header = document.querySelector('.header-sticky')?.getBoundingClientRect().bottom ?? 0
        const off = Math.round(card.getBoundingClientRect().top - header - 16)
        const atEnd = window.scrollY + window.innerHeight >= document.body.scrollHeight - 1
        if (off === 0 || (off > 0 && atEnd)) return true
        window.scrollBy(0, off)
        return false
      }),
    )
    .toBe(true)
}

interface Screen {
  name: string
  signedIn: boolean
  /** Settings of a server of the screen's own (e2e/support/own-server.ts), beside the shared one. */
  ownServer?: NodeJS.ProcessEnv
  open: (page: Page, scene: Scene) => Promise<void>
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
    open: async (page, scene) => {
      // A team to show, the same on every run (the test server's own accounts come and go).
      await page.route(/\/api\/staff(\?.*)?$/, async (route) => {
        // The real admin's id, so that the signed-in admin's row says "(você)".
        const real = (await (await route.fetch()).json()) as {
          items: { id: string; email: string }[]
        }
        const me = real.items.find((account) => account.email === TEAM[0][1])
        // The sidebar's count asks for the pending ones alone (?status=pending).
        const status = new URL(route.request().url()).searchParams.get('status')
        const items = teamRows(scene)
          .map((row, index) => (index === 0 && me ? { ...row, id: me.id } : row))
          .filter((row) => !status || row.status === status)
        await route.fulfill({ json: { items, total: items.length, page: 1, pageSize: 20 } })
      })
      await showDeletionRequests(page)
      await page.goto('/#/equipe')
      await expect(page.getByRole('link', { name: 'Pedidos de exclusão (2)' })).toBeVisible()
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
  {
    // Minha conta's cards below the password's: Papel e time, then Trocar e-mail.
    name: 'minha-conta-papel-e-email',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/perfil')
      await scrollToCard(page, 'Papel e time')
    },
  },
  {
    // The last cards: Avisos de segurança, Meus dados, Excluir minha conta.
    name: 'minha-conta-dados',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/perfil')
      await scrollToCard(page, 'Avisos de segurança')
    },
  },
  {
    name: 'pedidos-de-exclusao',
    signedIn: true,
    open: async (page) => {
      await showDeletionRequests(page)
      await page.goto('/#/equipe/pedidos-de-exclusao')
      await expect(page.getByText('diego.lima@empresa.com.br')).toBeVisible()
    },
  },
  {
    name: 'papeis',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/papeis')
      await expect(page.getByText(MANAGER_ROLE).first()).toBeVisible()
    },
  },
  {
    // A custom role's page: its description, scope and permission matrix, and who holds it.
    name: 'papel',
    signedIn: true,
    open: async (page, scene) => {
      await page.goto(`/#/papeis/${scene.roleIds[MANAGER_ROLE]}`)
      await expect(page.getByRole('heading', { name: MANAGER_ROLE, level: 1 })).toBeVisible()
      await expect(page.getByText('Ana Souza').first()).toBeVisible()
    },
  },
  {
    name: 'times',
    signedIn: true,
    open: async (page) => {
      await page.goto('/#/times')
      await expect(page.getByText('Atendimento').first()).toBeVisible()
    },
  },
  {
    // Entrar with two sign-in providers, each with its mark (Google's G, Microsoft's squares): the
    // bench's settings, pointed at a port nothing listens on (the page is the same).
    name: 'login-provedores',
    signedIn: false,
    ownServer: TWO_PROVIDERS_ENV,
    open: async (page) => {
      await page.goto('/#/login')
      await expect(page.getByRole('link', { name: 'Entrar com Google' })).toBeVisible()
      await expect(page.getByRole('group', { name: 'Tema das cores' })).toBeVisible()
    },
  },
  {
    // The page a change of e-mail's mailed link opens (nothing is sent until its button).
    name: 'confirmar-email',
    signedIn: false,
    open: async (page) => {
      await page.goto('/#/confirmar-email?token=um-link-de-exemplo')
      await expect(page.getByRole('button', { name: 'Confirmar novo e-mail' })).toBeVisible()
    },
  },
]

/** A browser signed in with `token` (as the fixtures' signedInAs does, with a session of its own). */
const signedIn = (origin: string, token: string) => ({
  cookies: [],
  origins: [{ origin, localStorage: [{ name: 'token_adm', value: JSON.stringify({ token }) }] }],
})

const ownServers = new Map<Screen, Promise<OwnServer>>()
function ownServerOf(screen: Screen, settings: NodeJS.ProcessEnv): Promise<OwnServer> {
  const started =
    ownServers.get(screen) ??
    startOwnServer({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'painel-screenshots-')),
      ADMIN_EMAIL: e2e.admin.email,
      ADMIN_PASSWORD: e2e.admin.password,
      ...(settings as Record<string, string>),
    })
  ownServers.set(screen, started)
  return started
}
test.afterAll(async () => {
  for (const server of ownServers.values()) await (await server).stop()
})

for (const screen of SCREENS) {
  for (const mode of ['light', 'dark'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      test(`${screen.name}, ${mode}, ${size}`, async ({ browser, api, baseURL }) => {
        const scene = await screenshotScene(api)
        const context = await browser.newContext({
          viewport,
          locale: 'pt-BR',
          timezoneId: 'America/Sao_Paulo',
          reducedMotion: 'reduce',
          // The scene's admin session, not a new one per picture (Início counts the sessions).
          storageState:
            screen.signedIn && baseURL ? signedIn(baseURL, scene.adminToken) : undefined,
          ...(screen.ownServer
            ? { baseURL: (await ownServerOf(screen, screen.ownServer)).baseURL }
            : {}),
        })
        await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
          COLOR_MODE_KEY,
          mode,
        ] as const)
        const page = await context.newPage()
        await screen.open(page, scene)
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
