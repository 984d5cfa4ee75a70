import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { expectRoute, holdRequests } from './support/pages'
import { e2e } from './support/test-env'

/** While a page or screen loads, and when one cannot be loaded. */

const spinner = (page: Page) => page.getByRole('status', { name: 'Carregando…' })

test('a centred growing spinner shows while the first page loads', async ({ page }) => {
  // Not the login page: that one is in index.html itself (prerendered-sign-in.spec.ts).
  const { release } = await holdRequests(page, '**/assets/register-page-*.js')
  await page.goto('/#/register')
  await expect(spinner(page)).toBeVisible()
  await expect(spinner(page)).toHaveClass(/spinner-grow/)
  const box = await spinner(page).boundingBox()
  const viewport = page.viewportSize()!
  expect(Math.abs(box!.x + box!.width / 2 - viewport.width / 2)).toBeLessThan(5)
  expect(Math.abs(box!.y + box!.height / 2 - viewport.height / 2)).toBeLessThan(5)
  release()
  await expect(page.getByRole('button', { name: 'Solicitar cadastro' })).toBeVisible()
  await expect(spinner(page)).toHaveCount(0)
})

test.describe('signed in', () => {
  test.use({ signedInAs: 'staff' })

  test('the spinner shows while a screen’s chunk loads during navigation', async ({ page }) => {
    const { release } = await holdRequests(page, '**/assets/profile-screen-*.js')
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    await page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: 'Minha conta' })
      .click()
    await expect(spinner(page)).toBeVisible()
    release()
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
    await expect(spinner(page)).toHaveCount(0)
  })

  test('a failed chunk reloads the page once, then shows the error screen, never a blank page', async ({
    page,
  }) => {
    let documentLoads = 0
    page.on('load', () => (documentLoads += 1))
    await page.route('**/assets/profile-screen-*.js', (route) => route.abort('failed'))
    await page.addInitScript(() => {
      window.addEventListener('preloadError', (event) => {
        const seen = JSON.parse(sessionStorage.getItem('test:preloadErrors') ?? '[]') as unknown[]
        const carried = (event as Event & { error?: unknown }).error
        seen.push({ cancelable: event.cancelable, carriesError: carried instanceof Error })
        sessionStorage.setItem('test:preloadErrors', JSON.stringify(seen))
      })
    })

    await page.goto('/#/perfil')
    await expect(page.getByRole('heading', { name: 'Erro inesperado na aplicação' })).toBeVisible()
    await expect(page.getByText('Não foi possível carregar esta parte do painel')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Recarregar página' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Ir para o início' })).toBeVisible()
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0)
    // The menu is still there: the failure is inside the layout.
    await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toBeVisible()

    // One automatic reload (two document loads in all), and the event was raised each time.
    expect(documentLoads).toBe(2)
    const seen = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('test:preloadErrors') ?? '[]') as unknown[],
    )
    expect(seen).toEqual([
      { cancelable: true, carriesError: true },
      { cancelable: true, carriesError: true },
    ])

    // Once the file is back (a deployment finished), "Recarregar página" recovers.
    await page.unroute('**/assets/profile-screen-*.js')
    await page.getByRole('button', { name: 'Recarregar página' }).click()
    await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()
  })

  test('a stylesheet that cannot load is a part that failed: one reload, then the error screen', async ({
    page,
  }) => {
    let documentLoads = 0
    page.on('load', () => (documentLoads += 1))
    // A deployment replaced it while the page was open; the inline sign-in CSS still paints.
    await page.route('**/assets/main-*.css', (route) => route.abort('failed'))
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Erro inesperado na aplicação' })).toBeVisible()
    await expect(page.getByText('Não foi possível carregar esta parte do painel')).toBeVisible()
    expect(documentLoads).toBe(2)
    await page.unroute('**/assets/main-*.css')
    await page.getByRole('button', { name: 'Recarregar página' }).click()
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  })

  test('when the layout itself cannot load, the full-page error screen shows and leads back to the start', async ({
    page,
  }) => {
    await page.route('**/assets/default-layout-*.js', (route) => route.abort('failed'))
    await page.goto('/#/dashboard')
    await expect(page.getByRole('heading', { name: 'Erro inesperado na aplicação' })).toBeVisible()
    await expect(page.getByRole('main')).toContainText('Detalhes:')
    await page.unroute('**/assets/default-layout-*.js')
    await page.getByRole('link', { name: 'Ir para o início' }).click()
    await expectRoute(page, '/dashboard')
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  })
})

