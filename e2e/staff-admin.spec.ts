import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff, uniqueEmail } from './support/accounts'
import { waitForMail, waitForMailAbout } from './support/mailbox'
import { expectRoute, sidebar, signInWithForm, submitRegistration } from './support/pages'
import { e2e } from './support/test-env'
import { IPHONE_SAFARI } from './support/user-agents'

/** Issue 14: staff administration as admins live in it (Equipe, Auditoria, mails, the badge). */

async function register(page: Page, person: { name: string; email: string; password: string }) {
  await page.goto('/#/register')
  await submitRegistration(page, person)
}

/** Equipe, searched for one person (the shared test database holds many accounts). */
async function openInEquipe(page: Page, email: string) {
  await page.goto(`/#/equipe?q=${encodeURIComponent(email)}`)
  // The first load of a screen may take a while on a busy CI machine.
  await expect(page.getByText('1 conta', { exact: true })).toBeVisible({ timeout: 15_000 })
}

async function confirm(page: Page, button: string) {
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await expect(dialog).toHaveCount(0)
}

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('a registration: the badge and the mail, approval with a confirmation, the mail, sign-in', async ({
    page,
    browser,
    api,
  }) => {
    // Two people, a mail each way and a sign-in: more than the default 30 s on a busy machine.
    test.slow()
    await page.goto('/#/dashboard')
    const badge = sidebar(page).getByRole('link', { name: /^Equipe/ })
    await expect(badge).toBeVisible({ timeout: 15_000 })

    const person = { name: 'Paula Nova', email: uniqueEmail('paula'), password: 'senha-da-paula-1' }
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    await register(await visitor.newPage(), person)

    // The admin's tab catches up when it regains the focus; the badge then counts the registration.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await expect(badge).toContainText(/\d+ cadastros? aguardando aprovação/)
    await openInEquipe(page, person.email)

    // The mail: an admin made after Paula registered, never mailed, so the first mail they get
    // lists every waiting registration, hers included. (Made before, the registrations of the
    // suites running beside this one could spend their one mail a minute first.) Another
    // registration makes the server send the mails now instead of within the minute.
    const second = await createStaff(api, { name: 'Segunda Admin', label: 'admin2' })
    const token = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
    const promoted = await api.patch(`/api/staff/${second.id}`, {
      data: { role: 'admin' },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(promoted.status()).toBe(200)
    await createStaff(api, { name: 'Outro Cadastro', approve: false, label: 'gatilho' })
    // Besides the approval (createStaff waits for it), the promotion itself is a security notice
    // to them; the registrations' mail comes beside it, in either order.
    expect((await waitForMailAbout(second.email, /seu papel foi alterado/)).text).toContain(
      'Administrador',
    )
    const notice = await waitForMailAbout(second.email, /novos? cadastros?/)
    expect(notice.text).toContain(person.email)

    await page.getByRole('button', { name: `Aprovar ${person.name}` }).click()
    await expect(page.getByRole('dialog')).toContainText('receberá um e-mail')
    await confirm(page, 'Aprovar')
    await expect(page.getByText(`O cadastro de ${person.name} foi aprovado.`)).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(person.name) })).toContainText('Ativa')

    const approved = await waitForMail(person.email)
    expect(approved.subject).toBe('Painel: seu cadastro foi aprovado')
    const personPage = await visitor.newPage()
    await personPage.goto('/#/login')
    await signInWithForm(personPage, person)
    await expectRoute(personPage, '/dashboard')
    await visitor.close()
  })

  test('refusing a registration removes it and mails the reason', async ({ page, api }) => {
    const junk = await createStaff(api, { name: 'Cadastro Lixo', approve: false, label: 'lixo' })
    await openInEquipe(page, junk.email)
    await page.getByRole('button', { name: `Recusar ${junk.name}` }).click()
    await page.getByLabel('Motivo (opcional, vai no e-mail)').fill('Não trabalha aqui.')
    await confirm(page, 'Recusar')
    await expect(page.getByText(`O cadastro de ${junk.name} foi recusado.`)).toBeVisible()
    await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
    const mail = await waitForMail(junk.email)
    expect(mail.text).toContain('Motivo informado: Não trabalha aqui.')
  })

  test('disabling an account ends its open session: it lands on the login page, told why', async ({
    page,
    api,
    browser,
  }) => {
    const staff = await createStaff(api, { name: 'Sai Agora', label: 'sai' })
    const token = await apiSignIn(api, staff.email, staff.password)
    const theirs = await browser.newContext({
      storageState: {
        cookies: [],
        origins: [
          {
            origin: e2e.baseURL,
            localStorage: [{ name: 'token_adm', value: JSON.stringify({ token }) }],
          },
        ],
      },
    })
    const their = await theirs.newPage()
    await their.goto('/#/perfil')
    await expect(their.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()

    await openInEquipe(page, staff.email)
    await page.getByRole('button', { name: `Desativar ${staff.name}` }).click()
    await expect(page.getByRole('dialog')).toContainText(
      'sessões abertas dessa conta serão encerradas',
    )
    await confirm(page, 'Desativar')
    await expect(page.getByText(`A conta de ${staff.name} foi desativada.`)).toBeVisible()

    // Their next request is refused: the panel forgets the token and shows the login page.
    await their.reload()
    await expectRoute(their, '/login?redirect=%2Fperfil')
    await expect(their.getByRole('status')).toContainText(
      'Sua conta foi desativada. Fale com um administrador da equipe.',
    )
    await theirs.close()
  })

  test('an invitation: the person sets a password from the mail and signs in', async ({
    page,
    browser,
  }) => {
    test.slow()
    const email = uniqueEmail('convite')
    await page.goto('/#/equipe')
    await page.getByRole('button', { name: 'Convidar pessoa' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Nome').fill('Igor Convidado')
    await dialog.getByLabel('E-mail').fill(email)
    await dialog.getByLabel('Papel').selectOption({ label: 'Equipe' })
    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    await expect(page.getByText(`Convite enviado para ${email}.`)).toBeVisible()

    const mail = await waitForMail(email)
    const link = /https?:\/\/\S+#\/recuperar-senha\?token=[A-Za-z0-9_-]{43}&convite=1/.exec(
      mail.text,
    )
    expect(link, mail.text).not.toBeNull()
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    const invited = await context.newPage()
    await invited.goto(new URL(link![0]).hash.replace(/^/, '/'))
    await expect(invited.getByRole('heading', { name: 'Criar sua senha' })).toBeVisible()
    await invited.getByLabel('Nova senha', { exact: true }).fill('senha-do-igor-1')
    await invited.getByLabel('Confirmar nova senha').fill('senha-do-igor-1')
    await invited.getByRole('button', { name: 'Criar senha' }).click()
    await expect(invited.getByRole('heading', { name: 'Senha criada' })).toBeVisible()
    await invited.goto('/#/login')
    await signInWithForm(invited, { email, password: 'senha-do-igor-1' })
    await expectRoute(invited, '/dashboard')
    await context.close()

    // The audit log shows the invitation and the sign-in, and its CSV holds them.
    await page.goto('/#/auditoria')
    await page.getByLabel('Tipo').selectOption('invited')
    await expectRoute(page, '/auditoria?type=invited')
    const events = page.getByRole('list', { name: 'Eventos da auditoria' })
    await expect(events.getByText('Igor Convidado').first()).toBeVisible()
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Exportar CSV' }).click()
    const file = await (await download).path()
    const { readFile } = await import('node:fs/promises')
    const csv = await readFile(file)
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = csv.toString('utf8')
    expect(text).toContain(`;Convite enviado;`)
    expect(text).toContain(email)
    expect(text).not.toContain(';Entrou;')
  })

  test('Auditoria lists approvals, refusals and disablings, filtered by type', async ({
    page,
    api,
  }) => {
    const pending = await createStaff(api, { name: 'Auditada Pendente', approve: false })
    const token = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
    const auth = { authorization: `Bearer ${token}` }
    expect(
      (
        await api.patch(`/api/staff/${pending.id}`, { data: { status: 'active' }, headers: auth })
      ).status(),
    ).toBe(200)
    expect(
      (
        await api.patch(`/api/staff/${pending.id}`, { data: { status: 'disabled' }, headers: auth })
      ).status(),
    ).toBe(200)

    const refused = await createStaff(api, { name: 'Auditada Recusada', approve: false })
    expect((await api.delete(`/api/staff/${refused.id}`, { headers: auth })).status()).toBe(204)

    // The log keeps the refusal after the account is gone.
    await page.goto(`/#/auditoria?account=${refused.id}`)
    const events = page.getByRole('list', { name: 'Eventos da auditoria' })
    await expect(events.getByText('Cadastro recusado')).toBeVisible()
    await expect(events.getByText(refused.name).first()).toBeVisible()

    await page.goto(`/#/auditoria?account=${pending.id}`)
    await expect(events.getByText('Cadastro aprovado')).toBeVisible()
    await expect(events.getByText('Conta desativada')).toBeVisible()
    await expect(events.getByText('Cadastro recebido')).toBeVisible()
    await expect(events.getByText('Cadastro recusado')).toHaveCount(0)
    await page.getByLabel('Tipo').selectOption('disabled')
    await expect(events.getByText('Conta desativada')).toBeVisible()
    await expect(events.getByText('Cadastro aprovado')).toHaveCount(0)
  })

  test('Equipe\'s search row: the box, the filters, then "Limpar filtros"', async ({ page }) => {
    await page.goto('/#/equipe')
    const form = page.getByRole('search')
    await expect(form.getByRole('button', { name: /^Filtros/ })).toBeHidden()
    const box = form.getByLabel('Buscar por nome ou e-mail')
    await box.fill(e2e.admin.email)
    await box.press('Enter')
    await expect(page).toHaveURL(new RegExp(`#/equipe\\?q=${encodeURIComponent(e2e.admin.email)}$`))
    await expect(page.getByText('1 conta', { exact: true })).toBeVisible()
    // "Limpar filtros" comes after the last filter, where it is drawn and in Tab's order.
    const clear = form.getByRole('button', { name: 'Limpar filtros' })
    const sort = await form.getByLabel('Ordenar').boundingBox()
    const clearBox = await clear.boundingBox()
    expect(
      sort && clearBox && (clearBox.x > sort.x + sort.width - 1 || clearBox.y > sort.y),
      'Limpar after the filters',
    ).toBe(true)
    await form.getByLabel('Ordenar').focus()
    await page.keyboard.press('Tab')
    await expect(clear).toBeFocused()
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } })

    test('every action of Equipe is reachable without sideways scrolling', async ({
      page,
      api,
    }) => {
      const long = await createStaff(api, {
        name: 'Maria Aparecida dos Santos Figueiredo de Albuquerque e Silva Nogueira',
        label: 'um-endereco-de-email-bem-comprido-de-verdade-para-testar',
      })
      await openInEquipe(page, long.email)
      const noSideways = () =>
        page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
      expect(await noSideways()).toBe(true)
      await expect(page.getByRole('table')).toHaveCount(0)
      const card = page.getByRole('list', { name: 'Contas da equipe' }).getByRole('listitem')
      await expect(card.getByRole('button', { name: `Desativar ${long.name}` })).toBeInViewport()
      await card.getByRole('button', { name: `Ações para ${long.name}` }).click()
      for (const action of ['Encerrar sessões', 'Enviar link de nova senha']) {
        await expect(card.getByRole('button', { name: action })).toBeInViewport()
      }
      expect(await noSideways()).toBe(true)
      await card.getByRole('button', { name: 'Encerrar sessões' }).click()
      await confirm(page, 'Encerrar sessões')
      await expect(page.getByText(`As sessões de ${long.name} foram encerradas.`)).toBeVisible()
    })

    test('the filters wait behind "Filtros", so the list starts on the first screen', async ({
      page,
    }) => {
      await page.goto('/#/equipe')
      const cards = page.getByRole('list', { name: 'Contas da equipe' }).getByRole('listitem')
      await expect(cards.first()).toBeInViewport()
      const status = page.getByLabel('Situação')
      await expect(status).toBeHidden()

      const filters = page.getByRole('button', { name: 'Filtros', exact: true })
      await expect(filters).toHaveAttribute('aria-expanded', 'false')
      await filters.click()
      await expect(filters).toHaveAttribute('aria-expanded', 'true')
      await status.selectOption('pending')
      await expect(page).toHaveURL(/#\/equipe\?status=pending$/)
      // Closed again, the button still says that a filter is in use.
      await page.getByRole('button', { name: 'Filtros (1)' }).click()
      await expect(status).toBeHidden()
      const search = page.getByLabel('Buscar por nome ou e-mail')
      await expect(search).toBeVisible()

      // The search applies as typing pauses: no button to find under the box.
      await search.fill('ninguem-com-este-nome')
      await expect(page).toHaveURL(/#\/equipe\?status=pending&q=ninguem-com-este-nome$/)
      await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
    })

    test('Auditoria\'s filters wait behind "Filtros" too, and stay open while they are used', async ({
      page,
    }) => {
      // The people (for the person filters) come in a call of their own: held here until a type
      // has been picked, so their arrival lands after the pick.
      let releasePeople = () => {}
      const peopleHeld = new Promise<void>((resolve) => (releasePeople = resolve))
      const people = /\/api\/staff\?(.*&)?sort=name(&|$)/
      const peopleServed = page.waitForResponse((response) => people.test(response.url()))
      await page.route(people, async (route) => {
        await peopleHeld
        await route.continue()
      })
      await page.goto('/#/auditoria')
      const events = page.getByRole('list', { name: 'Eventos da auditoria' })
      await expect(events.getByRole('listitem').first()).toBeInViewport()
      const type = page.getByLabel('Tipo')
      await expect(type).toBeHidden()

      const filters = page.getByRole('button', { name: 'Filtros', exact: true })
      await expect(filters).toHaveAttribute('aria-expanded', 'false')
      await filters.click()
      await expect(type).toBeVisible()
      await type.selectOption('sign_in')
      releasePeople()
      await peopleServed
      // The people's arrival fills the person filters and leaves the type that was picked.
      await expect(page.getByLabel('Conta', { exact: true }).locator('option')).not.toHaveCount(1)
      await expect(type).toHaveValue('sign_in')
      await expect(page).toHaveURL(/#\/auditoria\?type=sign_in$/)
      // Still open after filtering, and its button counts the filter in use.
      await expect(type).toBeVisible()
      await expect(type).toHaveValue('sign_in')
      const counted = page.getByRole('button', { name: 'Filtros (1)' })
      await expect(counted).toHaveAttribute('aria-expanded', 'true')
      await counted.click()
      await expect(type).toBeHidden()
    })
  })
})