test.describe('the lists (Equipe, Auditoria): refreshing, offline, paging', () => {
  test.use({ signedInAs: 'admin' })

  const LISTS = [
    {
      path: `/#/equipe?q=${encodeURIComponent(e2e.admin.email)}`,
      api: /\/api\/staff\?/,
      rows: (page: Page) => page.getByRole('row').filter({ hasText: e2e.admin.email }),
    },
    {
      path: '/#/auditoria',
      api: /\/api\/audit(\?|$)/,
      rows: (page: Page) =>
        page.getByRole('list', { name: 'Eventos da auditoria' }).getByRole('listitem').first(),
    },
  ]

  for (const list of LISTS) {
    test(`${list.path.split('?')[0]}: "Atualizar" is busy and disabled while it fetches`, async ({
      page,
    }) => {
      await page.goto(list.path)
      await expect(list.rows(page)).toBeVisible()
      const refresh = page.getByRole('button', { name: 'Atualizar' })
      await expect(refresh).toBeEnabled()
      const held = await holdRequests(page, list.api)
      await refresh.click()
      await expect(refresh).toHaveAttribute('aria-busy', 'true')
      await expect(refresh).toBeDisabled()
      // A second click while it runs asks nothing more.
      await refresh.click({ force: true })
      held.release()
      await expect(refresh).toBeEnabled()
      await expect(refresh).toHaveAttribute('aria-busy', 'false')
      expect(held.count()).toBe(1)
      await expect(list.rows(page)).toBeVisible()
    })

    test(`${list.path.split('?')[0]}: offline, a refresh keeps the rows and says they may be out of date`, async ({
      page,
      context,
    }) => {
      await page.goto(list.path)
      await expect(list.rows(page)).toBeVisible()
      await context.setOffline(true)
      await page.getByRole('button', { name: 'Atualizar' }).click()
      const stale = page.getByText('A lista abaixo pode estar desatualizada.')
      await expect(stale).toBeVisible()
      await expect(stale).toContainText('Sem conexão com o servidor.')
      await expect(list.rows(page)).toBeVisible()

      await context.setOffline(false)
      await page.getByRole('button', { name: 'Atualizar' }).click()
      await expect(stale).toHaveCount(0)
      await expect(list.rows(page)).toBeVisible()
    })
  }

  test('offline, a new filter is not answered with the rows of the old one', async ({
    page,
    context,
  }) => {
    await page.goto(`/#/equipe?q=${encodeURIComponent(e2e.admin.email)}`)
    const row = page.getByRole('row').filter({ hasText: e2e.admin.email })
    await expect(row).toBeVisible()
    await context.setOffline(true)
    await page.getByLabel('Situação').selectOption('disabled')
    // Those rows would claim to be disabled accounts: the failure is said instead.
    await expect(page.getByRole('alert')).toContainText('Sem conexão com o servidor.')
    await expect(row).toHaveCount(0)
    await expect(page.getByText('A lista abaixo pode estar desatualizada.')).toHaveCount(0)
    await context.setOffline(false)
    await page.getByLabel('Situação').selectOption('active')
    await expect(row).toBeVisible()
  })

  /** `count` made-up accounts, served a page of 20 at a time for Equipe's list call. */
  async function serveTeam(page: Page, count: number) {
    const team = Array.from({ length: count }, (_, index) => ({
      id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
      name: `Pessoa ${String(index + 1).padStart(2, '0')}`,
      email: `pessoa-${index + 1}@empresa.com.br`,
      role: 'staff',
      status: 'active',
      invitationExpiresAt: null,
      createdAt: '2026-10-01T12:00:00.000Z',
      lastSignInAt: null,
      locked: false,
      mfa: false,
    }))
    // Equipe's own call only (no status filter): the sidebar's count of pending ones is left be.
    const listCall = (url: URL) =>
      url.pathname.endsWith('/api/staff') && !url.searchParams.has('status')
    await page.route(listCall, (route) => {
      const asked = Number(new URL(route.request().url()).searchParams.get('page') ?? '1')
      const items = team.slice((asked - 1) * 20, asked * 20)
      return route.fulfill({ json: { items, total: team.length, page: asked, pageSize: 20 } })
    })
  }

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`Equipe at ${viewport.width} px: after "Próxima" and "Anterior" the list starts in view, with the focus`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport)
      await serveTeam(page, 45)
      await page.goto('/#/equipe')
      await expect(page.getByText('Pessoa 01', { exact: true })).toBeVisible()
      const count = page.getByText('45 contas', { exact: true })
      const header = page.locator('.header-sticky')

      /** The count line has the focus, and shows below the sticky header once the scroll ends. */
      const expectListTop = async () => {
        await expect(count).toBeFocused()
        await expect(async () => {
          const top = (await count.boundingBox())!
          const headerBox = (await header.boundingBox())!
          expect(top.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height)
          expect(top.y + top.height).toBeLessThanOrEqual(viewport.height)
        }).toPass()
      }

      const next = page.getByRole('button', { name: 'Próxima' })
      await next.scrollIntoViewIfNeeded()
      await expect(count).not.toBeInViewport()
      await next.click()
      await expect(page.getByText('Página 2 de 3')).toBeVisible()
      await expect(page.getByText('Pessoa 21', { exact: true })).toBeVisible()
      await expectListTop()
      // Tab goes on into the new page, not back to the buttons at its foot: the page's "select
      // all" first, then its first row (whatever the row's first control is).
      await page.keyboard.press('Tab')
      await expect(
        page.getByRole('checkbox', { name: 'Selecionar todos desta página' }),
      ).toBeFocused()
      await page.keyboard.press('Tab')
      const focusedRow = await page.evaluate(
        () => document.activeElement?.closest('tr, li')?.textContent ?? '',
      )
      expect(focusedRow).toContain('Pessoa 21')

      const previous = page.getByRole('button', { name: 'Anterior' })
      await previous.scrollIntoViewIfNeeded()
      await expect(count).not.toBeInViewport()
      await previous.click()
      await expect(page.getByText('Página 1 de 3')).toBeVisible()
      await expectListTop()
    })
  }

  test('Auditoria: after "Carregar mais" the focus goes to the first event it brought', async ({
    page,
  }) => {
    const person = (index: number) => ({
      id: '00000000-0000-4000-8000-000000000001',
      name: `Pessoa ${index}`,
      email: `p${index}@empresa.com.br`,
    })
    const event = (index: number) => ({
      id: `0192f3a4-5b6c-7d8e-9f01-${String(index).padStart(12, '0')}`,
      at: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - index * 60_000).toISOString(),
      type: 'sign_in',
      actor: person(index),
      account: person(index),
      ip: '127.0.0.1',
      userAgent: null,
      browser: null,
      details: {},
    })
    await page.route(/\/api\/audit(\?|$)/, (route) => {
      const more = new URL(route.request().url()).searchParams.has('before')
      return route.fulfill({
        json: more
          ? { events: [30, 31, 32].map(event), next: null }
          : {
              events: Array.from({ length: 30 }, (_, index) => event(index)),
              next: '2026-11-20T11:31:00.000Z~0192f3a4-5b6c-7d8e-9f01-000000000029',
            },
      })
    })
    await page.goto('/#/auditoria')
    const events = page.getByRole('list', { name: 'Eventos da auditoria' }).getByRole('listitem')
    await expect(events).toHaveCount(30)
    await page.getByRole('button', { name: 'Carregar mais' }).click()
    await expect(events).toHaveCount(33)
    await expect(events.nth(30)).toBeFocused()
    await expect(events.nth(30)).toBeInViewport()
    await expect(events.nth(30)).toContainText('Pessoa 30')
  })
})