test.describe('Auditoria, as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('names the browser of an event in a few words, not its User-Agent', async ({
    page,
    api,
  }) => {
    const person = await createStaff(api, { label: 'auditoria-navegador' })
    const signIn = await api.post('/api/auth/login', {
      data: { email: person.email, password: person.password },
      headers: { 'user-agent': IPHONE_SAFARI },
    })
    expect(signIn.status()).toBe(200)
    await page.goto(`/#/auditoria?type=sign_in&account=${person.id}`)
    const event = page
      .getByRole('list', { name: 'Eventos da auditoria' })
      .getByRole('listitem')
      .filter({ hasText: 'Entrou' })
    await expect(event).toHaveCount(1)
    await expect(event).toContainText('Safari no iPhone')
    await expect(event).not.toContainText('Mozilla')
  })
})

test('a staff member sees neither Equipe nor Auditoria; their URLs say "sem permissão"', async ({
  page,
  api,
}) => {
  const staff = await createStaff(api)
  await page.goto('/#/login')
  await signInWithForm(page, staff)
  await expectRoute(page, '/dashboard')
  await expect(sidebar(page).getByRole('link', { name: 'Minha conta' })).toBeVisible()
  await expect(sidebar(page).getByRole('link', { name: /Equipe|Auditoria/ })).toHaveCount(0)
  for (const path of ['/equipe', '/auditoria', `/equipe/${staff.id}`]) {
    await page.goto(`/#${path}`)
    await expect(page.getByRole('main').getByText(/sem permissão/i)).toBeVisible()
    await expect(sidebar(page)).toBeVisible()
  }
})
